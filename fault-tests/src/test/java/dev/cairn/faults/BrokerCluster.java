package dev.cairn.faults;

import dev.cairn.kafka.SingleNodeKRaft;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.awaitility.Awaitility;

/**
 * A KRaft Kafka cluster of {@code size} nodes, each both broker and controller and each an OS process of its own:
 * {@code kafka.Kafka} from this JVM's class path (kafka_2.13 and the server jars), its log directory formatted once
 * with {@code kafka.tools.StorageTool}. Every node listens on two free loopback ports that survive
 * {@link #restart(int)}, so the bootstrap address stays the same. Output goes to {@code <dir>/node-N/broker-K.log}.
 *
 * <p>One node is a single-node cluster whose topics have one replica. More nodes replicate every topic to all of
 * them with {@code min.insync.replicas} one less, so that any one node can die without a partition losing its
 * leader: the production shape, and the one in which Kafka keeps transactions whole across a broker crash (see
 * {@code BrokerRestartFaultIT}).
 */
final class BrokerCluster implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(90);
    /**
     * How long a node started again may take to be back: after a SIGKILL it first recovers its partitions' logs (one
     * thread per log directory), and on the 2-core machine, while another build loaded it, one took over 100 s to
     * answer.
     */
    private static final Duration BACK = Duration.ofMinutes(4);

    private final List<Node> nodes;

    private BrokerCluster(List<Node> nodes) {
        this.nodes = nodes;
    }

    /** Formats {@code size} fresh log directories under {@code dir}, starts every node and waits for all of them. */
    static BrokerCluster start(Path dir, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a cluster needs at least one node, not " + size);
        }
        try {
            List<int[]> ports = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                ports.add(new int[] {freePort(), freePort()});
            }
            String voters = java.util.stream.IntStream.range(0, size)
                    .mapToObj(i -> (i + 1) + "@" + SingleNodeKRaft.LOOPBACK + ":" + ports.get(i)[1])
                    .collect(Collectors.joining(","));
            String clusterId = Uuid.randomUuid().toString();
            List<Node> nodes = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                Path home = dir.resolve("node-" + (i + 1));
                Files.createDirectories(home);
                Path properties = home.resolve("server.properties");
                writeProperties(properties, nodeProperties(i + 1, size, ports.get(i), voters,
                        home.resolve("kafka-logs")));
                ChildProcess.runJava("kafka-storage-format", List.of("-cp", System.getProperty("java.class.path"),
                        "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", properties.toString()),
                        home.resolve("format.log"), Duration.ofSeconds(60));
                nodes.add(new Node(home, properties, ports.get(i)[0]));
            }
            BrokerCluster cluster = new BrokerCluster(nodes);
            // the nodes form their controller quorum together, so all of them start before any can answer
            nodes.forEach(Node::launch);
            cluster.awaitAllNodes(READY);
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a Kafka cluster in " + dir, e);
        }
    }

    private static Properties nodeProperties(int nodeId, int size, int[] ports, String voters, Path logs) {
        Properties props = SingleNodeKRaft.properties(ports[0], ports[1], logs);
        props.put("node.id", String.valueOf(nodeId));
        props.put("controller.quorum.voters", voters);
        String replicas = String.valueOf(size);
        String minInSync = String.valueOf(Math.max(1, size - 1));
        for (String key : List.of("offsets.topic.replication.factor", "transaction.state.log.replication.factor",
                "share.coordinator.state.topic.replication.factor", "default.replication.factor")) {
            props.put(key, replicas);
        }
        for (String key : List.of("transaction.state.log.min.isr", "share.coordinator.state.topic.min.isr",
                "min.insync.replicas")) {
            props.put(key, minInSync);
        }
        return props;
    }

    String bootstrapServers() {
        return nodes.stream().map(Node::address).collect(Collectors.joining(","));
    }

    int size() {
        return nodes.size();
    }

    /** How many replicas each topic gets: one per node. */
    short replicationFactor() {
        return (short) nodes.size();
    }

    /** SIGKILLs node {@code index} (0-based). */
    void kill(int index) {
        nodes.get(index).process.kill();
    }

    /**
     * Stops node {@code index} (0-based) cleanly: SIGTERM, on which a node moves the leadership of its partitions
     * to the other replicas before it exits (controlled shutdown); SIGKILL if it still runs after {@code grace}.
     * Answers whether it exited on the SIGTERM. {@link #restart} starts it again.
     */
    boolean stop(int index, Duration grace) {
        return nodes.get(index).process.stop(grace);
    }

    /**
     * The index (0-based) of the node that leads partition {@code partition} of {@code topic} now, as the cluster's
     * metadata says; empty while it has no leader or no node answers. Node ids are the indexes plus one.
     */
    OptionalInt leaderOf(String topic, int partition) {
        try (Admin admin = admin(bootstrapServers())) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            org.apache.kafka.common.Node leader = description.partitions().get(partition).leader();
            return leader == null || leader.isEmpty() ? OptionalInt.empty() : OptionalInt.of(leader.id() - 1);
        } catch (ExecutionException e) {
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking for the leader of " + topic + "-" + partition, e);
        }
    }

    /**
     * Starts node {@code index} again on the same log directory and ports; waits until the cluster lists every
     * node and, with more than one node, until every partition is back on all its replicas, so that the next fault
     * starts from a whole cluster.
     */
    void restart(int index) {
        Node node = nodes.get(index);
        if (node.process.isAlive()) {
            node.process.stop(Duration.ofSeconds(30));
        }
        node.launch();
        awaitAllNodes(BACK);
        if (nodes.size() > 1) {
            Awaitility.await("every partition on all " + nodes.size() + " replicas again").atMost(BACK)
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(this::fullyReplicated);
        }
    }

    private void awaitAllNodes(Duration atMost) {
        for (Node node : nodes) {
            Awaitility.await("Kafka node answering at " + node.address()).atMost(atMost)
                    .pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> node.answers(nodes.size()));
        }
    }

    /**
     * How {@code topics} are replicated: the fewest replicas any partition of each has, and its
     * {@code min.insync.replicas} (its own or, as for the pipeline's topics, the nodes' default).
     */
    Map<String, Replication> replication(Collection<String> topics) {
        try (Admin admin = admin(bootstrapServers())) {
            Map<String, TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames().get();
            List<ConfigResource> resources = topics.stream()
                    .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic)).toList();
            Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get();
            Map<String, Replication> replication = new TreeMap<>();
            for (ConfigResource resource : resources) {
                int replicas = descriptions.get(resource.name()).partitions().stream()
                        .mapToInt(p -> p.replicas().size()).min().orElse(0);
                String minInSync = configs.get(resource).get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value();
                replication.put(resource.name(), new Replication(replicas, Integer.parseInt(minInSync)));
            }
            return replication;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe the topics " + topics, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing the topics " + topics, e);
        }
    }

    /** A topic's replication: the fewest replicas of its partitions, and its {@code min.insync.replicas}. */
    record Replication(int replicas, int minInSyncReplicas) {}

    private boolean fullyReplicated() throws Exception {
        try (Admin admin = admin(bootstrapServers())) {
            Collection<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
            Map<String, TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames().get();
            return descriptions.values().stream().flatMap(d -> d.partitions().stream())
                    .allMatch(p -> p.leader() != null && p.isr().size() == p.replicas().size());
        }
    }

    private static Admin admin(String bootstrapServers) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                3000));
    }

    private static void writeProperties(Path file, Properties props) throws IOException {
        try (Writer writer = Files.newBufferedWriter(file)) {
            props.store(writer, "Cairn fault tests: " + SingleNodeKRaft.class.getSimpleName());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * SIGKILLs every node: the test is over and its directories are thrown away. A clean stop, one node after the
     * other, leaves the last node of three waiting for a controller quorum that is gone.
     */
    @Override
    public void close() {
        nodes.stream().filter(n -> n.process != null && n.process.isAlive()).forEach(n -> n.process.kill());
    }

    /** One node: its directory, its server properties, its client port and its current process. */
    private static final class Node {
        private final Path dir;
        private final Path properties;
        private final int clientPort;
        private ChildProcess process;
        private int incarnation;

        Node(Path dir, Path properties, int clientPort) {
            this.dir = dir;
            this.properties = properties;
            this.clientPort = clientPort;
        }

        String address() {
            return SingleNodeKRaft.LOOPBACK + ":" + clientPort;
        }

        void launch() {
            incarnation++;
            process = ChildProcess.startJava("kafka-node " + dir.getFileName(), List.of("-Xmx512m", "-cp",
                    System.getProperty("java.class.path"), "kafka.Kafka", properties.toString()),
                    dir.resolve("broker-" + incarnation + ".log"));
        }

        /** Whether this node takes connections and its cluster lists {@code size} brokers. */
        boolean answers(int size) throws Exception {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Kafka node exited; see " + process.log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(SingleNodeKRaft.LOOPBACK, clientPort), 500);
            }
            try (Admin admin = admin(address())) {
                return admin.describeCluster().nodes().get().size() == size;
            }
        }
    }
}
