package dev.cairn.sidecar.hook.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.sidecar.hook.OperatorStateMode;
import java.util.List;

/**
 * The JSON bodies of the hook protocol as records that Jackson binds ({@link HookBinding}): one component per
 * field, in the order they are written, {@code null} for a field that is absent (and is then not written).
 * {@link HookJson} turns them into the hook's types and checks what each message requires.
 */
final class HookMessages {

    private HookMessages() {
    }

    /**
     * A snapshot request; {@code synchronous} and {@code drain} are derived from the options and not read.
     * {@code latestCompletedId}, added after the others, is the newest completed checkpoint the sidecar knew of (-1:
     * none).
     */
    record SnapshotRequestBody(Long checkpointId, Long timestampMs, CheckpointType type, String storageLocation,
            String jobId, String taskId, Long subtaskIndex, String participant, BackupType backupType,
            SavepointFormat savepointFormat, PostCheckpointAction postCheckpointAction, AlignmentType alignment,
            Long alignedTimeoutMs,
            @JsonProperty(access = JsonProperty.Access.READ_ONLY) Boolean synchronous,
            @JsonProperty(access = JsonProperty.Access.READ_ONLY) Boolean drain,
            Long latestCompletedId) {
    }

    /**
     * A snapshot result; {@code shared} (the shared objects of an incremental snapshot) added after the others, then
     * what it declares for a rescale: the key groups of its keyed state, or how its state that is not keyed is handed
     * out.
     */
    record SnapshotResultBody(String location, Long sizeBytes, Long syncDurationMs, Long asyncDurationMs,
            Long alignmentDurationMs, Long bytesPersisted, Boolean finished, List<SharedBody> shared,
            KeyGroupsBody keyGroups, OperatorStateMode operatorStateMode) {
    }

    /** A key-group range, both ends included. */
    record KeyGroupsBody(Long startKeyGroup, Long endKeyGroup) {
    }

    /** One state a restoring subtask reads: its own, or after a rescale one handed to it. */
    record RestoredStateBody(Long fromSubtask, String location, Long sizeBytes, List<SharedBody> shared,
            KeyGroupsBody keyGroups, OperatorStateMode operatorStateMode) {
    }

    /** A shared object of a state: in a snapshot result and in a restore point. */
    record SharedBody(String location, Long sizeBytes, Boolean reused) {
    }

    /** A notification: {@code lastSubsumedId} with COMPLETED, {@code latestCompletedId} with ABORTED. */
    record NotificationBody(Long checkpointId, HookNotification.Outcome outcome, Long lastSubsumedId,
            Long latestCompletedId, Boolean stopping, Boolean drain, Boolean stopFailed) {
    }

    /**
     * A state object to delete: {@code status} for an ack's state, {@code reason} for a checkpoint's (added after
     * the others, with {@code shared}).
     */
    record DiscardBody(Long checkpointId, String location, Long sizeBytes, AckDiscardStatus status, String message,
            DiscardReason reason, Boolean shared) {
    }

    /**
     * The point to restore from, every field of it absent for a fresh start; and a task's attempt (id and number),
     * absent for a participant; then the point's shared objects, added after the others; then how the task restores
     * (its parallelism now and then, its max parallelism, the subtask's key groups: absent when the coordinator did
     * not say) and every state the subtask reads. {@code rescaled} is derived from the parallelisms and not read.
     */
    record RestoreBody(Long checkpointId, String location, Long sizeBytes, Boolean chosen, String attemptId,
            Long attemptNumber, List<SharedBody> shared, Long parallelism, Long previousParallelism,
            Long maxParallelism, @JsonProperty(access = JsonProperty.Access.READ_ONLY) Boolean rescaled,
            KeyGroupsBody keyGroups, List<RestoredStateBody> states) {
    }

    /** An error, with the checkpoint failure reason when a worker declines. */
    record ErrorBody(String error, String reason) {
    }
}
