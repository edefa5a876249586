package dev.cairn.coordinator.testbed;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.access.AccessPolicy;
import dev.cairn.coordinator.rest.access.BearerTokens;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.streams.StreamsStorage;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kafka.test.TopicTail;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real coordinator ({@link CoordinatorApp}) on the test broker, on topics and an application id of its own,
 * and what its users and sidecars do: produce requests and acks (signed, as the coordinator requires, unless the bed
 * is {@link Builder#unsigned()}), read
 * the control topic and the journal (read_committed, as sidecars do), restart the coordinator, call its REST API.
 * One bed per test class (or per test, with {@link #on}); the broker is the run's shared one.
 *
 * <pre>{@code
 * class MyIT {
 *     @RegisterExtension
 *     static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();
 *
 *     @Test void shouldCompleteWhenEveryTaskAcks() {
 *         String job = CoordinatorTestBed.uniqueJobId("x");
 *         cairn.register(Events.job(job, 300, 60_000, "source"));
 *         cairn.startTask(job, "source", 0, "a1");
 *         CheckpointTriggered t = cairn.awaitNextControl(CheckpointTriggered.class, e -> e.getJobId().equals(job));
 *         cairn.ack(job, t.getCheckpointId(), "source", 0, "a1");
 *     }
 * }
 * }</pre>
 */
public final class CoordinatorTestBed implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    /** How long the helpers wait for an event. */
    public static final Duration WAIT = Duration.ofSeconds(60);
    /** The bearer token that may change every job through {@link #restApi()}. */
    public static final String REST_TOKEN = "it-token-0123456789abcdef";

    private final Builder settings;
    private final CairnTopics topics = new CairnTopics("it-" + UUID.randomUUID().toString().substring(0, 8) + ".");
    private String applicationId = "coordinator-" + UUID.randomUUID();
    private final List<String> registered = new CopyOnWriteArrayList<>();
    private final RestClient rest = new RestClient(this::restUri, REST_TOKEN);
    private KafkaCluster kafka;
    private KafkaProducer<String, RequestEnvelope> requests;
    private KafkaProducer<String, AckEnvelope> acks;
    private TopicTail<ControlEnvelope> control;
    private TopicTail<JournalEnvelope> journal;
    private CoordinatorApp coordinator;
    private Path stateDir;
    private Path ownStateDir;

    private CoordinatorTestBed(Builder settings) {
        this.settings = settings;
    }

    private CoordinatorTestBed open(KafkaCluster cluster, Path dir) {
        this.kafka = cluster;
        this.stateDir = dir;
        this.coordinator = startInstance(dir, settings.queryServer);
        this.requests = BedProducers.requests(kafka.bootstrapServers(), settings.masterKey);
        this.acks = BedProducers.acks(kafka.bootstrapServers(), settings.masterKey);
        this.control = TopicTail.fromBeginning(kafka.bootstrapServers(), topics.control(),
                CairnSerdes.control().deserializer(), ControlEnvelope::getEvent);
        this.journal = TopicTail.fromBeginning(kafka.bootstrapServers(), topics.journal(),
                CairnSerdes.journal().deserializer(), JournalEnvelope::getEvent);
        return this;
    }

    /** A bed on {@code kafka} whose coordinator keeps its stores in {@code stateDir}; see {@link Builder#start}. */
    public static Builder on(KafkaCluster kafka, Path stateDir) {
        return new Builder(kafka, stateDir);
    }

    /**
     * A bed for a whole test class, on the run's shared broker and in a temporary state directory: register it
     * with {@code @RegisterExtension static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass()
     * .create();}; it starts before the class's first test and closes after its last.
     */
    public static Builder perTestClass() {
        return new Builder(null, null);
    }

    /**
     * What the coordinator runs with: 2 partitions per topic, no REST API, and, as the documented coordinator
     * command does, sidecar records and requests that must be signed (with a master key of the bed's own) unless
     * {@link #unsigned()} is set.
     */
    public static final class Builder {
        private final KafkaCluster kafka;
        private final Path stateDir;
        private int partitions = 2;
        private QueryServerConfig queryServer;
        private SigningKey masterKey = SigningKey.generate();
        private SigningKey previousMasterKey;
        private Instant previousMasterKeyUntil;
        private final Map<String, String> kafkaProperties = new HashMap<>();

        private Builder(KafkaCluster kafka, Path stateDir) {
            this.kafka = kafka;
            this.stateDir = stateDir;
        }

        /** The bed of {@link #perTestClass()}, to register as a JUnit extension; it is not open yet. */
        public CoordinatorTestBed create() {
            return new CoordinatorTestBed(this);
        }

        /** A Kafka property of the coordinator ({@code --kafka-config}), e.g. a producer setting. */
        public Builder kafkaProperty(String key, String value) {
            kafkaProperties.put(key, value);
            return this;
        }

        /** Partitions of every topic. */
        public Builder partitions(int count) {
            this.partitions = count;
            return this;
        }

        /** The REST API of {@link #restApi()}. */
        public Builder withRestApi() {
            return withRestApi(restApi());
        }

        /** The REST API at {@code config}, also after a restart. */
        public Builder withRestApi(QueryServerConfig config) {
            this.queryServer = config;
            return this;
        }

        /** Sidecar records are signed with the job's key derived from {@code master} (the default: a new key). */
        public Builder signedWith(SigningKey master) {
            this.masterKey = Objects.requireNonNull(master, "master");
            return this;
        }

        /**
         * A coordinator in a key rotation: records signed with keys derived from {@code previous} are accepted too
         * until {@code until} ({@code sidecar.previous.master.key.file} and {@code .until}).
         */
        public Builder withPreviousMasterKey(SigningKey previous, Instant until) {
            this.previousMasterKey = Objects.requireNonNull(previous, "previous");
            this.previousMasterKeyUntil = Objects.requireNonNull(until, "until");
            return this;
        }

        /**
         * A coordinator without master key that accepts unsigned sidecar records and requests
         * ({@code --allow-unsigned-sidecar-records --allow-unsigned-requests}), and a bed that sends them unsigned:
         * only for tests whose subject is that mode.
         */
        public Builder unsigned() {
            this.masterKey = null;
            return this;
        }

        /** Starts the coordinator of {@link #on} and waits until it runs; the caller closes the bed. */
        public CoordinatorTestBed start() {
            return new CoordinatorTestBed(this).open(kafka, stateDir);
        }
    }


    /** A REST API on loopback, on a free port, where {@link #REST_TOKEN} may change every job. */
    public static QueryServerConfig restApi() {
        return restApi(false);
    }

    /** As {@link #restApi()}; with {@code readsNeedToken} every read needs {@link #REST_TOKEN} too. */
    public static QueryServerConfig restApi(boolean readsNeedToken) {
        return QueryServerConfig.loopback().withAccess(AccessPolicy.withTokens(
                BearerTokens.parse(Map.of("it.token", REST_TOKEN), "the ITs' tokens"), readsNeedToken));
    }

    /** A job id no other test uses. */
    public static String uniqueJobId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private CoordinatorApp startInstance(Path dir, QueryServerConfig queryServer) {
        CoordinatorConfig config = new CoordinatorConfig(kafka.bootstrapServers(), applicationId, topics,
                settings.partitions, (short) 1, dir, Duration.ofMillis(50), Duration.ofMillis(20),
                settings.kafkaProperties, queryServer, CoordinatorConfig.Failover.DEFAULTS, settings.masterKey,
                settings.masterKey == null, InputLimits.DEFAULTS, (short) 1,
                CoordinatorConfig.DEFAULT_SNAPSHOT_INTERVAL, settings.previousMasterKey,
                settings.previousMasterKeyUntil);
        CoordinatorApp app = CoordinatorApp.start(config);
        Awaitility.await().atMost(WAIT).until(() -> app.streams().state() == KafkaStreams.State.RUNNING);
        return app;
    }

    /** Stops the coordinator and starts a new instance of the same application on {@code newStateDir}. */
    public void restart(Path newStateDir) {
        coordinator.close();
        stateDir = newStateDir;
        coordinator = startInstance(newStateDir, settings.queryServer);
    }

    /**
     * Stops the coordinator and starts an instance of a new application (a new id, so no changelogs and no
     * committed input offsets) on the same topics, with its stores in {@code newStateDir}; {@code afterStop} is given
     * the old application's id once its coordinator stopped.
     */
    public void restartAsNewApplication(Path newStateDir, java.util.function.Consumer<String> afterStop) {
        coordinator.close();
        afterStop.accept(applicationId);
        applicationId = "coordinator-" + UUID.randomUUID();
        stateDir = newStateDir;
        coordinator = startInstance(newStateDir, settings.queryServer);
    }

    /** Stops the coordinator and starts it again on the same state directory. */
    public void restart() {
        restart(stateDir);
    }

    /**
     * Starts one more instance of the same application (same id, same topics) on {@code dir}, with its REST API
     * at {@code queryServer}; the caller closes it.
     */
    public CoordinatorApp startAnotherInstance(Path dir, QueryServerConfig queryServer) {
        return startInstance(dir, queryServer);
    }

    public CoordinatorApp coordinator() {
        return coordinator;
    }

    public CairnTopics topics() {
        return topics;
    }

    /**
     * The key a sidecar of {@code jobId} signs its records with (give it to a sidecar with
     * {@code SidecarConfig.withAuthKey}); empty when the bed runs {@link Builder#unsigned()}.
     */
    public Optional<SigningKey> jobKey(String jobId) {
        return Optional.ofNullable(settings.masterKey).map(master -> master.jobKey(jobId));
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The REST API of the coordinator, e.g. {@code http://127.0.0.1:40123}. */
    public URI restUri() {
        return coordinator.queryServer().orElseThrow(() -> new IllegalStateException("started without REST API"))
                .uri();
    }

    /**
     * The client of the coordinator's REST API that sends {@link #REST_TOKEN}: one per bed, whose pooled connections
     * stay within the API's connections per client.
     */
    public RestClient rest() {
        return rest;
    }

    /** The job's state as the coordinator's store holds it now (an interactive query). */
    public JobState liveJob(String jobId) {
        return CoordinatorState.over(StreamsStorage.forQueries(name -> coordinator.streams().store(
                StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore()))))
                .job(jobId).orElse(null);
    }

    /** Produces the job spec to the requests topic. */
    public void register(JobSpec spec) {
        sendRequest(spec.getJobId(), new RequestEnvelope(spec));
        registered.add(spec.getJobId());
    }

    /** Suspends every job registered so far, so that a test class's next test runs without their load. */
    public void suspendRegisteredJobs() {
        registered.forEach(job -> changeStatus(job, JobStatus.SUSPENDED));
        registered.clear();
    }

    public void changeStatus(String jobId, JobStatus status) {
        sendRequest(jobId, new RequestEnvelope(Events.statusChange(jobId, status)));
    }

    /** Produces {@code request} to the requests topic, keyed by {@code jobId}. */
    public void sendRequest(String jobId, RequestEnvelope request) {
        BedProducers.send(requests, topics.requests(), jobId, request);
    }

    /**
     * Produces raw bytes to the requests topic as a broken client that holds the requests key would: signed, unless
     * the bed is {@link Builder#unsigned()}.
     */
    public void sendRawRequest(String key, byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        requestsKey().ifPresent(requestsKey -> RecordSignatures.sign(headers, requestsKey, value));
        sendRawRequest(key, value, headers);
    }

    /** Produces raw bytes with exactly {@code headers} (none: unsigned, as an attacker would) to the requests topic. */
    public void sendRawRequest(String key, byte[] value, Headers headers) {
        BedProducers.sendRaw(kafka.bootstrapServers(), topics.requests(), key, value, headers);
    }

    /** The key requests are signed with; empty when the bed runs {@link Builder#unsigned()}. */
    public Optional<SigningKey> requestsKey() {
        return Optional.ofNullable(settings.masterKey).map(SigningKey::requestsKey);
    }

    /** Produces a sidecar's event ({@code TaskStarted}, an ack, a decline...) to the acks topic. */
    public void sendAck(String jobId, Object event) {
        BedProducers.send(acks, topics.acks(), jobId, new AckEnvelope(event));
    }

    /**
     * Produces a sidecar's event to the acks topic signed with {@code jobKey} (and its key id) instead of the key the
     * bed derives: as a sidecar still holding a key of the previous master key sends it.
     */
    public void sendAckSignedWith(SigningKey jobKey, String jobId, Object event) {
        byte[] value = CairnSerdes.acks().serialize(topics.acks(), new AckEnvelope(event));
        RecordHeaders headers = new RecordHeaders();
        RecordSignatures.sign(headers, jobKey, value);
        BedProducers.sendRaw(kafka.bootstrapServers(), topics.acks(), jobId, value, headers);
    }

    public void startTask(String jobId, String taskId, int subtaskIndex, String attemptId) {
        sendAck(jobId, Events.taskStarted(jobId, taskId, subtaskIndex, attemptId).build());
    }

    /** Acks as {@link Events#ack} does. */
    public void ack(String jobId, long checkpointId, String taskId, int subtaskIndex, String attemptId) {
        sendAck(jobId, Events.ack(jobId, checkpointId, taskId, subtaskIndex, attemptId).build());
    }

    /** Declines as {@link Events#decline} does. */
    public void decline(String jobId, long checkpointId, String taskId, int subtaskIndex, String attemptId) {
        sendAck(jobId, Events.decline(jobId, checkpointId, taskId, subtaskIndex, attemptId).build());
    }

    /** Waits for the next control event of {@code type} that matches, after those this method returned. */
    public <T> T awaitNextControl(Class<T> type, Predicate<T> matching) {
        return control.awaitNext(type, matching, WAIT);
    }

    /** Waits for the next journal event of {@code type} that matches, after those this method returned. */
    public <T> T awaitNextJournal(Class<T> type, Predicate<T> matching) {
        return journal.awaitNext(type, matching, WAIT);
    }

    /** Waits for the first control event (from the beginning) of {@code type} that matches. */
    public <T> T awaitControl(Class<T> type, Predicate<T> matching) {
        return control.await(type, matching, WAIT);
    }

    /** Waits for the first journal event (from the beginning) of {@code type} that matches. */
    public <T> T awaitJournal(Class<T> type, Predicate<T> matching) {
        return journal.await(type, matching, WAIT);
    }

    /** Every journal event of {@code type} that matches, read so far (reads what is new first). */
    public <T> List<T> journal(Class<T> type, Predicate<T> matching) {
        return journal.all(type, matching);
    }

    /**
     * The subtask states of a completed checkpoint: the acks the journal accepted for it (a completion carries
     * only their count), as a restore would hand them out.
     */
    public List<SubtaskState> states(CheckpointCompleted completed) {
        return journal(CheckpointAcknowledged.class, a -> a.getJobId().equals(completed.getJobId())
                && a.getCheckpointId() == completed.getCheckpointId()).stream()
                .map(a -> new SubtaskState(a.getTaskId(), a.getSubtaskIndex(), a.getAttemptId(), a.getStateHandle(),
                        -1))
                .toList();
    }

    /** As a registered extension ({@link #perTestClass()}): opens the bed on the shared broker. */
    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        ownStateDir = Files.createTempDirectory("cairn-it-");
        open(KafkaClusterExtension.sharedCluster(context), ownStateDir);
    }

    /** As a registered extension: closes the bed and deletes its state directory. */
    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        close();
        try (Stream<Path> files = Files.walk(ownStateDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Closes the coordinator, the producers and the readers. */
    @Override
    public void close() {
        coordinator.close();
        requests.close();
        acks.close();
        control.close();
        journal.close();
    }
}
