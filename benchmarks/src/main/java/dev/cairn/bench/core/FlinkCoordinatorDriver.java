package dev.cairn.bench.core;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.checkpoint.CheckpointCoordinator;
import org.apache.flink.runtime.checkpoint.CheckpointException;
import org.apache.flink.runtime.checkpoint.CheckpointFailureManager;
import org.apache.flink.runtime.checkpoint.CheckpointMetrics;
import org.apache.flink.runtime.checkpoint.CheckpointPlanCalculatorContext;
import org.apache.flink.runtime.checkpoint.CheckpointsCleaner;
import org.apache.flink.runtime.checkpoint.CompletedCheckpoint;
import org.apache.flink.runtime.checkpoint.DefaultCheckpointPlanCalculator;
import org.apache.flink.runtime.checkpoint.DefaultCheckpointStatsTracker;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.StandaloneCheckpointIDCounter;
import org.apache.flink.runtime.checkpoint.StandaloneCompletedCheckpointStore;
import org.apache.flink.runtime.checkpoint.TaskStateSnapshot;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.executiongraph.ExecutionGraph;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.jobgraph.tasks.CheckpointCoordinatorConfiguration;
import org.apache.flink.runtime.messages.checkpoint.AcknowledgeCheckpoint;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.state.OperatorStreamStateHandle;
import org.apache.flink.runtime.state.memory.ByteStreamStateHandle;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;
import org.apache.flink.util.concurrent.Executors;
import org.apache.flink.util.concurrent.ScheduledExecutor;

/**
 * Flink's own {@link CheckpointCoordinator} behind the {@link CoordinatorDriver} operations, configured like
 * {@link CairnCoreDriver}: one vertex of parallelism {@code subtasks} in a running {@link ExecutionGraph}
 * ({@link FlinkTestGraph}), retain 1 checkpoint in a standalone store, at most 1 concurrent, interval and
 * timeout of a year, 0 tolerable failures, a stats history of 10 checkpoints, in-memory checkpoint storage.
 * The timer, main-thread and I/O executors run every task at once in the calling thread, so a trigger and a
 * completion (metadata, store, subsumption, cleaning, notifications) finish inside the call. An ack is the
 * {@link AcknowledgeCheckpoint} a TaskManager sends, with a {@link TaskStateSnapshot} of one operator state
 * handle named by a ~100-character location, or, measured without state, with none. Its job and attempt ids
 * are the graph's own objects, where a JobManager would have deserialized copies.
 */
public final class FlinkCoordinatorDriver implements CoordinatorDriver {

    private static final long YEAR_MS = 365L * 24 * 3600 * 1000;
    private static final byte[] NO_BYTES = new byte[0];
    private static final int STATS_HISTORY = 10;
    private static final Object TRIGGER = "trigger";

    private final FlinkTestGraph graph;
    private final int subtasks;
    private final JobID job;
    private final OperatorID operator;
    private final ExecutionAttemptID[] attempts;
    private final String[] attemptNames;
    private final StandaloneCheckpointIDCounter ids = new StandaloneCheckpointIDCounter();
    private final CheckpointCoordinator coordinator;
    private final boolean withState;
    private long pendingId = -1;
    private long built;
    private CompletableFuture<CompletedCheckpoint> pendingCompletion;

    /**
     * A coordinator over a running graph of one vertex with {@code subtasks} running subtasks whose acks carry a
     * state handle when {@code withState}, and no {@link TaskStateSnapshot} otherwise.
     */
    public FlinkCoordinatorDriver(int subtasks, boolean withState) {
        this.subtasks = subtasks;
        this.withState = withState;
        this.graph = FlinkTestGraph.running(subtasks);
        ExecutionGraph executionGraph = graph.graph();
        this.job = executionGraph.getJobID();
        this.operator = graph.operator();
        this.attempts = graph.attempts();
        this.attemptNames = new String[subtasks];
        for (int subtask = 0; subtask < subtasks; subtask++) {
            attemptNames[subtask] = StateLocations.attemptId(subtask);
        }
        ScheduledExecutor direct = new DirectScheduledExecutor();
        CheckpointPlanCalculatorContext planContext = new CheckpointPlanCalculatorContext() {
            @Override
            public ScheduledExecutor getMainExecutor() {
                return direct;
            }

            @Override
            public boolean hasFinishedTasks() {
                return executionGraph.getNumFinishedVertices() > 0;
            }
        };
        CheckpointCoordinatorConfiguration configuration =
                new CheckpointCoordinatorConfiguration.CheckpointCoordinatorConfigurationBuilder()
                        .setCheckpointInterval(YEAR_MS)
                        .setCheckpointTimeout(YEAR_MS)
                        .setMinPauseBetweenCheckpoints(0)
                        .setMaxConcurrentCheckpoints(1)
                        .setTolerableCheckpointFailureNumber(0)
                        .build();
        this.coordinator = new CheckpointCoordinator(
                job,
                configuration,
                List.of(),
                ids,
                new StandaloneCompletedCheckpointStore(1),
                new JobManagerCheckpointStorage(),
                Executors.directExecutor(),
                new CheckpointsCleaner(),
                direct,
                new CheckpointFailureManager(0, new FailTheBenchmark()),
                new DefaultCheckpointPlanCalculator(job, planContext, executionGraph.getVerticesTopologically(), false),
                new DefaultCheckpointStatsTracker(STATS_HISTORY,
                        UnregisteredMetricGroups.createUnregisteredJobManagerJobMetricGroup()));
    }

