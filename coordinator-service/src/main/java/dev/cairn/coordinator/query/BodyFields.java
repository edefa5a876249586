package dev.cairn.coordinator.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Strict readers of the fields of a JSON request body, shared by every body the REST API accepts. Each reader
 * adds a message naming the field (prefixed by {@code at}, e.g. {@code config.}) to {@code problems} when the
 * value is malformed, and returns {@code null} for a field that is left out, {@code null} or malformed, so that
 * a body's every problem is reported at once.
 */
final class BodyFields {

    /** Flink's name of a request id in trigger bodies ({@code TriggerId}); Cairn's own is {@code requestId}. */
    static final String TRIGGER_ID = "triggerId";
    static final String REQUEST_ID = "requestId";

    private BodyFields() {
    }

    /**
     * The body as a JSON object.
     *
     * @throws ApiException 400 when it is malformed JSON or not an object
     */
    static JsonNode object(String text, String example) {
        JsonNode root = Json.readTree(text);
        if (!root.isObject()) {
            throw ApiException.badRequest("the body must be a JSON object like " + example + ", not "
                    + Json.describe(root));
        }
        return root;
    }

    /** Fails with every problem, separated by {@code "; "}, when there is any. */
    static void requireNone(List<String> problems) {
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(String.join("; ", problems));
        }
    }

    static void unknownFields(JsonNode object, String at, List<String> known, List<String> problems) {
        object.fieldNames().forEachRemaining(name -> {
            if (!known.contains(name)) {
                problems.add("unknown field '" + at + name + "' (known fields" + (at.isEmpty() ? "" : " of " + at
                        .substring(0, at.length() - 1)) + ": " + String.join(", ", known) + ")");
            }
        });
    }

    /** Whether the field is present with a value other than {@code null}. */
    static boolean given(JsonNode object, String field) {
        JsonNode node = object.get(field);
        return node != null && !node.isNull();
    }

    /** An optional, non-blank string of at most {@link TriggerBody#MAX_TEXT_LENGTH} characters. */
    static String optionalText(JsonNode object, String at, String field, List<String> problems) {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            problems.add(at + field + " must be a string or null, not " + Json.describe(node));
        } else if (node.textValue().isBlank()) {
            problems.add(at + field + " must not be blank (leave it out instead)");
        } else if (node.textValue().length() > TriggerBody.MAX_TEXT_LENGTH) {
            problems.add(at + field + " must be at most " + TriggerBody.MAX_TEXT_LENGTH + " characters, not "
                    + node.textValue().length());
        } else {
            return node.textValue();
        }
        return null;
    }

    /** An optional boolean. */
    static Boolean flag(JsonNode object, String at, String field, List<String> problems) {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isBoolean()) {
            problems.add(at + field + " must be true or false, not " + Json.describe(node));
            return null;
        }
        return node.booleanValue();
    }

    /** A whole number in {@code min..max}; left out is a problem only if {@code required}. */
    static Long number(JsonNode object, String at, String field, long min, long max, boolean required,
                       List<String> problems) {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                problems.add(at + field + " is missing");
            }
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            problems.add(at + field + " must be a whole number, not " + Json.describe(node));
            return null;
        }
        long value = node.longValue();
        if (value < min) {
            problems.add(at + field + " must be >= " + min + ", not " + value);
            return null;
        }
        if (value > max) {
            problems.add(at + field + " must be at most " + max + ", not " + value);
            return null;
        }
        return value;
    }

    /** One of the constants of {@code type}, by its exact name. */
    static <E extends Enum<E>> E choice(JsonNode object, String at, String field, Class<E> type,
                                        List<String> problems) {
        List<String> names = Arrays.stream(type.getEnumConstants()).map(Enum::name).toList();
        String name = oneOf(object, at, field, Set.copyOf(names), names, problems);
        return name == null ? null : Enum.valueOf(type, name);
    }

    /** One of {@code names} (listed in that order in the message), by its exact spelling. */
    static String oneOf(JsonNode object, String at, String field, Set<String> accepted, List<String> names,
                        List<String> problems) {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isTextual() && accepted.contains(node.textValue())) {
            return node.textValue();
        }
        problems.add(at + field + " must be one of " + String.join(", ", names) + ", not " + Json.describe(node));
        return null;
    }

    /**
     * The request id, given as {@code requestId} or as Flink's {@code triggerId} (not both, unless equal);
     * {@code null} to have one generated.
     */
    static String requestId(JsonNode root, List<String> problems) {
        String requestId = optionalText(root, "", REQUEST_ID, problems);
        String triggerId = optionalText(root, "", TRIGGER_ID, problems);
        if (requestId != null && triggerId != null && !requestId.equals(triggerId)) {
            problems.add("requestId and triggerId name the same thing (the request's id); give only one");
            return null;
        }
        return requestId != null ? requestId : triggerId;
    }
}
