package dev.cairn.core.views;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cairn.coordinator.state.CheckpointCounts;
import java.util.List;

/**
 * The JSON documents of the REST API, as records; the API's mapper (cairn-client's {@code Json}) writes their
 * components in snake_case, the way Flink's REST API names them ({@code num_acknowledged_subtasks},
 * {@code end_to_end_duration}, ...).
 * Durations are milliseconds, sizes bytes, timestamps epoch milliseconds; {@code null} means "not known
 * (yet)". {@link JobViews} builds them from the stores' values.
 */
public final class ApiViews {

    private ApiViews() {
    }

    /**
     * {@code GET /jobs/{jobId}}: the spec, the status and the scheduling state of a job. {@code participants} are
     * its coordinator-side participants asked first (Flink: operator coordinators), {@code master_hooks} those
     * asked after them (Flink: master hooks), each in spec order.
     */
    public record Job(String jid, String state, long registeredAt, @JsonUnwrapped Spec spec,
            @JsonUnwrapped Schedule schedule) {
    }

    /** What a job's spec asks for: its tasks, its checkpoint configuration and its participants. */
    public record Spec(List<Task> tasks, Config config, List<String> participants, List<String> masterHooks) {
    }

    /** Where a job's checkpoints stand: the next id, the latest completed one, the next periodic trigger, the queue. */
    public record Schedule(long nextCheckpointId, Long latestCompletedId, Long nextPeriodicTrigger, Long lastCompletion,
            int pendingCheckpoints, int consecutiveFailures, List<QueuedRequest> queuedRequests) {
    }

    /**
     * A vertex of the job spec and its roles in a checkpoint. {@code max_parallelism} is the task's number of key
     * groups, the most it can be rescaled to: as its spec sets it (the coordinator sets it on every spec it
     * registers), else Flink's default for its parallelism.
     */
    public record Task(String taskId, int parallelism, int maxParallelism, boolean triggered, boolean acknowledges,
            boolean notified) {
    }

    /**
     * {@code GET /jobs/{jobId}/checkpoints/config}, also inside {@code GET /jobs/{jobId}}: the checkpoint
     * configuration, with the field names of Flink's {@code CheckpointConfigInfo} where Flink has them: {@code mode}
     * is {@code exactly_once} or {@code at_least_once}, {@code interval}, {@code timeout}, {@code min_pause},
     * {@code max_concurrent}, {@code tolerable_failed_checkpoints}, {@code unaligned_checkpoints},
     * {@code aligned_checkpoint_timeout} (applies with unaligned checkpoints; 0: start unaligned) and
     * {@code checkpoints_after_tasks_finish} (always true in Cairn). Cairn's own: {@code retained} (completed
     * checkpoints kept), {@code storage_base_location}, {@code backup_type} (FULL or INCREMENTAL, what a checkpoint is
     * by default) and {@code savepoint_format} (CANONICAL or NATIVE). Flink's {@code externalization},
     * {@code state_backend}, {@code checkpoint_storage} and changelog fields have no counterpart and are left out.
     */
    public record Config(@JsonUnwrapped Pacing pacing, int retained, String storageBaseLocation,
            @JsonUnwrapped SnapshotSettings snapshots) {
    }

    /** How often checkpoints run and how many may fail: the first six fields of {@link Config}. */
    public record Pacing(String mode, long interval, long timeout, long minPause, int maxConcurrent,
            int tolerableFailedCheckpoints) {
    }

    /** How snapshots are taken: the last five fields of {@link Config}. */
    public record SnapshotSettings(boolean unalignedCheckpoints, long alignedCheckpointTimeout, String backupType,
            String savepointFormat, boolean checkpointsAfterTasksFinish) {
    }

    /** A trigger request waiting in the job's queue, head first, with the options resolved when it was queued. */
    public record QueuedRequest(String requestId, String checkpointType, boolean force, boolean periodic,
            String targetLocation, long queuedAt, Options options) {
    }

    /**
     * What the tasks are told with a trigger (Flink: CheckpointOptions): {@code backup_type} (FULL or INCREMENTAL;
     * checkpoints only, {@code null} for a savepoint), {@code savepoint_format} (CANONICAL or NATIVE; savepoints
     * only, {@code null} for a checkpoint), {@code post_checkpoint_action} (NONE, or SUSPEND or TERMINATE for a
     * stop-with-savepoint), {@code alignment} (ALIGNED, UNALIGNED, AT_LEAST_ONCE or FORCED_ALIGNED) and
     * {@code aligned_checkpoint_timeout} (when an aligned checkpoint switches to unaligned; {@code null}: never).
     */
    public record Options(String backupType, String savepointFormat, String postCheckpointAction, String alignment,
            Long alignedCheckpointTimeout) {
    }

    /**
     * A coordinator-side participant of a checkpoint: whether it acknowledged (snapshotted) yet, and where its
     * state is ({@code null} while it has not, or when it had no state).
     */
    public record Participant(String name, boolean acknowledged, String stateLocation, Long stateSize) {
    }

