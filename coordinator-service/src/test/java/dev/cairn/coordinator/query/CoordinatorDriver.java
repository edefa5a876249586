package dev.cairn.coordinator.query;

import dev.cairn.coordinator.metrics.CoordinatorMetrics;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.streams.DecisionListener;
import dev.cairn.coordinator.streams.StoreReader;
import dev.cairn.coordinator.domain.CoordinatorSettings;
import dev.cairn.coordinator.streams.CoordinatorStores;
import dev.cairn.coordinator.streams.CoordinatorTopology;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The real coordinator topology on a TopologyTestDriver with a mocked wall clock, playing users and sidecars,
 * and its stores as a {@link StoreReader}: the query side reads exactly what the stream processor wrote.
 */
final class CoordinatorDriver implements AutoCloseable {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final CairnTopics TOPICS = CairnTopics.defaults();

    private final TopologyTestDriver driver;
    private final TestInputTopic<String, RequestEnvelope> requests;
    private final TestInputTopic<String, AckEnvelope> acks;
    private final TestOutputTopic<String, ControlEnvelope> control;
    private long wallClockMs = START.toEpochMilli();

    CoordinatorDriver(Path stateDir) {
        this(stateDir, null);
    }

    /** With the coordinator's metrics counting decisions and dead letters ({@code null}: none). */
    CoordinatorDriver(Path stateDir, CoordinatorMetrics metrics) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "query-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        if (metrics != null) {
            props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, TOPICS.dlq());
            props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                    DeadLetterQueueHandler.class.getName());
            props.put(DeadLetterQueueHandler.METER_REGISTRY, metrics.registry());
        }
        driver = new TopologyTestDriver(CoordinatorTopology.build(TOPICS, CoordinatorSettings.DEFAULTS, () -> 0.0,
                Duration.ofMillis(100), CoordinatorTopology.DEFAULT_MAX_RECORD_BYTES, Optional.empty(),
                metrics == null ? DecisionListener.NONE : metrics.decisions()), props, START);
        requests = driver.createInputTopic(TOPICS.requests(), new StringSerializer(),
                CairnSerdes.requests().serializer());
        acks = driver.createInputTopic(TOPICS.acks(), new StringSerializer(), CairnSerdes.acks().serializer());
        control = driver.createOutputTopic(TOPICS.control(), new StringDeserializer(),
                CairnSerdes.control().deserializer());
    }

    /** Tasks of parallelism {@code parallelism}, interval 1 s, timeout 60 s, 2 retained checkpoints. */
    static JobSpec spec(String jobId, TaskVertex... tasks) {
        return JobSpec.newBuilder().setJobId(jobId).setTasks(List.of(tasks))
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(1_000).setTimeoutMs(60_000).setRetained(2)
                        .setTolerableFailures(5).setStorageBaseLocation("file:///cp").build())
                .setTimestampMs(START.toEpochMilli()).build();
    }

    static TaskVertex task(String taskId, int parallelism) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism).build();
    }

    void register(JobSpec spec) {
        requests.pipeInput(spec.getJobId(), new RequestEnvelope(spec));
    }

    /** A request as the REST API publishes it, keyed by its job. */
    void send(String jobId, RequestEnvelope request) {
        requests.pipeInput(jobId, request);
    }

    void startTask(String jobId, String taskId, int subtask) {
        acks.pipeInput(jobId, new AckEnvelope(TaskStarted.newBuilder().setJobId(jobId).setTaskId(taskId)
                .setSubtaskIndex(subtask).setAttemptId(attempt(taskId, subtask)).setTimestampMs(now()).build()));
    }

    /** Acks with {@code sizeBytes} of state at the current wall-clock time, sync 1, async 2, alignment 3, delay 4. */
    void ack(String jobId, long checkpointId, String taskId, int subtask, long sizeBytes) {
        acks.pipeInput(jobId, new AckEnvelope(CheckpointAcknowledged.newBuilder()
                .setJobId(jobId).setCheckpointId(checkpointId).setTaskId(taskId).setSubtaskIndex(subtask)
                .setAttemptId(attempt(taskId, subtask))
                .setStateHandle(StateHandle.newBuilder()
                        .setLocation("file:///cp/" + jobId + "/chk-" + checkpointId + "/" + taskId + "-" + subtask)
                        .setSizeBytes(sizeBytes).build())
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2)
                        .setAlignmentDurationMs(3).setStartDelayMs(4).setBytesPersisted(5).build())
                .setTimestampMs(now()).build()));
    }

    /** A subtask declines the checkpoint (Flink: DeclineCheckpoint), which fails it. */
    void decline(String jobId, long checkpointId, String taskId, int subtask) {
        acks.pipeInput(jobId, new AckEnvelope(CheckpointDeclined.newBuilder()
                .setJobId(jobId).setCheckpointId(checkpointId).setTaskId(taskId).setSubtaskIndex(subtask)
                .setAttemptId(attempt(taskId, subtask)).setMessage("declined by the test").setTimestampMs(now())
                .build()));
    }

    /** A request record that is not a request at all: it goes to the dead-letter topic. */
    void pipeUnreadableRequest(String key) {
        driver.createInputTopic(TOPICS.requests(), new StringSerializer(), new StringSerializer())
                .pipeInput(key, "{not avro}");
    }

    /** Advances the wall clock until the next checkpoint is triggered, and returns it. */
    CheckpointTriggered nextTrigger() {
        for (int tick = 0; tick < 50; tick++) {
            while (!control.isEmpty()) {
                if (control.readValue().getEvent() instanceof CheckpointTriggered triggered) {
                    return triggered;
                }
            }
            advance(Duration.ofMillis(100));
        }
        throw new AssertionError("no checkpoint was triggered within 5 s of wall-clock time");
    }

    void advance(Duration duration) {
        wallClockMs += duration.toMillis();
        driver.advanceWallClockTime(duration);
    }

    /** The mocked wall clock. */
    long now() {
        return wallClockMs;
    }

    static String attempt(String taskId, int subtask) {
        return taskId + "-" + subtask + "-a1";
    }

    /** A state source that finds every job here, in this driver's stores. */
    StateSource localSource() {
        return new StateSource() {
            @Override
            public JobLocation locate(String jobId) {
                return new JobLocation.Local(0);
            }

            @Override
            public StoreReader reader(int partition) {
                return CoordinatorDriver.this.reader();
            }

            @Override
            public java.util.List<Integer> localPartitions() {
                return java.util.List.of(0);
            }

            @Override
            public java.util.List<JobLocation.Remote> otherInstances() {
                return java.util.List.of();
            }
        };
    }

    /** The stores of the topology's only task. */
    StoreReader reader() {
        return new StoreReader(new StoreReader.Stores() {
            @Override
            public <K, V> org.apache.kafka.streams.state.ReadOnlyKeyValueStore<K, V> store(String name) {
                return driver.getKeyValueStore(name);
            }
        });
    }

    @Override
    public void close() {
        driver.close();
    }
}
