package dev.cairn.sidecar.hook.http;

import static dev.cairn.sidecar.hook.http.JsonFields.MAPPER;
import static dev.cairn.sidecar.hook.http.JsonFields.enumeration;
import static dev.cairn.sidecar.hook.http.JsonFields.integer;
import static dev.cairn.sidecar.hook.http.JsonFields.object;
import static dev.cairn.sidecar.hook.http.JsonFields.optionalBoolean;
import static dev.cairn.sidecar.hook.http.JsonFields.optionalInteger;
import static dev.cairn.sidecar.hook.http.JsonFields.present;
import static dev.cairn.sidecar.hook.http.JsonFields.text;
import static dev.cairn.sidecar.hook.http.JsonFields.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.Optional;

/**
 * The JSON of the hook protocol, shared by the HTTP hook (request and response bodies), the command hook
 * (a snapshot command's standard output) and the sample worker (the server side).
 *
 * <ul>
 *   <li>snapshot request: {@code {"checkpointId","timestampMs","type","storageLocation","jobId"}}, then
 *       {@code "taskId","subtaskIndex"} for a task or {@code "participant"} for a participant, then the
 *       options {@code "backupType"} (FULL|INCREMENTAL), {@code "savepointFormat"} (CANONICAL|NATIVE),
 *       {@code "postCheckpointAction"} (NONE|SUSPEND|TERMINATE), {@code "alignment"}
 *       (ALIGNED|UNALIGNED|AT_LEAST_ONCE|FORCED_ALIGNED), {@code "alignedTimeoutMs"} (-1: never) and the derived
 *       {@code "synchronous"} (a stop-with-savepoint) and {@code "drain"} (it drains first). Options that are
 *       absent read as the defaults; the derived flags are not read.</li>
 *   <li>snapshot result: {@code {"location","sizeBytes"}} plus optional {@code "syncDurationMs",
 *       "asyncDurationMs", "alignmentDurationMs", "bytesPersisted"} (durations default to 0,
 *       {@code bytesPersisted} to {@code sizeBytes}); other fields are ignored. A participant may answer
 *       without {@code "location"} (e.g. {@code {}}): no state. A task whose input is exhausted may answer
 *       {@code {"finished":true}}, with {@code "location","sizeBytes"} for its final state.</li>
 *   <li>notification: {@code {"checkpointId","outcome":"COMPLETED","lastSubsumedId","stopping","drain"}} or
 *       {@code {"checkpointId","outcome":"ABORTED","latestCompletedId","stopFailed"}}; the flags read as false
 *       when absent</li>
 *   <li>discard: {@code {"checkpointId","location","sizeBytes","status","message"}}</li>
 *   <li>restore: {@code {"checkpointId","location","sizeBytes"}}, or {@code {}} when there is nothing to
 *       restore</li>
 *   <li>error: {@code {"error": "..."}}, with {@code "reason"} (a checkpoint failure reason) when a worker
 *       declines</li>
 * </ul>
 * Parsing is strict about what it needs (duplicate fields and trailing content are errors) and every
 * error names the field at fault.
 */
public final class HookJson {

    /** How many characters of a body {@link #excerpt} keeps. */
    public static final int MAX_EXCERPT = 1024;

    private HookJson() {
    }

