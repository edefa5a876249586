package dev.cairn.kafka;

import java.nio.file.Path;
import java.util.Properties;

/**
 * The server properties of one Kafka node that is both broker and controller (KRaft), on loopback ports, sized
 * for tests: internal topics with one replica, no initial rebalance delay, modest segments and few threads.
 * Used by {@link EmbeddedKafkaBroker} in this JVM and by tests that run the broker in a process of its own.
 */
public final class SingleNodeKRaft {

    /** The loopback address the node listens on. */
    public static final String LOOPBACK = "127.0.0.1";
    /** The listener clients connect to. */
    public static final String CLIENT_LISTENER = "PLAINTEXT";
    /** The listener of the controller quorum. */
    public static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** The node's id. */
    public static final int NODE_ID = 1;

    private SingleNodeKRaft() {
    }

    /**
     * The properties of a node listening on {@code clientPort} and {@code controllerPort}.
     *
     * @param logDir its log directory (and metadata log directory)
     * @return fresh properties, to be changed as the caller needs
     */
    public static Properties properties(int clientPort, int controllerPort, Path logDir) {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", String.valueOf(NODE_ID));
        props.put("controller.quorum.voters", NODE_ID + "@" + LOOPBACK + ":" + controllerPort);
        props.put("listeners", CLIENT_LISTENER + "://" + LOOPBACK + ":" + clientPort + ","
                + CONTROLLER_LISTENER + "://" + LOOPBACK + ":" + controllerPort);
        props.put("advertised.listeners", CLIENT_LISTENER + "://" + LOOPBACK + ":" + clientPort);
        props.put("controller.listener.names", CONTROLLER_LISTENER);
        props.put("inter.broker.listener.name", CLIENT_LISTENER);
        props.put("listener.security.protocol.map",
                CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        props.put("log.dirs", logDir.toString());
        props.put("metadata.log.dir", logDir.toString());

        // Internal topics for a single node.
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");
        props.put("group.initial.rebalance.delay.ms", "0");

        // Small footprint: modest segments, a small log-cleaner buffer, few threads.
        props.put("log.segment.bytes", String.valueOf(64 * 1024 * 1024));
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        props.put("num.network.threads", "2");
        props.put("num.io.threads", "4");
        props.put("num.recovery.threads.per.data.dir", "1");
        return props;
    }
}
