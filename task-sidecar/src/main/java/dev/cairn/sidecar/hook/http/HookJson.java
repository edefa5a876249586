package dev.cairn.sidecar.hook.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.events.CheckpointType;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.Arrays;
import java.util.Optional;

/**
 * The JSON of the hook protocol, shared by the HTTP hook (request and response bodies), the command hook
 * (a snapshot command's standard output) and the sample worker (the server side).
 *
 * <ul>
 *   <li>snapshot request: {@code {"checkpointId","timestampMs","type","storageLocation","jobId","taskId",
 *       "subtaskIndex"}}</li>
 *   <li>snapshot result: {@code {"location","sizeBytes"}} plus optional {@code "syncDurationMs",
 *       "asyncDurationMs", "alignmentDurationMs", "bytesPersisted"} (durations default to 0,
 *       {@code bytesPersisted} to {@code sizeBytes}); other fields are ignored</li>
 *   <li>notification: {@code {"checkpointId","outcome":"COMPLETED","lastSubsumedId"}} or
 *       {@code {"checkpointId","outcome":"ABORTED","latestCompletedId"}}</li>
 *   <li>restore: {@code {"checkpointId","location","sizeBytes"}}, or {@code {}} when there is nothing to
 *       restore</li>
 *   <li>error: {@code {"error": "..."}}, with {@code "reason"} (a checkpoint failure reason) when a worker
 *       declines</li>
 * </ul>
 * Parsing is strict about what it needs (duplicate fields and trailing content are errors) and every
 * error names the field at fault.
 */
public final class HookJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

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
                .put("jobId", request.jobId())
                .put("taskId", request.taskId())
                .put("subtaskIndex", request.subtaskIndex());
        return write(node);
    }

    /** Reads a snapshot request body. */
    public static SnapshotRequest parseSnapshotRequest(String body) throws MalformedHookMessageException {
        JsonNode node = object(body, "snapshot request");
        long checkpointId = integer(node, "checkpointId", 0);
        long timestampMs = integer(node, "timestampMs", 0);
        CheckpointType type = checkpointType(node);
        String storageLocation = text(node, "storageLocation");
        String jobId = text(node, "jobId");
        String taskId = text(node, "taskId");
        long subtaskIndex = integer(node, "subtaskIndex", 0);
        if (subtaskIndex > Integer.MAX_VALUE) {
            throw new MalformedHookMessageException("field subtaskIndex is too large: " + subtaskIndex);
        }
        return new SnapshotRequest(checkpointId, timestampMs, type, storageLocation, jobId, taskId, (int) subtaskIndex);
    }

    /** The body of a snapshot result. */
    public static String snapshotResult(SnapshotResult result) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("location", result.location())
                .put("sizeBytes", result.sizeBytes())
                .put("syncDurationMs", result.syncDurationMs())
                .put("asyncDurationMs", result.asyncDurationMs())
                .put("alignmentDurationMs", result.alignmentDurationMs())
                .put("bytesPersisted", result.bytesPersisted());
        return write(node);
    }

    /** Reads a snapshot result. */
    public static SnapshotResult parseSnapshotResult(String body) throws MalformedHookMessageException {
        JsonNode node = object(body, "snapshot result");
        String location = text(node, "location");
        long sizeBytes = integer(node, "sizeBytes", 0);
        return new SnapshotResult(location, sizeBytes, optionalInteger(node, "syncDurationMs", 0),
                optionalInteger(node, "asyncDurationMs", 0), optionalInteger(node, "alignmentDurationMs", 0),
                optionalInteger(node, "bytesPersisted", sizeBytes));
    }

    /** The body of a notification. */
    public static String notification(HookNotification notification) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("checkpointId", notification.checkpointId())
                .put("outcome", notification.outcome().name())
                .put(notification.outcome().relatedField(), notification.relatedId());
        return write(node);
    }

    /** Reads a notification body. */
    public static HookNotification parseNotification(String body) throws MalformedHookMessageException {
        JsonNode node = object(body, "notification");
        long checkpointId = integer(node, "checkpointId", 0);
        String outcomeName = text(node, "outcome");
        HookNotification.Outcome outcome;
        try {
            outcome = HookNotification.Outcome.valueOf(outcomeName);
        } catch (IllegalArgumentException e) {
            throw new MalformedHookMessageException("field outcome must be one of "
                    + Arrays.toString(HookNotification.Outcome.values()) + ", was \"" + outcomeName + "\"");
        }
        return new HookNotification(checkpointId, outcome, integer(node, outcome.relatedField(), -1));
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

    private static JsonNode object(String body, String what) throws MalformedHookMessageException {
        if (body == null || body.isBlank()) {
            throw new MalformedHookMessageException("the " + what + " is empty, expected a JSON object");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new MalformedHookMessageException("the " + what + " is not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new MalformedHookMessageException("the " + what + " must be a JSON object, was "
                    + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        return node;
    }

    private static CheckpointType checkpointType(JsonNode node) throws MalformedHookMessageException {
        String type = text(node, "type");
        try {
            return CheckpointType.valueOf(type);
        } catch (IllegalArgumentException e) {
            throw new MalformedHookMessageException("field type must be one of "
                    + Arrays.toString(CheckpointType.values()) + ", was \"" + type + "\"");
        }
    }

    private static String text(JsonNode node, String field) throws MalformedHookMessageException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new MalformedHookMessageException("missing field " + field);
        }
        if (!value.isTextual() || value.textValue().isBlank()) {
            throw new MalformedHookMessageException("field " + field + " must be a non-empty string, was " + value);
        }
        return value.textValue();
    }

    private static long integer(JsonNode node, String field, long min) throws MalformedHookMessageException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new MalformedHookMessageException("missing field " + field);
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < min) {
            throw new MalformedHookMessageException("field " + field + " must be an integer >= " + min
                    + ", was " + value);
        }
        return value.longValue();
    }

    private static long optionalInteger(JsonNode node, String field, long absent) throws MalformedHookMessageException {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? absent : integer(node, field, 0);
    }

    private static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }
}