    /** The body of a snapshot request. */
    public static String snapshotRequest(SnapshotRequest request) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("checkpointId", request.checkpointId())
                .put("timestampMs", request.timestampMs())
                .put("type", request.type().name())
                .put("storageLocation", request.storageLocation())
                .put("jobId", request.jobId());
        if (request.isParticipant()) {
            node.put("participant", request.participant());
        } else {
            node.put("taskId", request.taskId()).put("subtaskIndex", request.subtaskIndex());
        }
        CheckpointOptions options = request.options();
        node.put("backupType", options.backupType().name())
                .put("savepointFormat", options.savepointFormat().name())
                .put("postCheckpointAction", options.postCheckpointAction().name())
                .put("alignment", options.alignment().name())
                .put("alignedTimeoutMs", options.alignedTimeoutMs())
                .put("synchronous", options.synchronous())
                .put("drain", options.drain());
        return write(node);
    }

    /** Reads a snapshot request body. */
    public static SnapshotRequest parseSnapshotRequest(String body) throws MalformedHookMessageException {
        JsonNode node = object(body, "snapshot request");
        long checkpointId = integer(node, "checkpointId", 0);
        long timestampMs = integer(node, "timestampMs", 0);
        CheckpointType type = enumeration(node, "type", CheckpointType.class, null);
        String storageLocation = text(node, "storageLocation");
        String jobId = text(node, "jobId");
        CheckpointOptions defaults = CheckpointOptions.DEFAULTS;
        CheckpointOptions options = new CheckpointOptions(
                enumeration(node, "backupType", BackupType.class, defaults.backupType()),
                enumeration(node, "savepointFormat", SavepointFormat.class, defaults.savepointFormat()),
                enumeration(node, "postCheckpointAction", PostCheckpointAction.class, defaults.postCheckpointAction()),
                enumeration(node, "alignment", AlignmentType.class, defaults.alignment()),
                optionalInteger(node, "alignedTimeoutMs", -1, defaults.alignedTimeoutMs()));
        if (present(node, "participant")) {
            String participant = text(node, "participant");
            if (present(node, "taskId") || present(node, "subtaskIndex")) {
                throw new MalformedHookMessageException("fields taskId and subtaskIndex must be absent when field "
                        + "participant is given: a request is for a task or for a participant");
            }
            return SnapshotRequest.forParticipant(checkpointId, timestampMs, type, storageLocation, jobId,
                    participant, options);
        }
        String taskId = text(node, "taskId");
        long subtaskIndex = integer(node, "subtaskIndex", 0);
        if (subtaskIndex > Integer.MAX_VALUE) {
            throw new MalformedHookMessageException("field subtaskIndex is too large: " + subtaskIndex);
        }
        return SnapshotRequest.forTask(checkpointId, timestampMs, type, storageLocation, jobId, taskId,
                (int) subtaskIndex, options);
    }

    /** The body of a snapshot result ({@code "finished"} only when true; no location when it has no state). */
    public static String snapshotResult(SnapshotResult result) {
        ObjectNode node = MAPPER.createObjectNode();
        if (result.location() != null) {
            node.put("location", result.location()).put("sizeBytes", result.sizeBytes());
        }
        node.put("syncDurationMs", result.syncDurationMs())
                .put("asyncDurationMs", result.asyncDurationMs())
                .put("alignmentDurationMs", result.alignmentDurationMs())
                .put("bytesPersisted", result.bytesPersisted());
        if (result.finished()) {
            node.put("finished", true);
        }
        return write(node);
    }

    /** Reads a task's snapshot result: it needs a location unless it says the task finished. */
    public static SnapshotResult parseSnapshotResult(String body) throws MalformedHookMessageException {
        return parseSnapshotResult(body, false);
    }

    /**
     * Reads a snapshot result.
     *
     * @param stateOptional whether a result without a location is no state (a participant's answer) rather than
     *     an error; a finished result needs no location either way
     */
    public static SnapshotResult parseSnapshotResult(String body, boolean stateOptional)
            throws MalformedHookMessageException {
        JsonNode node = object(body, "snapshot result");
        boolean finished = optionalBoolean(node, "finished", false);
        boolean hasState = present(node, "location") || present(node, "sizeBytes") || !(finished || stateOptional);
        String location = hasState ? text(node, "location") : null;
        long sizeBytes = hasState ? integer(node, "sizeBytes", 0) : 0;
        return new SnapshotResult(location, sizeBytes, optionalInteger(node, "syncDurationMs", 0, 0),
                optionalInteger(node, "asyncDurationMs", 0, 0), optionalInteger(node, "alignmentDurationMs", 0, 0),
                optionalInteger(node, "bytesPersisted", 0, sizeBytes), finished);
    }

    /** The body of a notification. */
    public static String notification(HookNotification notification) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("checkpointId", notification.checkpointId())
                .put("outcome", notification.outcome().name())
                .put(notification.outcome().relatedField(), notification.relatedId());
        if (notification.outcome() == HookNotification.Outcome.COMPLETED) {
            node.put("stopping", notification.stopping()).put("drain", notification.drain());
        } else {
            node.put("stopFailed", notification.stopFailed());
        }
        return write(node);
    }

    /** Reads a notification body. */
    public static HookNotification parseNotification(String body) throws MalformedHookMessageException {
        JsonNode node = object(body, "notification");
        long checkpointId = integer(node, "checkpointId", 0);
        HookNotification.Outcome outcome = enumeration(node, "outcome", HookNotification.Outcome.class, null);
        long relatedId = integer(node, outcome.relatedField(), -1);
        return outcome == HookNotification.Outcome.COMPLETED
                ? new HookNotification(checkpointId, outcome, relatedId, optionalBoolean(node, "stopping", false),
                        optionalBoolean(node, "drain", false), false)
                : new HookNotification(checkpointId, outcome, relatedId, false, false,
                        optionalBoolean(node, "stopFailed", false));
    }

    /** The body of a discard call. */
    public static String discard(DiscardedState state) {
        return write(MAPPER.createObjectNode()
                .put("checkpointId", state.checkpointId())
                .put("location", state.location())
                .put("sizeBytes", state.sizeBytes())
                .put("status", state.status().name())
                .put("message", state.message()));
    }

    /** Reads a discard body. */
    public static DiscardedState parseDiscard(String body) throws MalformedHookMessageException {
        JsonNode node = object(body, "discard request");
        return new DiscardedState(integer(node, "checkpointId", 0), text(node, "location"),
                integer(node, "sizeBytes", 0), enumeration(node, "status", AckDiscardStatus.class, null),
                present(node, "message") ? node.get("message").asText() : "");
    }

    /** The body of a restore call: the point to restore from, or {@code {}}. */
    public static String restore(Optional<RestorePoint> from) {
        ObjectNode node = MAPPER.createObjectNode();
        from.ifPresent(point -> node.put("checkpointId", point.checkpointId())
                .put("location", point.location())
                .put("sizeBytes", point.sizeBytes()));
        return write(node);
    }

    /** Reads a restore body: {@code {}} is a fresh start. */
    public static Optional<RestorePoint> parseRestore(String body) throws MalformedHookMessageException {
        JsonNode node = object(body, "restore request");
        if (node.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RestorePoint(integer(node, "checkpointId", 0), text(node, "location"),
                integer(node, "sizeBytes", 0)));
    }

    /** An error body: {@code {"error": message}}. */
    public static String error(String message) {
        return write(MAPPER.createObjectNode().put("error", message));
    }

    /**
     * A body as error messages quote it: trimmed, {@code (empty body)} when there is nothing, and cut after
     * {@value #MAX_EXCERPT} characters.
     */
    public static String excerpt(String body) {
        String trimmed = body == null ? "" : body.strip();
        if (trimmed.isEmpty()) {
            return "(empty body)";
        }
        if (trimmed.length() <= MAX_EXCERPT) {
            return trimmed;
        }
        return trimmed.substring(0, MAX_EXCERPT) + "... (" + (trimmed.length() - MAX_EXCERPT) + " more characters)";
    }

    /** A decline's body: {@code {"error": message, "reason": reason}}. */
    public static String declined(String reason, String message) {
        return write(MAPPER.createObjectNode().put("error", message).put("reason", reason));
    }
}