    @Override
    public int subtasks() {
        return subtasks;
    }

    /** Nothing: Flink's trigger is a method call, not a message; this marker is what {@link #deliverTrigger} takes. */
    @Override
    public Object triggerMessage() {
        return TRIGGER;
    }

    @Override
    public long deliverTrigger(Object message) {
        if (message != TRIGGER) {
            throw new IllegalArgumentException("not a trigger of this driver: " + message);
        }
        CompletableFuture<CompletedCheckpoint> completion = coordinator.triggerCheckpoint(false);
        long id = ids.get() - 1;
        if (completion.isCompletedExceptionally() || id == pendingId) {
            throw new IllegalStateException("Flink did not trigger a checkpoint (is one still pending?)");
        }
        pendingId = id;
        pendingCompletion = completion;
        return id;
    }

    /**
     * The {@link AcknowledgeCheckpoint} the JobManager receives from a TaskManager: with metrics and, when this
     * driver measures with state, a {@link TaskStateSnapshot} of one operator state handle.
     */
    @Override
    public AcknowledgeCheckpoint ackMessage(long checkpointId, int subtask) {
        built++;
        CheckpointMetrics metrics = new CheckpointMetrics(0, 0, 0, 1, 2, 0, false, 1024, 1024);
        if (!withState) {
            return new AcknowledgeCheckpoint(job, attempts[subtask], checkpointId, metrics, null);
        }
        String location = StateLocations.of(checkpointId, subtask, attemptNames[subtask]);
        TaskStateSnapshot snapshot = new TaskStateSnapshot(1, false);
        snapshot.putSubtaskStateByOperatorID(operator, OperatorSubtaskState.builder()
                .setManagedOperatorState(new OperatorStreamStateHandle(Map.of(),
                        new ByteStreamStateHandle(location, NO_BYTES)))
                .build());
        return new AcknowledgeCheckpoint(job, attempts[subtask], checkpointId, metrics, snapshot);
    }

    @Override
    public boolean deliverAck(Object message) {
        AcknowledgeCheckpoint ack = (AcknowledgeCheckpoint) message;
        long checkpointId = ack.getCheckpointId();
        try {
            coordinator.receiveAcknowledgeMessage(ack, "bench");
        } catch (CheckpointException e) {
            throw new IllegalStateException("Flink refused the ack of checkpoint " + checkpointId, e);
        }
        if (checkpointId != pendingId || !pendingCompletion.isDone()) {
            return false;
        }
        if (pendingCompletion.isCompletedExceptionally()) {
            throw new IllegalStateException("Flink failed checkpoint " + checkpointId);
        }
        pendingCompletion = null;
        pendingId = -1;
        return true;
    }

    @Override
    public long messagesBuilt() {
        return built;
    }

    @Override
    public void close() {
        try {
            coordinator.shutdown();
        } catch (Exception e) {
            throw new IllegalStateException("could not shut the Flink coordinator down", e);
        } finally {
            graph.close();
        }
    }

    /** The failure manager's callback: with 0 tolerable failures any failure fails the run. */
    private static final class FailTheBenchmark implements CheckpointFailureManager.FailJobCallback {
        @Override
        public void failJob(Throwable cause) {
            throw new IllegalStateException("Flink failed the job", cause);
        }

        @Override
        public void failJobDueToTaskFailure(Throwable cause, ExecutionAttemptID failingTask) {
            throw new IllegalStateException("Flink failed the job for task " + failingTask, cause);
        }
    }
}
