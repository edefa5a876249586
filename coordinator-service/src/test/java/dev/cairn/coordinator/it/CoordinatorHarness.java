package dev.cairn.coordinator.it;

import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.coordinator.query.AccessPolicy;
import dev.cairn.coordinator.query.BearerTokens;
import dev.cairn.coordinator.query.QueryServerConfig;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.streams.CoordinatorStores;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.auth.SigningKey;
import dev.cairn.events.auth.SigningSerializer;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.TopicTail;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.awaitility.Awaitility;

/**
 * Runs a real coordinator against the test broker, on topics of its own, and plays the users and sidecars:
 * produces requests and acks, reads the control topic and the journal (read_committed, as sidecars do).
 */
final class CoordinatorHarness implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(45);
    /** The bearer token that may change every job through {@link #restApi()}. */
    static final String REST_TOKEN = "it-token-0123456789abcdef";

    final CairnTopics topics = new CairnTopics("it-" + UUID.randomUUID().toString().substring(0, 8) + ".");
    private final KafkaCluster kafka;
    private final String applicationId = "coordinator-" + UUID.randomUUID();
    private final KafkaProducer<String, RequestEnvelope> requests;
    private final KafkaProducer<String, AckEnvelope> acks;
    private final TopicTail<ControlEnvelope> control;
    private final TopicTail<JournalEnvelope> journal;
    private final QueryServerConfig queryServer;
    private final SigningKey masterKey;
    private CoordinatorApp coordinator;

    CoordinatorHarness(KafkaCluster kafka, Path stateDir) {
        this(kafka, stateDir, null);
    }

    /** With the REST API at {@code queryServer} ({@code null}: none), also after a restart. */
    CoordinatorHarness(KafkaCluster kafka, Path stateDir, QueryServerConfig queryServer) {
        this(kafka, stateDir, queryServer, null);
    }

    /**
     * With the REST API at {@code queryServer} ({@code null}: none) and, when {@code masterKey} is not
     * {@code null}, a coordinator that requires signed sidecar records: the harness then signs every ack,
     * decline and TaskStarted with the job's key derived from it.
     */
    CoordinatorHarness(KafkaCluster kafka, Path stateDir, QueryServerConfig queryServer, SigningKey masterKey) {
        this.kafka = kafka;
        this.queryServer = queryServer;
        this.masterKey = masterKey;
        this.coordinator = startCoordinator(stateDir);
        this.requests = new KafkaProducer<>(producerProps(), new StringSerializer(), CairnSerdes.requests().serializer());
        this.acks = new KafkaProducer<>(producerProps(), new StringSerializer(), masterKey == null
                ? CairnSerdes.acks().serializer()
                : new SigningSerializer<>(CairnSerdes.acks().serializer(),
                        envelope -> masterKey.jobKey(EnvelopeJobIds.of(envelope))));
        this.control = TopicTail.fromBeginning(kafka.bootstrapServers(), topics.control(),
                CairnSerdes.control().deserializer(), ControlEnvelope::getEvent);
        this.journal = TopicTail.fromBeginning(kafka.bootstrapServers(), topics.journal(),
                CairnSerdes.journal().deserializer(), JournalEnvelope::getEvent);
    }

    private CoordinatorApp startCoordinator(Path stateDir) {
        return startCoordinator(stateDir, queryServer);
    }

    private CoordinatorApp startCoordinator(Path stateDir, QueryServerConfig withQueryServer) {
        CoordinatorConfig config = new CoordinatorConfig(kafka.bootstrapServers(), applicationId, topics, 2, (short) 1,
                stateDir, Duration.ofMillis(50), Duration.ofMillis(20), Map.of(), withQueryServer,
                CoordinatorConfig.Failover.DEFAULTS, masterKey);
        CoordinatorApp app = CoordinatorApp.start(config);
        Awaitility.await().atMost(WAIT).until(() -> app.streams().state() == KafkaStreams.State.RUNNING);
        return app;
    }

    /** Stops the coordinator and starts a new instance of the same application on {@code stateDir}. */
    void restartCoordinator(Path stateDir) {
        coordinator.close();
        coordinator = startCoordinator(stateDir);
    }

    CoordinatorApp coordinator() {
        return coordinator;
    }

    /** The REST API of the coordinator, e.g. {@code http://127.0.0.1:40123}. */
    URI queryUri() {
        return coordinator.queryServer().orElseThrow(() -> new IllegalStateException("started without REST API"))
                .uri();
    }

    /**
     * Starts one more instance of the same application (same id, same topics) on {@code stateDir}, with its
     * REST API at {@code withQueryServer}; the caller closes it.
     */
    CoordinatorApp startAnotherInstance(Path stateDir, QueryServerConfig withQueryServer) {
        return startCoordinator(stateDir, withQueryServer);
    }

    /** A REST API on loopback, on a free port, where {@link #REST_TOKEN} may change every job. */
    static QueryServerConfig restApi() {
        return QueryServerConfig.loopback().withAccess(AccessPolicy.withTokens(
                BearerTokens.parse(Map.of("it.token", REST_TOKEN), "the ITs' tokens"), false));
    }

    static JobSpec job(String jobId, long intervalMs, long timeoutMs, String... taskIds) {
        List<TaskVertex> vertices = new ArrayList<>();
        for (String taskId : taskIds) {
            vertices.add(TaskVertex.newBuilder().setTaskId(taskId).setParallelism(1).build());
        }
        return JobSpec.newBuilder().setJobId(jobId).setTasks(vertices)
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(intervalMs).setTimeoutMs(timeoutMs)
                        .setTolerableFailures(100).setStorageBaseLocation("file:///cairn-it").build())
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    void register(JobSpec spec) {
        send(requests, topics.requests(), spec.getJobId(), new RequestEnvelope(spec));
    }

    void changeStatus(String jobId, JobStatus status) {
        send(requests, topics.requests(), jobId, new RequestEnvelope(JobStatusChange.newBuilder().setJobId(jobId)
                .setStatus(status).setTimestampMs(System.currentTimeMillis()).build()));
    }

    /** The job's state as the coordinator's store holds it now (an interactive query). */
    JobState liveJob(String jobId) {
        ReadOnlyKeyValueStore<String, JobState> jobs = coordinator.streams().store(
                StoreQueryParameters.fromNameAndType(CoordinatorStores.JOBS, QueryableStoreTypes.keyValueStore()));
        return jobs.get(jobId);
    }

    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    void startTask(String jobId, String taskId, String attemptId) {
        startTask(jobId, taskId, 0, attemptId);
    }

    void startTask(String jobId, String taskId, int subtaskIndex, String attemptId) {
        send(acks, topics.acks(), jobId, new AckEnvelope(TaskStarted.newBuilder().setJobId(jobId).setTaskId(taskId)
                .setSubtaskIndex(subtaskIndex).setAttemptId(attemptId).setTimestampMs(System.currentTimeMillis())
                .build()));
    }

    void ack(String jobId, long checkpointId, String taskId, String attemptId) {
        ack(jobId, checkpointId, taskId, 0, attemptId);
    }

    /** Acks with a state of 1,000 bytes, sync 1 ms and async 2 ms. */
    void ack(String jobId, long checkpointId, String taskId, int subtaskIndex, String attemptId) {
        send(acks, topics.acks(), jobId, new AckEnvelope(CheckpointAcknowledged.newBuilder()
                .setJobId(jobId).setCheckpointId(checkpointId).setTaskId(taskId).setSubtaskIndex(subtaskIndex)
                .setAttemptId(attemptId)
                .setStateHandle(StateHandle.newBuilder()
                        .setLocation("file:///cairn-it/" + jobId + "/chk-" + checkpointId + "/" + taskId)
                        .setSizeBytes(1_000).build())
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2).build())
                .setTimestampMs(System.currentTimeMillis()).build()));
    }

    void decline(String jobId, long checkpointId, String taskId, String attemptId) {
        send(acks, topics.acks(), jobId, new AckEnvelope(CheckpointDeclined.newBuilder()
                .setJobId(jobId).setCheckpointId(checkpointId).setTaskId(taskId).setSubtaskIndex(0)
                .setAttemptId(attemptId).setReason(CheckpointFailureReason.CHECKPOINT_DECLINED)
                .setMessage("test declines").setTimestampMs(System.currentTimeMillis()).build()));
    }

    /** Produces raw bytes to the requests topic, as a broken client would. */
    void sendRawRequest(String key, byte[] value) {
        try (KafkaProducer<String, byte[]> raw =
                     new KafkaProducer<>(producerProps(), new StringSerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(topics.requests(), key, value));
            raw.flush();
        }
    }

    /** Waits for the next control event of the type that matches, skipping others. */
    <T extends SpecificRecord> T awaitControl(Class<T> type, Predicate<T> matching) {
        return control.awaitNext(type, matching, WAIT);
    }

    /** Every journal event of {@code type} that matches, among everything journaled so far. */
    <T extends SpecificRecord> List<T> journalEvents(Class<T> type, Predicate<T> matching) {
        return journal.all(type, matching);
    }

    <T extends SpecificRecord> T awaitJournal(Class<T> type, Predicate<T> matching) {
        return journal.awaitNext(type, matching, WAIT);
    }

    private static <V> void send(KafkaProducer<String, V> producer, String topic, String key, V value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topic, e);
        }
    }

    private Map<String, Object> producerProps() {
        return Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 0);
    }

    @Override
    public void close() {
        coordinator.close();
        requests.close();
        acks.close();
        control.close();
        journal.close();
    }
}
