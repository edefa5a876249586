package dev.cairn.coordinator.app;

import dev.cairn.config.Release;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.metrics.CoordinatorMetrics;
import dev.cairn.coordinator.metrics.MetricsHandler;
import dev.cairn.coordinator.rest.sources.RequestPublisher;
import dev.cairn.coordinator.rest.sources.StreamsStateSource;
import dev.cairn.coordinator.streams.CoordinatorTopology;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.streams.DecisionListener;
import dev.cairn.coordinator.streams.InputAuthentication;
import dev.cairn.coordinator.streams.JournalHeadDeletedException;
import dev.cairn.coordinator.streams.KafkaJournalSource;
import dev.cairn.coordinator.streams.KafkaSnapshotStore;
import dev.cairn.coordinator.streams.SnapshotStore;
import dev.cairn.coordinator.streams.StoreLayout;
import dev.cairn.coordinator.streams.TopologyOptions;
import dev.cairn.coordinator.streams.UnsendableInputs;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.events.serde.SchemaCatalog;
import dev.cairn.topics.TopicInitializer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One coordinator instance: creates the topics if missing, then runs the {@link CoordinatorTopology} with
 * exactly-once processing. Main, the demo and the integration tests all start the coordinator this way.
 * With a {@link CoordinatorConfig#queryServer()}, it also serves the REST API over its state stores, and
 * advertises that API's host:port as Kafka Streams' {@code application.server}, so that every instance
 * can route a query to the instance that owns the job, and serves its {@link CoordinatorMetrics} on
 * {@code GET /metrics}.
 */
public final class CoordinatorApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorApp.class);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);

    private final CoordinatorConfig config;
    private final KafkaStreams streams;
    private final ProcessingGate gate;
    private final CountDownLatch running;
    private final QueryServer queryServer;
    private final RequestPublisher requestPublisher;
    private final CoordinatorMetrics metrics;
    private final CompletableFuture<List<String>> durabilityWarnings;
    private final CompletableFuture<RuntimeException> stopped;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CoordinatorApp(CoordinatorConfig config, KafkaStreams streams, ProcessingGate gate, CountDownLatch running,
            QueryServer queryServer, RequestPublisher requestPublisher, CoordinatorMetrics metrics,
            CompletableFuture<List<String>> durabilityWarnings, CompletableFuture<RuntimeException> stopped) {
        this.gate = gate;
        this.config = config;
        this.metrics = metrics;
        this.streams = streams;
        this.running = running;
        this.queryServer = queryServer;
        this.requestPublisher = requestPublisher;
        this.durabilityWarnings = durabilityWarnings;
        this.stopped = stopped;
    }

    /**
     * Creates the topics (idempotently) and starts processing; returns at once, before the first rebalance.
     * The topics are checked and the REST API bound while the topology is built (each takes up to a second
     * in a fresh JVM, which is most of a restart after a crash), and processing starts once the topics are
     * ready and fit to run on. Then, beside processing, it checks that Kafka keeps what Cairn writes to them
     * ({@link KafkaDurability}: it warns of one replica, {@code min.insync.replicas=1} and unclean leader election,
     * and never fails).
     *
     * @throws TopicsRefusedException when a topic is not fit to run on ({@link TopicRules}: a journal that deletes
     *     records, a partition count that is not the journal's, too few replicas, a topic it cannot describe);
     *     Kafka Streams never started then
     */
    public static CoordinatorApp start(CoordinatorConfig config) {
        CompletableFuture<Void> topicsReady = CompletableFuture.runAsync(() -> ensureTopics(config));
        CompletableFuture<QueryServer> restBound = config.queryServer() == null
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.supplyAsync(() -> QueryServer.bind(config.queryServer()));
        try {
            return start(config, topicsReady, restBound);
        } catch (RuntimeException e) {
            restBound.thenAccept(server -> {
                if (server != null) {
                    server.close();
                }
            });
            throw e;
        }
    }

    /** The future's value, or the exception it failed with as it was thrown. */
    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * Builds what {@link #start} builds, without topics and without processing: the topology and its serdes,
     * the REST API (on free loopback ports, with a probes port) and a Kafka Streams instance that is closed at once.
     * Kafka is not contacted. Run under {@code -XX:ArchiveClassesAtExit}, it records the classes a start loads, so that
     * a JVM given that archive ({@code -XX:SharedArchiveFile}) starts the coordinator faster.
     */
    public static void rehearse(CoordinatorConfig config) {
        QueryServer queryServer = QueryServer.bind(QueryServerConfig.loopback().withProbesPort(0));
        try (CoordinatorMetrics metrics = new CoordinatorMetrics()) {
            Topology topology = topology(config, metrics.decisions());
            Properties props = streamsProperties(config);
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, queryServer.applicationServer());
            props.put(DeadLetterQueueHandler.METER_REGISTRY, metrics.registry());
            new KafkaStreams(topology, props).close(Duration.ZERO);
        } finally {
            queryServer.close();
        }
        LOG.info("Rehearsed a start of coordinator {} without contacting Kafka", config.applicationId());
    }

    /** The topology a coordinator with this configuration runs (and rehearses). */
    private static Topology topology(CoordinatorConfig config, DecisionListener listener) {
        CoordinatorSettings settings = CoordinatorSettings.DEFAULTS.withLimits(config.inputLimits());
        SchemaCatalog schemas = CoordinatorSchemas.catalog(config);
        return CoordinatorTopology.build(TopologyOptions.of(config.topics(), settings,
                        () -> ThreadLocalRandom.current().nextDouble(), config.tickInterval())
                .withAuth(new InputAuthentication(config.masterKeys(), config.allowUnsignedRequests(), schemas,
                        Clock.systemUTC()))
                .withListener(listener).withJournal(new KafkaJournalSource(schemas))
                .withSnapshots(config.snapshotInterval().isZero() ? SnapshotStore.NONE : new KafkaSnapshotStore()));
    }

    /**
     * Creates the missing topics and refuses to start on topics that are not fit to run on ({@link TopicChecks}),
     * before anything is written to them.
     */
    private static void ensureTopics(CoordinatorConfig config) {
        try (Admin admin = Admin.create(adminProperties(config))) {
            TopicChecks.checkBeforeCreating(admin, config, TOPIC_TIMEOUT);
            new TopicInitializer(admin, TOPIC_TIMEOUT)
                    .ensure(config.topics(), config.partitions(), config.replicationFactor());
            TopicChecks.check(admin, config, TOPIC_TIMEOUT);
        }
        CoordinatorSchemas.publish(config);
    }

    private static CoordinatorApp start(CoordinatorConfig config, CompletableFuture<Void> topicsReady,
            CompletableFuture<QueryServer> restBound) {
        SigningLog.log(config, Instant.now());
        CoordinatorMetrics metrics = new CoordinatorMetrics();
        Topology topology = topology(config, metrics.decisions());
        Properties props = streamsProperties(config);
        props.put(DeadLetterQueueHandler.METER_REGISTRY, metrics.registry());
        QueryServer queryServer = await(restBound);
        if (queryServer != null) {
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, queryServer.applicationServer());
        }
        return start(config, topology, props, queryServer, topicsReady, metrics);
    }

    private static CoordinatorApp start(CoordinatorConfig config, Topology topology, Properties props,
            QueryServer queryServer, CompletableFuture<Void> topicsReady, CoordinatorMetrics metrics) {
        KafkaStreams streams = new KafkaStreams(topology, props);
        try {
            await(topicsReady);
        } catch (RuntimeException e) {
            streams.close(Duration.ZERO);
            metrics.close();
            throw e;
        }
        // off the path to processing: a restart after a crash does not wait for it, and it never fails start-up
        CompletableFuture<List<String>> durability = KafkaDurability.checkInBackground(config,
                adminProperties(config), Duration.ofSeconds(30)).thenApply(warnings -> {
                    metrics.durabilityWarnings(warnings.size());
                    return warnings;
                });
        StreamThreadFailures failures = new StreamThreadFailures();
        CompletableFuture<RuntimeException> stopped = new CompletableFuture<>();
        streams.setUncaughtExceptionHandler(error -> onStreamThreadFailure(error, failures, stopped));
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        ProcessingGate gate = new ProcessingGate(streams);
        gate.open(config, adminProperties(config));
        LOG.info("Coordinator {} (Cairn {}, store layout {}) started against {} (topics {}*, {} partitions, state in "
                + "{}, {})", config.applicationId(), Release.version(), StoreLayout.CURRENT, config.bootstrapServers(),
                config.topics().prefix(), config.partitions(), config.stateDir(), config.failover());
        RequestPublisher publisher = null;
        if (queryServer != null) {
            publisher = RequestPublisher.kafka(config.bootstrapServers(), config.kafkaProperties(),
                    config.topics().requests(), config.requestsKeys(), Clock.systemUTC());
            StreamsStateSource state = new StreamsStateSource(streams, queryServer.self());
            metrics.bindStreams(streams);
            metrics.watchJobs(state);
            queryServer.start(state, new StreamsHealth(streams::state, failures, System::currentTimeMillis, state),
                    publisher, config.inputLimits(), api -> new MetricsHandler(metrics, api));
        }
        return new CoordinatorApp(config, streams, gate, running, queryServer, publisher, metrics, durability,
                stopped);
    }

    /**
     * A failed stream thread is replaced, unless what failed is one no retry mends (a journal partition whose head was
     * deleted, {@link JournalHeadDeletedException}): then this instance stops processing for good, and
     * {@code stopped} completes with why.
     */
    private static StreamThreadExceptionResponse onStreamThreadFailure(Throwable error, StreamThreadFailures failures,
            CompletableFuture<RuntimeException> stopped) {
        failures.recordFailure(System.currentTimeMillis());
        Optional<JournalHeadDeletedException> deleted = JournalHeadDeletedException.in(error);
        if (deleted.isPresent()) {
            LOG.error("{}", deleted.get().getMessage());
            stopped.complete(deleted.get());
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        LOG.error("Coordinator stream thread failed; replacing it", error);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    /**
     * The Kafka Streams properties of a coordinator: exactly-once, dead-letter handling, low latency, and the
     * {@link CoordinatorConfig.Failover} settings; entries of {@link CoordinatorConfig#kafkaProperties()} override
     * every one of them.
     */
    public static Properties streamsProperties(CoordinatorConfig config) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        props.put(StreamsConfig.CLIENT_ID_CONFIG, LayoutGuard.clientId(config.applicationId(),
                Optional.ofNullable(config.failover().instanceId())
                        .orElseGet(() -> UUID.randomUUID().toString().substring(0, 8))));
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(config.commitInterval().toMillis()));
        // an idle stream thread waits poll.ms (100 ms by default) before it commits: a decision would stay
        // invisible that long under exactly-once, so poll no longer than the commit interval
        props.put(StreamsConfig.POLL_MS_CONFIG, Long.toString(config.commitInterval().toMillis()));
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, Short.toString(config.replicationFactor()));
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, config.topics().dlq());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterQueueHandler.class.getName());
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterQueueHandler.class.getName());
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterQueueHandler.class.getName());
        props.put(UnsendableInputs.CONFIG, new UnsendableInputs());
        // batches of up to 256 KiB, filled for up to 20 ms: every commit flushes the producer anyway, so a linger
        // longer than the commit interval adds no latency, and fuller batches cost the broker fewer requests
        // (the benchmarks module measured 1.2-1.7x the acks/s of linger 5 ms with 16 KiB batches)
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), "20");
        props.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), Integer.toString(256 * 1024));
        // requests and acks are not ordered against each other (the core accepts either order), so a task never
        // waits for its other input partition to have data
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1");
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), "10");
        props.put(SnapshotStore.INTERVAL_CONFIG, Long.toString(config.snapshotInterval().toMillis()));
        putFailoverSettings(props, config);
        config.kafkaProperties().forEach(props::put);
        return props;
    }

    /**
     * Unprefixed keys, so that the same key in {@code --kafka-config} (unprefixed or with a client prefix, which
     * Kafka Streams ranks higher) overrides them.
     */
    private static void putFailoverSettings(Properties props, CoordinatorConfig config) {
        CoordinatorConfig.Failover failover = config.failover();
        boolean userSetInstanceId = config.kafkaProperties().keySet().stream()
                .anyMatch(key -> key.endsWith(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
        if (failover.instanceId() != null && !userSetInstanceId) {
            // only the main consumer joins the group; Kafka Streams appends "-<thread index>" to the id
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), failover.instanceId());
        }
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(failover.sessionTimeout().toMillis()));
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Long.toString(failover.heartbeatInterval().toMillis()));
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, Integer.toString(failover.standbyReplicas()));
        props.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, Long.toString(failover.acceptableRecoveryLag()));
        props.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG,
                Long.toString(failover.probingRebalanceInterval().toMillis()));
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Long.toString(failover.transactionTimeout().toMillis()));
    }

    private static Map<String, Object> adminProperties(CoordinatorConfig config) {
        Map<String, Object> props = new java.util.HashMap<>(config.kafkaProperties());
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        return props;
    }

    /** Waits until the coordinator has been assigned its tasks and processes records; false on time-out. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        return running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public KafkaStreams streams() {
        return streams;
    }

    public CoordinatorConfig config() {
        return config;
    }

    /** The REST API, when the configuration asks for one. */
    public Optional<QueryServer> queryServer() {
        return Optional.ofNullable(queryServer);
    }

    /**
     * Stops the REST API, then processing, and leaves the group, so that other instances take over this
     * one's jobs at once. Closing again does nothing.
     */
    @Override
    public void close() {
        if (closed.getAndSet(true)) {
            return;
        }
        LOG.info("Coordinator {} stopping: REST API first, then processing", config.applicationId());
        if (queryServer != null) {
            queryServer.close();
            requestPublisher.close();
        }
        gate.close();
        boolean stopped = streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        metrics.close();
        if (stopped) {
            LOG.info("Coordinator {} stopped: it left its group, its jobs move to the other instances",
                    config.applicationId());
        } else {
            LOG.warn("Coordinator {} did not stop within 30 s; its jobs move once its session times out",
                    config.applicationId());
        }
    }

    /**
     * The warnings this instance logged at start-up because Kafka can lose what Cairn writes to its topics (one per
     * problem, or one saying the topics could not be described); completes once the check, which runs beside
     * processing, is done, and never exceptionally.
     */
    public CompletableFuture<List<String>> durabilityWarnings() {
        return durabilityWarnings;
    }

    /**
     * Completes when this instance stopped processing for good because of an error that no retry mends (a journal
     * partition whose head was deleted: {@link JournalHeadDeletedException}), with that error; the instance is then
     * to be closed, and its command exits. Never completes otherwise.
     */
    public CompletableFuture<RuntimeException> stopped() {
        return stopped;
    }

    /** The registry of this instance's metrics (what {@code GET /metrics} serves). */
    public CoordinatorMetrics metrics() {
        return metrics;
    }
}
