package dev.cairn.kafka;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Apache Kafka cluster running inside the current JVM: one KRaft node that is both
 * broker and controller, built from Kafka's own server classes (no mocks, no containers).
 *
 * <p>{@link #start()} formats a fresh temporary log directory with a random cluster id and the latest
 * production metadata version, picks two free ports on {@code 127.0.0.1} (one for clients, one for the
 * controller quorum), starts the server and returns once the broker answers a {@code DescribeCluster}
 * request. The node only listens on the loopback interface. Internal topics are configured for a single
 * node (replication factor 1, {@code transaction.state.log.min.isr=1}) and consumer groups rebalance
 * without the initial delay; every default can be overridden with {@link #start(Map)}. With
 * {@link #start(Map, SaslScram)} the listeners take SASL instead of plaintext (SCRAM for clients), for tests of a
 * secured cluster and its ACLs.
 *
 * <p>{@link #stop()} shuts the node down but keeps its log directory and ports, so that {@link #restart()}
 * brings back the same cluster (same cluster id, same topics and data, same bootstrap address). This is
 * meant for tests of broker outages. {@link #close()} shuts the node down for good and deletes the log
 * directory. All lifecycle methods are thread-safe.
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
 *     String bootstrap = kafka.bootstrapServers(); // e.g. "127.0.0.1:40123"
 *     ...
 * }
 * }</pre>
 *
 * <p>Requires {@code kafka_2.13}, {@code kafka-server}, {@code kafka-metadata} and {@code kafka-server-common}
 * on the class path (this module depends on them).
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private static final String LOOPBACK = SingleNodeKRaft.LOOPBACK;
    private static final String CONTROLLER_LISTENER = SingleNodeKRaft.CONTROLLER_LISTENER;
    private static final int NODE_ID = SingleNodeKRaft.NODE_ID;
    /** How often {@link #start(Map)} retries with new ports when a port was taken between probe and bind. */
    private static final int START_ATTEMPTS = 3;
    /** How long {@link #restart()} keeps retrying to bind the previous ports. */
    private static final Duration REBIND_TIMEOUT = Duration.ofSeconds(30);
    /** Upper bound for the broker to answer its first request after {@code startup()} returned. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, String> overrides;
    private final Path logDir;
    private final String clusterId;
    private final int clientPort;
    private final int controllerPort;
    private final Properties brokerProperties;
    private final SaslScram sasl;
    private final String brokerPassword;

    private KafkaRaftServer server; // guarded by this
    private boolean closed; // guarded by this

    private EmbeddedKafkaBroker(Map<String, String> overrides, Path logDir, String clusterId, int clientPort,
                                int controllerPort, SaslScram sasl) {
        this.overrides = overrides;
        this.logDir = logDir;
        this.clusterId = clusterId;
        this.clientPort = clientPort;
        this.controllerPort = controllerPort;
        this.sasl = sasl;
        this.brokerPassword = sasl == null ? null : Uuid.randomUuid().toString().replace("-", "");
        this.brokerProperties = buildProperties();
    }

    /**
     * Formats a fresh log directory and starts a broker with the default configuration.
     *
     * @return the running broker; close it to shut it down and delete its data
     * @throws IllegalStateException if the broker could not be started
     */
    public static EmbeddedKafkaBroker start() {
        return start(Map.of());
    }

    /**
     * Formats a fresh log directory and starts a broker, applying {@code brokerProperties} on top of the
     * defaults of this class (for example {@code log.segment.bytes} or {@code auto.create.topics.enable}).
     * The listener, quorum, node id and log directory settings are managed by this class and cannot be
     * overridden.
     *
     * @param brokerProperties extra or overriding broker configuration, may be empty
     * @return the running broker; close it to shut it down and delete its data
     * @throws IllegalArgumentException if {@code brokerProperties} tries to set a managed property
     * @throws IllegalStateException    if the broker could not be started
     */
    public static EmbeddedKafkaBroker start(Map<String, ?> brokerProperties) {
        return start(brokerProperties, null);
    }

    /**
     * As {@link #start(Map)}, with SASL on both listeners ({@link SaslScram}): clients connect with SCRAM as a user
     * the admin of {@code sasl} created, and {@link #createAdmin()} signs in as that admin. Without an authorizer in
     * {@code brokerProperties}, every authenticated user may do anything.
     *
     * @param brokerProperties extra or overriding broker configuration, may be empty
     * @param sasl the SCRAM mechanism and the admin; {@code null} for the plaintext listeners of {@link #start(Map)}
     * @return the running broker; close it to shut it down and delete its data
     */
    public static EmbeddedKafkaBroker start(Map<String, ?> brokerProperties, SaslScram sasl) {
        Objects.requireNonNull(brokerProperties, "brokerProperties");
        Map<String, String> overrides = new LinkedHashMap<>();
        brokerProperties.forEach((key, value) -> {
            if (MANAGED_PROPERTIES.contains(key)) {
                throw new IllegalArgumentException("Broker property '" + key
                        + "' is managed by EmbeddedKafkaBroker and cannot be overridden; managed properties: "
                        + MANAGED_PROPERTIES);
            }
            overrides.put(key, String.valueOf(value));
        });

        RuntimeException lastFailure = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            long startNanos = System.nanoTime();
            Path dir = BrokerResources.createTempDir();
            EmbeddedKafkaBroker broker = null;
            try {
                int[] ports = BrokerResources.freeLoopbackPorts(2);
                broker = new EmbeddedKafkaBroker(Map.copyOf(overrides), dir, Uuid.randomUuid().toString(),
                        ports[0], ports[1], sasl);
                broker.format();
                broker.startServer();
                LOG.info("Embedded Kafka broker started at {} in {} ms (cluster {}, log dir {})",
                        broker.bootstrapServers(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                        broker.clusterId, dir);
                return broker;
            } catch (RuntimeException e) {
                lastFailure = e;
                LOG.warn("Embedded Kafka broker failed to start (attempt {} of {}): {}", attempt, START_ATTEMPTS,
                        e.toString());
                BrokerResources.deleteRecursively(dir);
                if (!BrokerResources.isBindFailure(e)) {
                    break;
                }
            }
        }
        throw new IllegalStateException("Could not start the embedded Kafka broker", lastFailure);
    }

    /**
     * The bootstrap address for clients, {@code 127.0.0.1:<port>}. It stays the same across
     * {@link #stop()} and {@link #restart()}.
     *
     * @return the value for the clients' {@code bootstrap.servers}
     */
    public String bootstrapServers() {
        return LOOPBACK + ":" + clientPort;
    }

    /**
     * The client port on {@code 127.0.0.1}.
     *
     * @return the port of the client listener
     */
    public int port() {
        return clientPort;
    }

    /**
     * The id of this cluster, as written to its log directory when it was formatted.
     *
     * @return the cluster id
     */
    public String clusterId() {
        return clusterId;
    }

    /**
     * The log directory of this broker (also its metadata log directory). Deleted by {@link #close()}.
     *
     * @return the log directory
     */
    public Path logDir() {
        return logDir;
    }

    /**
     * Whether the broker is currently running, i.e. started and neither stopped nor closed.
     *
     * @return {@code true} between a successful start or restart and the next stop or close
     */
    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * Creates an admin client for this broker. The caller closes it.
     *
     * @return a new admin client bootstrapped to {@link #bootstrapServers()}
     */
    public Admin createAdmin() {
        return Admin.create(adminClientProperties());
    }

    /**
     * What an admin client of this broker sets: {@code bootstrap.servers}, and on a broker started with
     * {@link SaslScram} the admin's SASL settings.
     *
     * @return a new mutable map
     */
    public Map<String, Object> adminClientProperties() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        if (sasl != null) {
            props.putAll(sasl.adminClientProperties());
        }
        return props;
    }

    /**
     * Shuts the broker down and waits until it has stopped, keeping its log directory and ports for
     * {@link #restart()}. Does nothing if the broker is already stopped.
     *
     * @throws IllegalStateException if the broker has been closed
     */
    public synchronized void stop() {
        ensureNotClosed();
        shutdownServer();
    }

    /**
     * Starts the broker again on the same log directory and the same ports after {@link #stop()}; topics,
     * records and committed offsets survive. If the broker is running, it is stopped first. Returns once
     * the broker answers requests again.
     *
     * @throws IllegalStateException if the broker has been closed or could not be started again
     */
    public synchronized void restart() {
        ensureNotClosed();
        shutdownServer();
        long startNanos = System.nanoTime();
        long deadline = startNanos + REBIND_TIMEOUT.toNanos();
        long backoffMillis = 50;
        while (true) {
            try {
                startServer();
                LOG.info("Embedded Kafka broker restarted at {} in {} ms", bootstrapServers(),
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
                return;
            } catch (RuntimeException e) {
                // A port of the previous incarnation can still be held for a moment by the OS; retry only that.
                if (!BrokerResources.isBindFailure(e)
                        || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMillis) > deadline) {
                    throw new IllegalStateException("Could not restart the embedded Kafka broker at "
                            + bootstrapServers(), e);
                }
                LOG.warn("Embedded Kafka broker could not bind its previous ports yet, retrying: {}", e.toString());
                pause(backoffMillis);
                backoffMillis = Math.min(backoffMillis * 2, 1_000);
            }
        }
    }

    /**
     * Shuts the broker down (if running), waits until it has stopped and deletes its log directory.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            shutdownServer();
        } finally {
            BrokerResources.deleteRecursively(logDir);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaBroker[" + bootstrapServers() + ", cluster " + clusterId + "]";
    }

    // ---------------------------------------------------------------------------------------------------

    private static final List<String> MANAGED_PROPERTIES = List.of(
            "process.roles", "node.id", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
            "listeners", "advertised.listeners", "controller.listener.names", "inter.broker.listener.name",
            "listener.security.protocol.map", "log.dirs", "log.dir", "metadata.log.dir");

    private Properties buildProperties() {
        Properties props = SingleNodeKRaft.properties(clientPort, controllerPort, logDir);
        if (sasl != null) {
            props.putAll(sasl.brokerProperties(clientPort, controllerPort, brokerPassword));
        }
        props.putAll(overrides);
        return props;
    }

    private void format() {
        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8))
                .setNodeId(NODE_ID)
                .setClusterId(clusterId)
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setReleaseVersion(MetadataVersion.latestProduction())
                .setControllerListenerName(CONTROLLER_LISTENER);
        if (sasl != null) {
            formatter.setScramArguments(sasl.formatArguments(brokerPassword));
        }
        long startNanos = System.nanoTime();
        try {
            formatter.run();
            LOG.debug("Formatted {} in {} ms", logDir, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        } catch (Exception e) {
            throw new IllegalStateException("Could not format the log directory " + logDir, e);
        }
    }

    /** Starts a new server incarnation on the existing log directory; cleans up after itself on failure. */
    private synchronized void startServer() {
        KafkaRaftServer candidate = new KafkaRaftServer(KafkaConfig.fromProps(brokerProperties), Time.SYSTEM);
        try {
            long startNanos = System.nanoTime();
            candidate.startup();
            server = candidate;
            long startedNanos = System.nanoTime();
            awaitBrokerAnswers();
            LOG.debug("KafkaRaftServer.startup() took {} ms, first DescribeCluster answer {} ms later",
                    TimeUnit.NANOSECONDS.toMillis(startedNanos - startNanos),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
        } catch (RuntimeException e) {
            server = null;
            shutdownQuietly(candidate);
            throw e;
        }
    }

    /** {@code startup()} returns once the broker is unfenced; make sure it also serves client requests. */
    private void awaitBrokerAnswers() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Map<String, Object> adminProps = adminClientProperties();
        adminProps.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 20);
        adminProps.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 200);
        try (Admin admin = Admin.create(adminProps)) {
            while (true) {
                long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remainingMillis <= 0) {
                    throw new IllegalStateException("Embedded Kafka broker at " + bootstrapServers()
                            + " did not answer DescribeCluster within " + READY_TIMEOUT);
                }
                try {
                    int nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) remainingMillis))
                            .nodes().get(remainingMillis, TimeUnit.MILLISECONDS).size();
                    if (nodes > 0) {
                        return;
                    }
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    LOG.debug("Embedded Kafka broker not answering yet: {}", e.toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while waiting for the embedded Kafka broker", e);
                }
                pause(20);
            }
        }
    }

    private synchronized void shutdownServer() {
        KafkaRaftServer running = server;
        server = null;
        if (running != null) {
            running.shutdown();
            running.awaitShutdown();
            LOG.info("Embedded Kafka broker at {} stopped", bootstrapServers());
        }
    }

    private static void shutdownQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("Error while shutting down a failed embedded Kafka broker", e);
        }
    }

    private void ensureNotClosed() {
        if (closed) {
            throw new IllegalStateException(this + " has been closed");
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting the embedded Kafka broker", e);
        }
    }
}
