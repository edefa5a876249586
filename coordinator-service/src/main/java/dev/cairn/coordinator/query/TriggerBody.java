package dev.cairn.coordinator.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The body of {@code POST /jobs/{jobId}/checkpoints}:
 * {@code {"type": "CHECKPOINT"|"SAVEPOINT", "force": false, "targetLocation": null, "requestId": "..."}}.
 * Every field may be left out (an empty body asks for a checkpoint); {@code targetLocation} applies to
 * savepoints only. Reading is strict and names every problem of a body at once.
 *
 * @param type checkpoint or savepoint
 * @param force whether the request ignores maxConcurrent
 * @param targetLocation where a savepoint is written, {@code null} for the job's storage base location
 * @param requestId the requester's id (makes the request idempotent), {@code null} to have one generated
 */
public record TriggerBody(CheckpointType type, boolean force, String targetLocation, String requestId) {

    /** The requester recorded in every TriggerRequest this API produces. */
    public static final String REQUESTER = "rest";

    static final List<String> FIELDS = List.of("type", "force", "targetLocation", "requestId");
    static final int MAX_TEXT_LENGTH = 1024;
    private static final String EXAMPLE =
            "{\"type\": \"CHECKPOINT\", \"force\": false, \"targetLocation\": null, \"requestId\": \"my-request\"}";
    private static final List<String> TYPES = Arrays.stream(CheckpointType.values()).map(Enum::name).toList();

    /**
     * Reads a body.
     *
     * @throws ApiException 400 naming what is malformed, unknown or of the wrong type
     */
    public static TriggerBody parse(String text) {
        if (text == null || text.isBlank()) {
            return new TriggerBody(CheckpointType.CHECKPOINT, false, null, null);
        }
        JsonNode root = Json.readTree(text);
        if (!root.isObject()) {
            throw ApiException.badRequest("the body must be a JSON object like " + EXAMPLE + ", not "
                    + Json.describe(root));
        }
        List<String> problems = new ArrayList<>();
        root.fieldNames().forEachRemaining(name -> {
            if (!FIELDS.contains(name)) {
                problems.add("unknown field '" + name + "' (known fields: " + String.join(", ", FIELDS) + ")");
            }
        });
        CheckpointType type = type(root.get("type"), problems);
        boolean force = force(root.get("force"), problems);
        String target = text(root, "targetLocation", problems);
        String requestId = text(root, "requestId", problems);
        if (target != null && type == CheckpointType.CHECKPOINT) {
            problems.add("targetLocation applies to savepoints only (a checkpoint is stored under the job's "
                    + "storageBaseLocation); send \"type\": \"SAVEPOINT\" or leave targetLocation out");
        }
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(String.join("; ", problems));
        }
        return new TriggerBody(type, force, target, requestId);
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
                .build();
    }

    private static CheckpointType type(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return CheckpointType.CHECKPOINT;
        }
        if (node.isTextual() && TYPES.contains(node.textValue())) {
            return CheckpointType.valueOf(node.textValue());
        }
        problems.add("type must be one of " + String.join(", ", TYPES) + ", not " + Json.describe(node));
        return CheckpointType.CHECKPOINT;
    }

    private static boolean force(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        problems.add("force must be true or false, not " + Json.describe(node));
        return false;
    }

    private static String text(JsonNode root, String field, List<String> problems) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            problems.add(field + " must be a string or null, not " + Json.describe(node));
        } else if (node.textValue().isBlank()) {
            problems.add(field + " must not be blank (leave it out instead)");
        } else if (node.textValue().length() > MAX_TEXT_LENGTH) {
            problems.add(field + " must be at most " + MAX_TEXT_LENGTH + " characters, not "
                    + node.textValue().length());
        } else {
            return node.textValue();
        }
        return null;
    }
}
