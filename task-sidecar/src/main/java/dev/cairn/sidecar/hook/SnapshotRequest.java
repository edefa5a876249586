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
 */
public record SnapshotRequest(long checkpointId, long timestampMs, CheckpointType type, String storageLocation,
        String jobId, String taskId, int subtaskIndex, CheckpointOptions options, String participant) {

    public SnapshotRequest {
        Objects.requireNonNull(type, "type");
        options = options == null ? CheckpointOptions.DEFAULTS : options;
        if ((participant == null) == (taskId == null)) {
            throw new IllegalArgumentException("a snapshot request names either a task or a participant, was task "
                    + taskId + " and participant " + participant);
        }
    }

    /** A task's request with the default options. */
    public SnapshotRequest(long checkpointId, long timestampMs, CheckpointType type, String storageLocation,
            String jobId, String taskId, int subtaskIndex) {
        this(checkpointId, timestampMs, type, storageLocation, jobId, taskId, subtaskIndex, CheckpointOptions.DEFAULTS,
                null);
    }

    /** A task's request. */
    public static SnapshotRequest forTask(long checkpointId, long timestampMs, CheckpointType type,
            String storageLocation, String jobId, String taskId, int subtaskIndex, CheckpointOptions options) {
        return new SnapshotRequest(checkpointId, timestampMs, type, storageLocation, jobId, taskId, subtaskIndex,
                options, null);
    }

    /** A participant's request. */
    public static SnapshotRequest forParticipant(long checkpointId, long timestampMs, CheckpointType type,
            String storageLocation, String jobId, String participant, CheckpointOptions options) {
        return new SnapshotRequest(checkpointId, timestampMs, type, storageLocation, jobId, null, -1, options,
                Objects.requireNonNull(participant, "participant"));
    }

    /** Whether a participant (not a task) is asked. */
    public boolean isParticipant() {
        return participant != null;
    }
}
