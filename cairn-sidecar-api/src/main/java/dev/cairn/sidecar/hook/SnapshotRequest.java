package dev.cairn.sidecar.hook;

import dev.cairn.events.CheckpointType;
import java.util.Objects;

/**
 * One snapshot to take. A task sidecar's requests name its task and subtask; a participant sidecar's (a
 * coordinator-side participant such as a Flink master hook) name the participant instead.
 *
 * @param checkpointId the checkpoint's id
 * @param timestampMs when the coordinator triggered it
 * @param type checkpoint or savepoint
 * @param storageLocation where the checkpoint's state belongs ({@code <base>/<job>/chk-<id>} or the savepoint target)
 * @param jobId the job
 * @param taskId the task this sidecar stands beside; {@code null} for a participant
 * @param subtaskIndex the subtask; -1 for a participant
 * @param options how to take it and what follows it (never {@code null}: {@link CheckpointOptions#DEFAULTS} when
 *     the trigger carried none)
 * @param participant the participant's name; {@code null} for a task
 * @param latestCompletedId the newest checkpoint of the job the sidecar knew to be completed when it asked (started
 *     this snapshot): its restore point's, or a later completion it read on the control topic before it asked
 *     (completions and triggers of a job travel in order on one partition, so every completion before this
 *     checkpoint's trigger counts, including those it saw on the control topic at start-up, before its position,
 *     that the completed topic did not show yet); -1 ({@link #NO_COMPLETED_CHECKPOINT}) when none. Completed savepoints
 *     count too (an abort notice's {@code latestCompletedId} counts checkpoints only, so the two can differ). It never
 *     falls from one request of a sidecar to the next. A worker whose state is older than this checkpoint,
 *     restored before it completed, must decline: its previous attempt's ack of that checkpoint was still in
 *     flight when the sidecar read the restore point, and acking a later checkpoint would mix the worker's old
 *     state with everybody else's newer one. A worker that snapshotted that checkpoint itself since its restore
 *     has state no older than it.
 */
public record SnapshotRequest(long checkpointId, long timestampMs, CheckpointType type, String storageLocation,
        String jobId, String taskId, int subtaskIndex, CheckpointOptions options, String participant,
        long latestCompletedId) {

    /** The {@link #latestCompletedId} of a request when the sidecar knew of no completed checkpoint of the job. */
    public static final long NO_COMPLETED_CHECKPOINT = -1;

    public SnapshotRequest {
        Objects.requireNonNull(type, "type");
        options = options == null ? CheckpointOptions.DEFAULTS : options;
        if ((participant == null) == (taskId == null)) {
            throw new IllegalArgumentException("a snapshot request names either a task or a participant, was task "
                    + taskId + " and participant " + participant);
        }
        if (latestCompletedId < NO_COMPLETED_CHECKPOINT) {
            throw new IllegalArgumentException("the latest completed checkpoint id must be >= "
                    + NO_COMPLETED_CHECKPOINT + ", was " + latestCompletedId);
        }
    }

    /** A request that knows of no completed checkpoint ({@link #NO_COMPLETED_CHECKPOINT}). */
    public SnapshotRequest(long checkpointId, long timestampMs, CheckpointType type, String storageLocation,
            String jobId, String taskId, int subtaskIndex, CheckpointOptions options, String participant) {
        this(checkpointId, timestampMs, type, storageLocation, jobId, taskId, subtaskIndex, options, participant,
                NO_COMPLETED_CHECKPOINT);
    }

    /** A task's request with the default options, knowing of no completed checkpoint. */
    public SnapshotRequest(long checkpointId, long timestampMs, CheckpointType type, String storageLocation,
            String jobId, String taskId, int subtaskIndex) {
        this(checkpointId, timestampMs, type, storageLocation, jobId, taskId, subtaskIndex, CheckpointOptions.DEFAULTS,
                null);
    }

    /** A task's request, knowing of no completed checkpoint (see {@link #withLatestCompletedId}). */
    public static SnapshotRequest forTask(long checkpointId, long timestampMs, CheckpointType type,
            String storageLocation, String jobId, String taskId, int subtaskIndex, CheckpointOptions options) {
        return new SnapshotRequest(checkpointId, timestampMs, type, storageLocation, jobId, taskId, subtaskIndex,
                options, null);
    }

    /** A participant's request, knowing of no completed checkpoint (see {@link #withLatestCompletedId}). */
    public static SnapshotRequest forParticipant(long checkpointId, long timestampMs, CheckpointType type,
            String storageLocation, String jobId, String participant, CheckpointOptions options) {
        return new SnapshotRequest(checkpointId, timestampMs, type, storageLocation, jobId, null, -1, options,
                Objects.requireNonNull(participant, "participant"));
    }

    /** This request with {@link #latestCompletedId} set ({@link #NO_COMPLETED_CHECKPOINT}: none). */
    public SnapshotRequest withLatestCompletedId(long latestCompletedId) {
        return new SnapshotRequest(checkpointId, timestampMs, type, storageLocation, jobId, taskId, subtaskIndex,
                options, participant, latestCompletedId);
    }

    /** Whether a participant (not a task) is asked. */
    public boolean isParticipant() {
        return participant != null;
    }
}
