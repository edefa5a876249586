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
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.awaitility.Awaitility;

/**
 * A single-node KRaft Kafka broker (broker and controller) as a separate OS process: {@code kafka.Kafka} from
 * this JVM's class path (kafka_2.13 and the server jars), its log directory formatted once with
 * {@code kafka.tools.StorageTool}. It listens on two free loopback ports that survive {@link #restart()}, so the
 * bootstrap address stays the same. Output goes to {@code <dir>/broker-N.log}.
 */
final class BrokerProcess implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(60);

    private final Path dir;
    private final Path properties;
    private final int clientPort;
    private ChildProcess process;
    private int incarnation;

    private BrokerProcess(Path dir, Path properties, int clientPort) {
        this.dir = dir;
        this.properties = properties;
        this.clientPort = clientPort;
    }

    /** Formats a fresh log directory under {@code dir}, starts the broker and waits until it answers. */
    static BrokerProcess start(Path dir) {
        try {
            Files.createDirectories(dir);
            int clientPort = freePort();
            int controllerPort = freePort();
            Path properties = dir.resolve("server.properties");
            writeProperties(properties, dir.resolve("kafka-logs"), clientPort, controllerPort);
            ChildProcess.runJava("kafka-storage-format", List.of("-cp", System.getProperty("java.class.path"),
                    "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c", properties.toString()),
                    dir.resolve("format.log"), Duration.ofSeconds(60));
            BrokerProcess broker = new BrokerProcess(dir, properties, clientPort);
            broker.launch();
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a broker in " + dir, e);
        }
    }

    String bootstrapServers() {
        return "127.0.0.1:" + clientPort;
    }

    /** SIGKILLs the broker. */
    void kill() {
        process.kill();
    }

    /** Starts the broker again on the same log directory and ports; waits until it answers. */
    void restart() {
        if (process.isAlive()) {
            process.stop(Duration.ofSeconds(30));
        }
        launch();
    }

    private void launch() {
        incarnation++;
        process = ChildProcess.startJava("kafka-broker", List.of("-Xmx512m", "-cp", System.getProperty("java.class.path"),
                "kafka.Kafka", properties.toString()), dir.resolve("broker-" + incarnation + ".log"));
        Awaitility.await("broker answering at " + bootstrapServers()).atMost(READY)
                .pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(this::answers);
    }

    private boolean answers() throws Exception {
        if (!process.isAlive()) {
            throw new IllegalStateException("the broker exited; see " + process.log());
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", clientPort), 500);
        }
        try (Admin admin = Admin.create(java.util.Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000))) {
            return !admin.describeCluster().nodes().get().isEmpty();
        }
    }

    private static void writeProperties(Path file, Path logs, int clientPort, int controllerPort) throws IOException {
        Properties props = SingleNodeKRaft.properties(clientPort, controllerPort, logs);
        try (Writer writer = Files.newBufferedWriter(file)) {
            props.store(writer, "Cairn fault tests: " + SingleNodeKRaft.class.getSimpleName());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
        }
    }
}
