package dev.cairn.coordinator.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a trigger endpoint asks for, and the body of {@code POST /jobs/{jobId}/checkpoints}:
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
 * Reading is strict and names every problem of a body at once. {@link StopBody} and {@link SavepointBody} read
 * Flink's other trigger endpoints into the same record.
 *
 * @param type checkpoint or savepoint
 * @param force whether the request ignores maxConcurrent and the minimum pause, {@code null} for Flink's default
 * @param targetLocation where a savepoint is written, {@code null} for the job's storage base location
 * @param requestId the requester's id (makes the request idempotent), {@code null} to have one generated
 * @param postCheckpointAction SUSPEND or TERMINATE for a stop-with-savepoint, else NONE
 * @param options overrides of the job's snapshot options, {@code null} when there is none
 */
public record TriggerBody(CheckpointType type, Boolean force, String targetLocation, String requestId,
        PostCheckpointAction postCheckpointAction, RequestedOptions options) {

    /** The requester recorded in every TriggerRequest this API produces. */
    public static final String REQUESTER = "rest";

    static final List<String> FIELDS = List.of("type", "force", "targetLocation", "requestId", "triggerId",
            "checkpointType", "formatType", "unalignedEnabled", "alignedTimeoutMs");
    static final int MAX_TEXT_LENGTH = 1024;
    /** Flink's values of {@code checkpointType} in a checkpoint trigger body. */
    static final List<String> CHECKPOINT_TYPES = List.of("CONFIGURED", "FULL", "INCREMENTAL");
    private static final String EXAMPLE =
            "{\"type\": \"CHECKPOINT\", \"checkpointType\": \"INCREMENTAL\", \"requestId\": \"my-request\"}";

    /** A checkpoint with the job's options, Flink's default force and a generated request id. */
    static final TriggerBody DEFAULT =
            new TriggerBody(CheckpointType.CHECKPOINT, null, null, null, PostCheckpointAction.NONE, null);

    /**
     * Reads a body of {@code POST /jobs/{jobId}/checkpoints}.
     *
     * @throws ApiException 400 naming what is malformed, unknown, of the wrong type or does not fit the type
     */
    public static TriggerBody parse(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT;
        }
        JsonNode root = BodyFields.object(text, EXAMPLE);
        List<String> problems = new ArrayList<>();
        BodyFields.unknownFields(root, "", FIELDS, problems);
        CheckpointType named = BodyFields.choice(root, "", "type", CheckpointType.class, problems);
        // with a malformed type, what fits the type is not known: only the type is reported
        boolean typeKnown = named != null || !BodyFields.given(root, "type");
        CheckpointType type = named != null ? named : CheckpointType.CHECKPOINT;
        Boolean force = BodyFields.flag(root, "", "force", problems);
        String target = BodyFields.optionalText(root, "", "targetLocation", problems);
        String requestId = BodyFields.requestId(root, problems);
        String checkpointType = BodyFields.oneOf(root, "", "checkpointType", Set.copyOf(CHECKPOINT_TYPES),
                CHECKPOINT_TYPES, problems);
        SavepointFormat format = BodyFields.choice(root, "", "formatType", SavepointFormat.class, problems);
        Boolean unaligned = BodyFields.flag(root, "", "unalignedEnabled", problems);
        Long alignedTimeout = BodyFields.number(root, "", "alignedTimeoutMs", 0, Long.MAX_VALUE, false, problems);
        if (typeKnown && type == CheckpointType.CHECKPOINT) {
            if (target != null) {
                problems.add("targetLocation applies to savepoints only (a checkpoint is stored under the job's "
                        + "storageBaseLocation); send \"type\": \"SAVEPOINT\" or leave targetLocation out");
            }
            if (BodyFields.given(root, "formatType")) {
                problems.add("formatType applies to savepoints only; send \"type\": \"SAVEPOINT\", or use "
                        + "checkpointType (FULL or INCREMENTAL) for a checkpoint");
            }
        } else if (typeKnown) {
            if (BodyFields.given(root, "checkpointType")) {
                problems.add("checkpointType applies to checkpoints only (a savepoint is always self-contained); "
                        + "use formatType (CANONICAL or NATIVE) for a savepoint");
            }
            for (String field : List.of("unalignedEnabled", "alignedTimeoutMs")) {
                if (BodyFields.given(root, field)) {
                    problems.add(field + " applies to checkpoints only (a savepoint is always aligned, as in "
                            + "Flink); leave it out");
                }
            }
        }
        if (Boolean.FALSE.equals(unaligned) && BodyFields.given(root, "alignedTimeoutMs")) {
            problems.add("alignedTimeoutMs applies to unaligned checkpoints only (how long to align before "
                    + "switching to unaligned); leave it out or send \"unalignedEnabled\": true");
        }
        BodyFields.requireNone(problems);
        BackupType backup = checkpointType == null || checkpointType.equals("CONFIGURED") ? null
                : BackupType.valueOf(checkpointType);
        return new TriggerBody(type, force, target, requestId, PostCheckpointAction.NONE,
                options(backup, format, unaligned, alignedTimeout));
    }

    /** The overrides of a request, {@code null} when every one is left out (the job's options apply). */
    static RequestedOptions options(BackupType backup, SavepointFormat format, Boolean unaligned,
                                    Long alignedTimeoutMs) {
        if (backup == null && format == null && unaligned == null && alignedTimeoutMs == null) {
            return null;
        }
        return RequestedOptions.newBuilder().setBackupType(backup).setSavepointFormat(format)
                .setUnalignedEnabled(unaligned).setAlignedTimeoutMs(alignedTimeoutMs).build();
    }

    /** The event this body asks for; {@code generatedId} is used when the body names no request id. */
    public TriggerRequest toRequest(String jobId, String generatedId, long nowMs) {
        return TriggerRequest.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId != null ? requestId : generatedId)
                .setType(type)
                .setForce(force)
                .setTargetLocation(targetLocation)
                .setRequester(REQUESTER)
                .setTimestampMs(nowMs)
                .setPostCheckpointAction(postCheckpointAction)
                .setOptions(options)
                .build();
    }

    /** {@code a forced SAVEPOINT}, {@code a stop-with-savepoint (TERMINATE)}: for the log. */
    String describe() {
        String kind = postCheckpointAction == PostCheckpointAction.NONE ? type.name()
                : "stop-with-savepoint (" + postCheckpointAction + ")";
        String forced = force == null ? "" : force ? "forced " : "unforced ";
        return "a " + forced + kind + (options == null ? "" : " with " + options);
    }
}
