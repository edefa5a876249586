package dev.cairn.coordinator.app;

import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs one coordinator instance until it is stopped (SIGTERM / Ctrl-C). Every flag also reads an
 * environment variable (shown in {@code --help}); {@code --kafka-config} names a properties file whose
 * entries are passed to the Kafka clients as they are (security settings and the like).
 */
@Command(name = "cairn-coordinator", mixinStandardHelpOptions = true,
        description = "Runs the Cairn checkpoint coordinator (a Kafka Streams application).")
public final class CoordinatorMain implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", defaultValue = "${env:CAIRN_BOOTSTRAP_SERVERS:-localhost:9092}",
            description = "Kafka bootstrap servers (env CAIRN_BOOTSTRAP_SERVERS, default ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--application-id", defaultValue = "${env:CAIRN_APPLICATION_ID:-cairn-coordinator}",
            description = "Kafka Streams application id; instances with the same id share the jobs "
                    + "(env CAIRN_APPLICATION_ID, default ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(names = "--topic-prefix", defaultValue = "${env:CAIRN_TOPIC_PREFIX:-cairn.}",
            description = "Prefix of every topic name (env CAIRN_TOPIC_PREFIX, default ${DEFAULT-VALUE}).")
    String topicPrefix;

    @Option(names = "--partitions", defaultValue = "${env:CAIRN_PARTITIONS:-6}",
            description = "Partitions of every Cairn topic (env CAIRN_PARTITIONS, default ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--replication-factor", defaultValue = "${env:CAIRN_REPLICATION_FACTOR:-1}",
            description = "Replication factor of created topics (env CAIRN_REPLICATION_FACTOR, default ${DEFAULT-VALUE}).")
    short replicationFactor;

    @Option(names = "--state-dir", defaultValue = "${env:CAIRN_STATE_DIR:-/tmp/cairn-coordinator}",
            description = "Where the RocksDB stores live (env CAIRN_STATE_DIR, default ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--tick-interval-ms", defaultValue = "${env:CAIRN_TICK_INTERVAL_MS:-100}",
            description = "How often due timers are looked for (env CAIRN_TICK_INTERVAL_MS, default ${DEFAULT-VALUE}).")
    long tickIntervalMs;

    @Option(names = "--commit-interval-ms", defaultValue = "${env:CAIRN_COMMIT_INTERVAL_MS:-20}",
            description = "Kafka Streams commit interval (env CAIRN_COMMIT_INTERVAL_MS, default ${DEFAULT-VALUE}).")
    long commitIntervalMs;

    @Option(names = "--kafka-config", defaultValue = "${env:CAIRN_KAFKA_CONFIG}",
            description = "Properties file passed to the Kafka clients (env CAIRN_KAFKA_CONFIG).")
    Path kafkaConfig;

    @Mixin
    HttpOptions http = new HttpOptions();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, with errors in the configuration reported like errors in flags. */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new CoordinatorMain());
        commandLine.setExecutionExceptionHandler((error, cmd, parsed) -> {
            if (error instanceof IllegalArgumentException) {
                cmd.getErr().println("cairn-coordinator: " + error.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            if (error instanceof java.io.UncheckedIOException) {
                cmd.getErr().println("cairn-coordinator: " + error.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            }
            throw error;
        });
        return commandLine;
    }

    /** The configuration the flags describe. */
    CoordinatorConfig config() {
        return new CoordinatorConfig(bootstrapServers, applicationId, new CairnTopics(topicPrefix), partitions,
                replicationFactor, stateDir, Duration.ofMillis(tickIntervalMs), Duration.ofMillis(commitIntervalMs),
                kafkaConfig == null ? Map.of() : readKafkaConfig(kafkaConfig), http.toConfig());
    }

    @Override
    public Integer call() throws InterruptedException {
        CoordinatorApp app = CoordinatorApp.start(config());
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.close();
            closed.countDown();
        }, "cairn-shutdown"));
        closed.await();
        return 0;
    }

    /** Reads a properties file, naming the file in any error. */
    static Map<String, String> readKafkaConfig(Path file) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("--kafka-config: cannot read " + file);
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("--kafka-config: " + file + " is not a properties file: " + e.getMessage(), e);
        }
        Map<String, String> values = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> values.put(name, properties.getProperty(name)));
        return values;
    }
}