    /** {@code GET /jobs/{jobId}/checkpoints}: counts, summary, latest, pending and history (newest first). */
    public record CheckpointStats(Counts counts, Summary summary, Latest latest, List<Checkpoint> pending,
            List<Checkpoint> history) {
    }

    /**
     * How many checkpoints were triggered, are in progress, completed and failed since the job was registered, with
     * Flink's {@code CheckpointingStatistics.Counts} beside them: {@code total} (in progress, completed and failed,
     * as Flink adds them up) and {@code restored} (how often the job was restored: from a point a user chose, by a
     * restore or a rescale, or from the one the coordinator fell back to).
     */
    public record Counts(long restored, long total, long triggered, long inProgress, long completed, long failed) {

        /** The counts of a job's state. */
        public static Counts of(CheckpointCounts c) {
            return new Counts(c.getRestored(), c.getInProgress() + c.getCompleted() + c.getFailed(), c.getTriggered(),
                    c.getInProgress(), c.getCompleted(), c.getFailed());
        }
    }

    /**
     * Figures over the completed checkpoints in the history ({@code completed_in_history} of them), and
     * all-time figures over every completed checkpoint.
     */
    public record Summary(int completedInHistory, Figures endToEndDuration, Figures stateSize, AllTime allTime) {
    }

    /** Min, average, max and nearest-rank percentiles of one measure; all zero when nothing was measured. */
    public record Figures(long count, long min, double avg, long max, long p50, long p90, long p95, long p99,
            long p999) {
    }

    /** All-time figures of every completed checkpoint of the job. */
    public record AllTime(Totals endToEndDuration, Totals stateSize) {
    }

    /** Count, min, average and max of one measure. */
    public record Totals(long count, long min, double avg, long max) {
    }

    /**
     * The newest completed checkpoint, completed savepoint and failed checkpoint in the history, and the point the
     * job was last restored from ({@code null} when it never was).
     */
    public record Latest(Checkpoint completed, Checkpoint savepoint, Checkpoint failed, Restored restored) {
    }

    /**
     * The point a job was last restored from, as Flink's {@code RestoredCheckpointStatistics} names it: its id, when
     * the coordinator decided the restore, whether it is a savepoint, and where it is.
     */
    public record Restored(long id, long restoreTimestamp, @JsonProperty("is_savepoint") boolean isSavepoint,
            String externalPath) {
    }

    /**
     * One checkpoint: {@code status} is IN_PROGRESS (pending), COMPLETED or FAILED; {@code options} are those it
     * was triggered with. For a pending one, {@code end_to_end_duration} runs to its latest ack,
     * {@code expires_at} is its timeout, {@code tasks_triggered} is false while its {@code participants} are still
     * snapshotting (the tasks are triggered once every one acknowledged), and {@code finished_subtasks} (with
     * {@code finished_state_size} bytes of final state) had finished when the tasks were triggered and count as
     * acknowledged; these four are {@code null} for an ended one.
     */
    public record Checkpoint(@JsonUnwrapped Identity identity, @JsonUnwrapped Timing timing,
            @JsonUnwrapped Acknowledgements acks, @JsonUnwrapped Outcome outcome, Options options,
            @JsonUnwrapped Progress progress) {
    }

    /** Which checkpoint: its id, its status, its type and whether the schedule triggered it. */
    public record Identity(long id, String status, String checkpointType, boolean periodic) {
    }

    /** When a checkpoint was triggered, last acknowledged and ended, and how long it took to its end (or last ack). */
    public record Timing(long triggerTimestamp, Long latestAckTimestamp, Long endTimestamp, Long endToEndDuration) {
    }

    /** The state a checkpoint's subtasks acknowledged, and how many of how many did. */
    public record Acknowledgements(long stateSize, int numSubtasks, int numAcknowledgedSubtasks) {
    }

    /** Where a checkpoint's state is, the request that asked for it, its timeout and why it failed. */
    public record Outcome(String externalPath, String requestId, Long expiresAt, String failureReason,
            String failureMessage) {
    }

    /** How far a pending checkpoint got before its tasks acknowledge; {@link #ENDED} (all null) once it ended. */
    public record Progress(Boolean tasksTriggered, List<Participant> participants, Integer finishedSubtasks,
            Long finishedStateSize) {

        public static final Progress ENDED = new Progress(null, null, null, null);
    }

    /**
     * {@code GET /jobs/{jobId}/checkpoints/{checkpointId}}: the checkpoint's fields, its per-subtask stats
     * grouped by task, and the subtasks that have not acknowledged it (empty once it completed).
     */
    public record CheckpointDetail(@JsonUnwrapped Checkpoint checkpoint, List<TaskStats> tasks,
            List<SubtaskRef> missingSubtasks) {
    }

    /** The acknowledgements of one task (vertex) for one checkpoint. */
    public record TaskStats(String taskId, int numSubtasks, int numAcknowledgedSubtasks, Long latestAckTimestamp,
            long stateSize, List<SubtaskStats> subtasks) {
    }

