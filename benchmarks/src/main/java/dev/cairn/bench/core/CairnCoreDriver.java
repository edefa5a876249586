package dev.cairn.bench.core;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.decide.Decided;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.AvroEventSerde;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Cairn's pure coordinator core ({@link CheckpointDecider} over an {@link CoordinatorState}) behind
 * the {@link CoordinatorDriver} operations. The constructor registers one job of one vertex of parallelism
 * {@code subtasks} (retain 1 checkpoint, at most 1 concurrent, periodic interval and timeout of a year, so
 * nothing periodic or timed fires) and starts every subtask with a 36-character attempt id. Time is logical:
 * one millisecond per command. A message is the {@link Command} the processor hands the decider; delivering
 * it goes through {@link #apply(Command)}: decide, then apply the decided changes, as the processor does.
 */
public final class CairnCoreDriver implements CoordinatorDriver {

    static final String JOB = "job-bench";
    static final String TASK = "source";
    private static final long YEAR_MS = 365L * 24 * 3600 * 1000;
    private static final long STATE_SIZE_BYTES = 1024;
    /** The serdes that encode and decode the messages as the sidecars and the processor do (topic: unused). */
    private static final AvroEventSerde<TriggerRequest> TRIGGERS = AvroEventSerde.currentOnly(TriggerRequest.class);
    private static final AvroEventSerde<CheckpointAcknowledged> ACKS =
            AvroEventSerde.currentOnly(CheckpointAcknowledged.class);
    private static final String TOPIC = "bench";

    private final CheckpointDecider decider = new CheckpointDecider(CoordinatorSettings.DEFAULTS);
    private final CoordinatorState state = CoordinatorState.inMemory();
    private final int subtasks;
    private final String[] attempts;
    private long now = 1_000_000;
    private long requests;
    private long built;

    /** A registered, running job of one vertex with {@code subtasks} started subtasks and nothing pending. */
    public CairnCoreDriver(int subtasks) {
        if (subtasks < 1) {
            throw new IllegalArgumentException("subtasks must be at least 1: " + subtasks);
        }
        this.subtasks = subtasks;
        this.attempts = new String[subtasks];
        apply(new Command.RegisterJob(spec(subtasks), 0.99));
        for (int subtask = 0; subtask < subtasks; subtask++) {
            attempts[subtask] = StateLocations.attemptId(subtask);
            apply(new Command.StartTask(TaskStarted.newBuilder()
                    .setJobId(JOB)
                    .setTaskId(TASK)
                    .setSubtaskIndex(subtask)
                    .setAttemptId(attempts[subtask])
                    .setTimestampMs(now)
                    .build()));
        }
        if (state.job(JOB).isEmpty()) {
            throw new IllegalStateException("the benchmark job was not registered");
        }
    }

    @Override
    public int subtasks() {
        return subtasks;
    }

    /**
     * A {@link Command.RequestTrigger} of a manual checkpoint, its request encoded and decoded (fresh strings, as
     * the processor's decoder makes them), as the processor hands it to the decider.
     */
    @Override
    public Command.RequestTrigger triggerMessage() {
        built++;
        TriggerRequest request = TriggerRequest.newBuilder()
                .setJobId(JOB)
                .setRequestId("bench-request-" + requests++)
                .setType(CheckpointType.CHECKPOINT)
                .setForce(false)
                .setRequester("bench")
                .setTimestampMs(now)
                .build();
        return new Command.RequestTrigger(TRIGGERS.deserialize(TOPIC, TRIGGERS.serialize(TOPIC, request)));
    }

    @Override
    public long deliverTrigger(Object message) {
        for (SpecificRecord event : apply((Command.RequestTrigger) message)) {
            if (event instanceof CheckpointTriggered triggered) {
                return triggered.getCheckpointId();
            }
        }
        throw new IllegalStateException("Cairn did not trigger a checkpoint (is one still pending?)");
    }

    /** A {@link Command.Acknowledge} of a {@link CheckpointAcknowledged} encoded and decoded, as the processor has. */
    @Override
    public Command.Acknowledge ackMessage(long checkpointId, int subtask) {
        built++;
        String attempt = attempts[subtask];
        CheckpointAcknowledged ack = CheckpointAcknowledged.newBuilder()
                .setJobId(JOB)
                .setCheckpointId(checkpointId)
                .setTaskId(TASK)
                .setSubtaskIndex(subtask)
                .setAttemptId(attempt)
                .setStateHandle(StateHandle.newBuilder()
                        .setLocation(StateLocations.of(checkpointId, subtask, attempt))
                        .setSizeBytes(STATE_SIZE_BYTES)
                        .build())
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2).build())
                .setTimestampMs(now)
                .build();
        return new Command.Acknowledge(ACKS.deserialize(TOPIC, ACKS.serialize(TOPIC, ack)));
    }

    @Override
    public boolean deliverAck(Object message) {
        for (SpecificRecord event : apply((Command.Acknowledge) message)) {
            if (event instanceof CheckpointCompleted) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long messagesBuilt() {
        return built;
    }

    @Override
    public void close() {
        // nothing to release: the state lives on the heap
    }

    /** The only call into Cairn's core: decide, then write the decided changes to the state, as the shell does. */
    private List<SpecificRecord> apply(Command command) {
        Decided decided = decider.decide(command, state, now++);
        decided.applyTo(state);
        return decided.events();
    }

    private static JobSpec spec(int subtasks) {
        CheckpointConfig config = CheckpointConfig.newBuilder()
                .setIntervalMs(YEAR_MS)
                .setTimeoutMs(YEAR_MS)
                .setMinPauseMs(0)
                .setMaxConcurrent(1)
                .setTolerableFailures(0)
                .setRetained(1)
                .setStorageBaseLocation("s3://cairn-benchmark-state/checkpoints")
                .build();
        TaskVertex vertex = TaskVertex.newBuilder()
                .setTaskId(TASK)
                .setParallelism(subtasks)
                .setTriggered(true)
                .setAcknowledges(true)
                .setNotified(true)
                .build();
        return JobSpec.newBuilder().setJobId(JOB).setTasks(List.of(vertex)).setConfig(config).setTimestampMs(0)
                .build();
    }
}
