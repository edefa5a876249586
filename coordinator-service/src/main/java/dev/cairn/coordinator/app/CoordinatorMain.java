package dev.cairn.coordinator.app;

import dev.cairn.events.auth.SigningKey;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
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

    @Option(names = "--sidecar-master-key-file", defaultValue = "${env:CAIRN_SIDECAR_MASTER_KEY_FILE}",
            description = "File holding the master key (Base64, from `cairn keys generate`) from which every job's "
                    + "sidecar key is derived; records on the acks topic must then be signed with their job's key "
                    + "(env CAIRN_SIDECAR_MASTER_KEY_FILE).")
    Path sidecarMasterKeyFile;

    @Option(names = "--allow-unsigned-sidecar-records", defaultValue = "${env:CAIRN_ALLOW_UNSIGNED_SIDECAR_RECORDS:-false}",
            description = "Accept unsigned TaskStarted, ack and decline records: only where nobody untrusted can "
                    + "write the acks topic (env CAIRN_ALLOW_UNSIGNED_SIDECAR_RECORDS, default ${DEFAULT-VALUE}).")
    boolean allowUnsignedSidecarRecords;

    @Option(names = "--instance-id", defaultValue = "${env:CAIRN_INSTANCE_ID}",
            description = "Stable id of this instance, its group.instance.id (static membership): a restarted instance "
                    + "with the same id takes its jobs back at once instead of after the session timeout. Default: "
                    + "this machine's host name and a hash of --state-dir; an empty value turns static membership "
                    + "off (env CAIRN_INSTANCE_ID).")
    String instanceId;

    @Option(names = "--session-timeout-ms", defaultValue = "${env:CAIRN_SESSION_TIMEOUT_MS:-6000}",
            description = "How long the group waits for a silent (killed) instance before its jobs move to another; "
                    + "at least the broker's group.min.session.timeout.ms (env CAIRN_SESSION_TIMEOUT_MS, default "
                    + "${DEFAULT-VALUE}).")
    long sessionTimeoutMs;

    @Option(names = "--heartbeat-interval-ms", defaultValue = "${env:CAIRN_HEARTBEAT_INTERVAL_MS:-1500}",
            description = "Heartbeat interval, at most a third of the session timeout (env CAIRN_HEARTBEAT_INTERVAL_MS, "
                    + "default ${DEFAULT-VALUE}).")
    long heartbeatIntervalMs;

    @Option(names = "--standby-replicas", defaultValue = "${env:CAIRN_STANDBY_REPLICAS:-1}",
            description = "Warm copies of every store kept on other instances (env CAIRN_STANDBY_REPLICAS, default "
                    + "${DEFAULT-VALUE}).")
    int standbyReplicas;

    @Option(names = "--acceptable-recovery-lag", defaultValue = "${env:CAIRN_ACCEPTABLE_RECOVERY_LAG:-9223372036854775807}",
            description = "Changelog records an instance may lag and still get active jobs at once; a lower value "
                    + "makes a restarted instance warm up first and take its jobs back only at a probing rebalance "
                    + "(env CAIRN_ACCEPTABLE_RECOVERY_LAG, default: no limit).")
    long acceptableRecoveryLag;

    @Option(names = "--probing-rebalance-interval-ms", defaultValue = "${env:CAIRN_PROBING_REBALANCE_INTERVAL_MS:-60000}",
            description = "How often instances that warm up are checked, at least 60000 (env "
                    + "CAIRN_PROBING_REBALANCE_INTERVAL_MS, default ${DEFAULT-VALUE}).")
    long probingRebalanceIntervalMs;

    @Option(names = "--transaction-timeout-ms", defaultValue = "${env:CAIRN_TRANSACTION_TIMEOUT_MS:-5000}",
            description = "transaction.timeout.ms: how long a killed instance's open transaction hides newer records "
                    + "from read_committed readers (env CAIRN_TRANSACTION_TIMEOUT_MS, default ${DEFAULT-VALUE}).")
    long transactionTimeoutMs;

    @Option(names = "--rehearse",
            description = "Build everything a start builds (topology, serdes, REST API on a free loopback port, Kafka "
                    + "Streams clients) without connecting to Kafka, then exit: the training run of a class-data-sharing "
                    + "archive, which makes a restart after a crash about a second faster (README, \"Failover\").")
    boolean rehearse;

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
                kafkaConfig == null ? Map.of() : readKafkaConfig(kafkaConfig), http.toConfig(),
                failover(), sidecarMasterKey());
    }

    /** The master key, or {@code null} when unsigned records are explicitly allowed. */
    private SigningKey sidecarMasterKey() {
        if (sidecarMasterKeyFile != null && allowUnsignedSidecarRecords) {
            throw new IllegalArgumentException("--sidecar-master-key-file and --allow-unsigned-sidecar-records "
                    + "contradict each other: give one");
        }
        if (sidecarMasterKeyFile != null) {
            try {
                return SigningKey.fromFile(sidecarMasterKeyFile);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--sidecar-master-key-file: " + e.getMessage(), e);
            }
        }
        if (!allowUnsignedSidecarRecords) {
            throw new IllegalArgumentException("--sidecar-master-key-file is missing: sidecar records are "
                    + "authenticated with keys derived from a master key (make one with `cairn keys generate`); "
                    + "pass --allow-unsigned-sidecar-records to accept unsigned records on a trusted network");
        }
        return null;
    }

    private CoordinatorConfig.Failover failover() {
        return new CoordinatorConfig.Failover(instanceId == null ? defaultInstanceId(stateDir) : instanceId,
                Duration.ofMillis(sessionTimeoutMs), Duration.ofMillis(heartbeatIntervalMs), standbyReplicas,
                acceptableRecoveryLag, Duration.ofMillis(probingRebalanceIntervalMs),
                Duration.ofMillis(transactionTimeoutMs));
    }

    /**
     * This machine's host name and a hash of the absolute state directory: stable across restarts of the same
     * instance, distinct for two instances on one machine (they cannot share a state directory).
     */
    static String defaultInstanceId(Path stateDir) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        String dir = stateDir.toAbsolutePath().normalize().toString();
        return host + "-" + String.format("%08x", dir.hashCode());
    }

    @Override
    public Integer call() throws InterruptedException {
        if (rehearse) {
            CoordinatorApp.rehearse(config());
            return 0;
        }
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
