package dev.cairn.coordinator.streams;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.coordinator.metrics.CoordinatorMetrics;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.topics.CairnTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The coordinator topology on a TopologyTestDriver, the one every topology test uses: built by
 * {@link CoordinatorTopology#build} with the production Streams properties ({@link CoordinatorApp#streamsProperties}),
 * a mocked wall clock starting at {@link #START}, no jitter, and the default topics. It plays users and sidecars,
 * hands out the input and output topics, and exposes its stores as a {@link CoordinatorState} and a
 * {@link StateSource}.
 */
public final class CoordinatorDriver implements AutoCloseable {

    /** Where the mocked wall clock starts. */
    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    /** The topics of the topology. */
    public static final CairnTopics TOPICS = CairnTopics.defaults();
    /** The wall-clock punctuator's interval. */
    public static final Duration TICK = Duration.ofMillis(100);

    private final TopologyTestDriver driver;
    private final SigningKey masterKey;
    private final TestInputTopic<String, RequestEnvelope> requests;
    private final TestInputTopic<String, AckEnvelope> acks;
    private final TestOutputTopic<String, ControlEnvelope> control;
    private long wallClockMs = START.toEpochMilli();

    private CoordinatorDriver(Builder options) {
        CoordinatorConfig config = CoordinatorConfig.forLocalBroker("unused:9092", "topology-test", options.stateDir);
        Properties props = CoordinatorApp.streamsProperties(config);
        // the test driver under exactly-once drops the dead letters of records it could not deserialize
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        if (options.metrics != null) {
            props.put(DeadLetterQueueHandler.METER_REGISTRY, options.metrics.registry());
        }
        driver = new TopologyTestDriver(topology(options), props, START);
        masterKey = options.masterKey;
        requests = requests();
        acks = acks();
        control = control();
    }

    private static Topology topology(Builder options) {
        return CoordinatorTopology.build(new TopologyOptions(TOPICS, CoordinatorSettings.DEFAULTS, () -> 0.0, TICK,
                options.maxRecordBytes, options.auth(),
                options.metrics == null ? DecisionListener.NONE : options.metrics.decisions(), options.journal,
                options.snapshots, options.wrapDecide == null ? UnaryOperator.identity() : options.wrapDecide));
    }

    /** A driver whose stores live in {@code stateDir}; see {@link Builder}. */
    public static Builder on(Path stateDir) {
        return new Builder(stateDir);
    }

    /** A driver whose stores live in {@code stateDir}, with every option at its default. */
    public static CoordinatorDriver start(Path stateDir) {
        return on(stateDir).start();
    }

    /** Options of the topology: metrics, the largest record, signed acks, a wrapped decider. */
    public static final class Builder {
        private final Path stateDir;
        private CoordinatorMetrics metrics;
        private int maxRecordBytes = CoordinatorTopology.DEFAULT_MAX_RECORD_BYTES;
        private SigningKey masterKey;
        private boolean allowUnsignedRequests;
        private UnaryOperator<CoordinatorProcessor.Decide> wrapDecide;
        private JournalSource journal = JournalSource.EMPTY;
        private SnapshotStore snapshots = SnapshotStore.NONE;

        private Builder(Path stateDir) {
            this.stateDir = stateDir;
        }

        /** The coordinator's metrics count decisions and dead letters. */
        public Builder metrics(CoordinatorMetrics coordinatorMetrics) {
            this.metrics = coordinatorMetrics;
            return this;
        }

        /** The largest record value the coordinator sends. */
        public Builder maxRecordBytes(int bytes) {
            this.maxRecordBytes = bytes;
            return this;
        }

        /**
         * Acks must be signed with their job's key derived from {@code master}, requests with its requests key
         * ({@code null}: nothing is signed).
         */
        public Builder signedWith(SigningKey master) {
            this.masterKey = master;
            return this;
        }

        /** With a master key, unsigned requests are accepted too ({@code allow.unsigned.requests}). */
        public Builder allowUnsignedRequests() {
            this.allowUnsignedRequests = true;
            return this;
        }

        private InputAuthentication auth() {
            return new InputAuthentication(masterKey, allowUnsignedRequests);
        }

        /** The decider wrapped by {@code wrap} (tests make it fail); decisions are then not counted. */
        Builder wrapDecide(UnaryOperator<CoordinatorProcessor.Decide> wrap) {
            this.wrapDecide = wrap;
            return this;
        }

        /** The journal the topology's task rebuilds its stores from when it starts (default: an empty one). */
        public Builder rebuildingFrom(JournalSource source) {
            this.journal = source;
            return this;
        }

        /** Where the task's rebuilds start from and its snapshots go (default: none). */
        public Builder snapshotsIn(SnapshotStore store) {
            this.snapshots = store;
            return this;
        }

        public CoordinatorDriver start() {
            return new CoordinatorDriver(this);
        }
    }

    /** The test driver itself: stores, wall clock. */
    public TopologyTestDriver driver() {
        return driver;
    }

    /** Requests as the REST API and the CLI send them: signed with the requests key when the topology requires it. */
    public TestInputTopic<String, RequestEnvelope> requests() {
        if (masterKey == null) {
            return unsignedRequests();
        }
        return driver.createInputTopic(TOPICS.requests(), new StringSerializer(),
                new SigningSerializer<>(CairnSerdes.requests().serializer(), masterKey.requestsKey()));
    }

    /** Requests without a signature, as a client without the requests key writes them. */
    public TestInputTopic<String, RequestEnvelope> unsignedRequests() {
        return driver.createInputTopic(TOPICS.requests(), new StringSerializer(), CairnSerdes.requests().serializer());
    }

    /** Sidecar records as a sidecar sends them: signed with the job's key when the topology requires it. */
    public TestInputTopic<String, AckEnvelope> acks() {
        if (masterKey == null) {
            return unsignedAcks();
        }
        return driver.createInputTopic(TOPICS.acks(), new StringSerializer(), new SigningSerializer<>(
                CairnSerdes.acks().serializer(), envelope -> masterKey.jobKey(EnvelopeJobIds.of(envelope))));
    }

    /** Sidecar records without a signature. */
    public TestInputTopic<String, AckEnvelope> unsignedAcks() {
        return driver.createInputTopic(TOPICS.acks(), new StringSerializer(), CairnSerdes.acks().serializer());
    }

    public TestInputTopic<byte[], byte[]> rawRequests() {
        return driver.createInputTopic(TOPICS.requests(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    public TestInputTopic<byte[], byte[]> rawAcks() {
        return driver.createInputTopic(TOPICS.acks(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    public TestOutputTopic<String, ControlEnvelope> control() {
        return driver.createOutputTopic(TOPICS.control(), new StringDeserializer(),
                CairnSerdes.control().deserializer());
    }

    public TestOutputTopic<String, JournalEnvelope> journal() {
        return driver.createOutputTopic(TOPICS.journal(), new StringDeserializer(),
                CairnSerdes.journal().deserializer());
    }

    /** The journal as it is on the topic: encoded values, with the headers that name each record's input. */
    public TestOutputTopic<String, byte[]> rawJournal() {
        return driver.createOutputTopic(TOPICS.journal(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    public TestOutputTopic<String, byte[]> completed() {
        return driver.createOutputTopic(TOPICS.completed(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    public TestOutputTopic<byte[], byte[]> deadLetters() {
        return driver.createOutputTopic(TOPICS.dlq(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Tasks of the given parallelism, interval 1 s, timeout 60 s, 2 retained checkpoints, 5 tolerable failures. */
    public static JobSpec spec(String jobId, TaskVertex... tasks) {
        return Events.jobSpec(jobId).setTasks(List.of(tasks))
                .setConfig(Events.config(1_000, 60_000).setRetained(2).setTolerableFailures(5)
                        .setStorageBaseLocation("file:///cp").build())
                .setTimestampMs(START.toEpochMilli()).build();
    }

    public static TaskVertex task(String taskId, int parallelism) {
        return Events.task(taskId, parallelism);
    }

    public void register(JobSpec spec) {
        send(spec.getJobId(), new RequestEnvelope(spec));
    }

    /**
     * A request as the REST API publishes it, keyed by its job, appended the instant it was made: its record timestamp
     * (a broker's append time) is its own {@code timestampMs}.
     */
    public void send(String jobId, RequestEnvelope request) {
        requests.pipeInput(jobId, request, madeAt(request));
    }

    /** When a request was made: its {@code timestampMs}. */
    public static Instant madeAt(RequestEnvelope request) {
        SpecificRecord event = (SpecificRecord) request.getEvent();
        return Instant.ofEpochMilli((Long) event.get(event.getSchema().getField("timestampMs").pos()));
    }

    public void startTask(String jobId, String taskId, int subtask) {
        startTask(jobId, taskId, subtask, null);
    }

    /** The subtask's attempt starts now on {@code host}, as its sidecar names it ({@code null}: none named). */
    public void startTask(String jobId, String taskId, int subtask, String host) {
        acks.pipeInput(jobId, new AckEnvelope(Events.taskStarted(jobId, taskId, subtask, attempt(taskId, subtask))
                .setTimestampMs(now()).setHost(host).build()));
    }

    /** Acks with {@code sizeBytes} of state at the current wall-clock time, sync 1, async 2, alignment 3, delay 4. */
    public void ack(String jobId, long checkpointId, String taskId, int subtask, long sizeBytes) {
        acks.pipeInput(jobId, new AckEnvelope(Events.ack(jobId, checkpointId, taskId, subtask, attempt(taskId, subtask))
                .setStateHandle(Events.state("file:///cp/" + jobId + "/chk-" + checkpointId + "/" + taskId + "-"
                        + subtask, sizeBytes))
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2)
                        .setAlignmentDurationMs(3).setStartDelayMs(4).setBytesPersisted(5).build())
                .setTimestampMs(now()).build()));
    }

    /** A subtask declines the checkpoint (Flink: DeclineCheckpoint), which fails it. */
    public void decline(String jobId, long checkpointId, String taskId, int subtask) {
        acks.pipeInput(jobId, new AckEnvelope(Events.decline(jobId, checkpointId, taskId, subtask,
                attempt(taskId, subtask)).setMessage("declined by the test").setTimestampMs(now())
                .build()));
    }

    /** A request record that is not a request at all: it goes to the dead-letter topic. */
    public void pipeUnreadableRequest(String key) {
        driver.createInputTopic(TOPICS.requests(), new StringSerializer(), new StringSerializer())
                .pipeInput(key, "{not avro}");
    }

    /** Advances the wall clock until the next checkpoint is triggered, and returns it. */
    public CheckpointTriggered nextTrigger() {
        for (int tick = 0; tick < 50; tick++) {
            while (!control.isEmpty()) {
                if (control.readValue().getEvent() instanceof CheckpointTriggered triggered) {
                    return triggered;
                }
            }
            advance(TICK);
        }
        throw new AssertionError("no checkpoint was triggered within 5 s of wall-clock time");
    }

    public void advance(Duration duration) {
        wallClockMs += duration.toMillis();
        driver.advanceWallClockTime(duration);
    }

    /** The mocked wall clock. */
    public long now() {
        return wallClockMs;
    }

    public static String attempt(String taskId, int subtask) {
        return taskId + "-" + subtask + "-a1";
    }

    /** A state source that finds every job here, in this driver's stores. */
    public StateSource localSource() {
        return new StateSource() {
            @Override
            public JobLocation locate(String jobId) {
                return new JobLocation.Local(0);
            }

            @Override
            public CoordinatorState reader(int partition) {
                return CoordinatorDriver.this.reader();
            }

            @Override
            public List<Integer> localPartitions() {
                return List.of(0);
            }

            @Override
            public List<JobLocation.Remote> otherInstances() {
                return List.of();
            }
        };
    }

    /** The stores of the topology's only task. */
    public CoordinatorState reader() {
        return CoordinatorState.over(StreamsStorage.forQueries(driver::getKeyValueStore));
    }

    @Override
    public void close() {
        driver.close();
    }
}
