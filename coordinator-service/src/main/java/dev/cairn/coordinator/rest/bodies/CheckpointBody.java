package dev.cairn.coordinator.rest.bodies;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /jobs/{jobId}/checkpoints}:
 * <pre>
 * {"type": "CHECKPOINT"|"SAVEPOINT", "force": null, "targetLocation": null, "requestId": "...",
 *  "checkpointType": "CONFIGURED"|"FULL"|"INCREMENTAL", "formatType": "CANONICAL"|"NATIVE",
 *  "unalignedEnabled": null, "alignedTimeoutMs": null}
 * </pre>
 * Every field may be left out (an empty body asks for a checkpoint with the job's options). {@code force} left
 * out takes Flink's default (checkpoints are not forced; savepoints are unless the job enables unaligned
 * checkpoints). {@code triggerId}, Flink's name, may stand for {@code requestId}. The options take Flink's field
 * names and override the job's for this request: {@code checkpointType} applies to checkpoints only
 * ({@code CONFIGURED}: the job's), {@code formatType} and {@code targetLocation} to savepoints only,
 * {@code unalignedEnabled} and {@code alignedTimeoutMs} to checkpoints only (a savepoint is always aligned).
 *
 * @param type checkpoint (the default) or savepoint
 * @param force whether the request ignores maxConcurrent and the minimum pause, {@code null} for Flink's default
 * @param targetLocation where a savepoint is written, {@code null} for the job's storage base location
 * @param requestId the requester's id (makes the request idempotent), {@code null} to have one generated
 * @param triggerId Flink's name of {@code requestId}
 * @param checkpointType what this checkpoint is, {@code null} or CONFIGURED for the job's backup type
 * @param formatType the savepoint's format, {@code null} for the job's
 * @param unalignedEnabled whether this checkpoint is unaligned, {@code null} for the job's setting
 * @param alignedTimeoutMs how long this checkpoint aligns before it goes unaligned, {@code null} for the job's
 */
record CheckpointBody(CheckpointType type, Boolean force, String targetLocation, String requestId, String triggerId,
        CheckpointTypeName checkpointType, SavepointFormat formatType, Boolean unalignedEnabled,
        Long alignedTimeoutMs) implements TriggerBody {

    /** Flink's values of {@code checkpointType} in a checkpoint trigger body. */
    enum CheckpointTypeName { CONFIGURED, FULL, INCREMENTAL }

    private static final Map<String, String> NAMES = Map.of("options.backupType", "checkpointType",
            "options.savepointFormat", "formatType", "options.unalignedEnabled", "unalignedEnabled",
            "options.alignedTimeoutMs", "alignedTimeoutMs");

    @Override
    public TriggerRequest toRequest(String jobId, String chosenId, long nowMs) {
        BackupType backup = checkpointType == null || checkpointType == CheckpointTypeName.CONFIGURED ? null
                : BackupType.valueOf(checkpointType.name());
        boolean overrides = backup != null || formatType != null || unalignedEnabled != null
                || alignedTimeoutMs != null;
        return TriggerRequest.newBuilder().setJobId(jobId).setRequestId(chosenId)
                .setType(type == null ? CheckpointType.CHECKPOINT : type).setForce(force)
                .setTargetLocation(targetLocation).setRequester(REQUESTER).setTimestampMs(nowMs)
                .setPostCheckpointAction(PostCheckpointAction.NONE)
                .setOptions(overrides ? RequestedOptions.newBuilder().setBackupType(backup)
                        .setSavepointFormat(formatType).setUnalignedEnabled(unalignedEnabled)
                        .setAlignedTimeoutMs(alignedTimeoutMs).build() : null)
                .build();
    }

    @Override
    public List<String> shapeProblems() {
        return requestIdProblems();
    }

    @Override
    public String field(String path) {
        return TriggerBody.field(path, NAMES, requestId == null && triggerId != null ? "triggerId" : "requestId");
    }
}