    /** What one subtask reported in its acknowledgement (Flink: SubtaskCheckpointStatistics). */
    public record SubtaskStats(int index, String attemptId, String status, long ackTimestamp,
            long endToEndDuration, @JsonUnwrapped SubtaskSnapshot snapshot) {
    }

    /** What a subtask's snapshot wrote and how long its parts took. */
    public record SubtaskSnapshot(long stateSize, String stateLocation, SyncAsync checkpoint, Alignment alignment,
            long startDelay, long persistedData) {
    }

    /** Synchronous and asynchronous snapshot durations of a subtask. */
    public record SyncAsync(long sync, long async) {
    }

    /** Barrier alignment of a subtask. */
    public record Alignment(long duration) {
    }

    /**
     * A subtask by task id and index, with its current attempt ({@code null} when it never started) and the host
     * that attempt's TaskStarted named ({@code null} when none: never started, or a sidecar that names none).
     */
    public record SubtaskRef(String taskId, int index, String attemptId, String host) {

        /** A subtask whose host is not known. */
        public SubtaskRef(String taskId, int index, String attemptId) {
            this(taskId, index, attemptId, null);
        }
    }

    /**
     * {@code GET /jobs/{jobId}/checkpoints/latest-completed}: the newest retained completed checkpoint,
     * what a restarted job restores from, with the states of its coordinator-side participants (spec order)
     * and the options it was triggered with.
     */
    public record Restore(@JsonUnwrapped Completed checkpoint, Long lastSubsumedId, int retainedCheckpoints,
            List<SubtaskState> subtaskStates, List<Participant> participantStates, Options options) {
    }

    /** A completed checkpoint: its id and type, when it was triggered and completed, its size and location. */
    public record Completed(long id, String checkpointType, long triggerTimestamp, long completionTimestamp,
            long stateSize, String externalPath) {
    }

    /** The state handle one subtask acknowledged in a completed checkpoint. */
    public record SubtaskState(String taskId, int index, String attemptId, String location, long stateSize) {
    }

    /** The 202 answer to a trigger request, named like Flink's TriggerResponse. */
    public record Triggered(@JsonProperty("request-id") String requestId) {
    }

    /**
     * {@code GET /jobs/{jobId}/savepoints/{requestId}} and {@code GET /jobs/{jobId}/checkpoints/{requestId}}: Flink's
     * {@code AsynchronousOperationResult}, {@code status.id} IN_PROGRESS or COMPLETED (a failed request is COMPLETED
     * too, with a failure cause) and, once it ended, the {@code operation} ({@link SavepointOperation} or
     * {@link CheckpointOperation}, by the path asked); then Cairn's view of the request: its {@code stage}
     * (QUEUED: waiting in the job's queue; TRIGGERED: its checkpoint is pending; COMPLETED; FAILED), the
     * {@code checkpoint_type} and {@code checkpoint_id} it runs as ({@code null} until it was triggered, and for one
     * that failed before), its {@code location} (for a queued savepoint the requested target, if any),
     * {@code failure_reason} and {@code failure_message}, and {@code timestamp}, when it entered its stage.
     */
    public record Operation(QueueStatus status, @JsonInclude(JsonInclude.Include.NON_NULL) Object operation,
            @JsonUnwrapped RequestStage request) {
    }

    /** Cairn's view of a request in an {@link Operation}: its stage, what it runs as, where, why it failed, since. */
    public record RequestStage(String requestId, String stage, String checkpointType, Long checkpointId,
            String location, String failureReason, String failureMessage, long timestamp) {
    }

    /** Flink's {@code QueueStatus}: {@code {"id": "IN_PROGRESS"}} or {@code {"id": "COMPLETED"}}. */
    public record QueueStatus(String id) {
    }

    /** Flink's {@code SavepointInfo}: the savepoint's {@code location}, or why it failed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SavepointOperation(String location, @JsonProperty("failure-cause") FailureCause failureCause) {
    }

    /** Flink's {@code CheckpointInfo} (its field names are camelCase): the checkpoint's id, or why it failed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CheckpointOperation(@JsonProperty("checkpointId") Long checkpointId,
            @JsonProperty("failureCause") FailureCause failureCause) {
    }

    /**
     * Flink's serialized throwable, as far as Cairn has one: {@code class} names the kind of failure and
     * {@code stack-trace} says what failed and why. Flink's {@code serialized-throwable} (a Java-serialized
     * exception) is not given: Cairn runs no Java code of the job.
     */
    public record FailureCause(@JsonProperty("class") String kind, @JsonProperty("stack-trace") String stackTrace) {
    }

    /** The 202 answer to a job registration ({@code PUT /jobs/{jobId}}). */
    public record Registered(@JsonProperty("job-id") String jobId) {
    }

    /** Every error answer. */
    public record Error(String error) {
    }

    /** {@code GET /health} and {@code GET /ready}: {@code UP}, or {@code DOWN} and why. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Health(String status, String reason) {
    }
}
