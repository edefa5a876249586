package dev.cairn.sidecar.hook.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reading the fields of a hook message strictly: duplicate fields and trailing content are errors, and every
 * error names the field at fault.
 */
final class JsonFields {

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonFields() {
    }

    /** {@code body} as a JSON object; {@code what} names the message in errors. */
    static JsonNode object(String body, String what) throws MalformedHookMessageException {
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
                    + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(Locale.ROOT)));
        }
        return node;
    }

    /** Whether the field is there and not null. */
    static boolean present(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && !value.isNull();
    }

    static String text(JsonNode node, String field) throws MalformedHookMessageException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new MalformedHookMessageException("missing field " + field);
        }
        if (!value.isTextual() || value.textValue().isBlank()) {
            throw new MalformedHookMessageException("field " + field + " must be a non-empty string, was " + value);
        }
        return value.textValue();
    }

    static long integer(JsonNode node, String field, long min) throws MalformedHookMessageException {
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

    /** An integer field that may be absent (or null): {@code absent} then. */
    static long optionalInteger(JsonNode node, String field, long min, long absent)
            throws MalformedHookMessageException {
        return present(node, field) ? integer(node, field, min) : absent;
    }

    /** A boolean field that may be absent (or null): {@code absent} then. */
    static boolean optionalBoolean(JsonNode node, String field, boolean absent) throws MalformedHookMessageException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw new MalformedHookMessageException("field " + field + " must be true or false, was " + value);
        }
        return value.booleanValue();
    }

    /** An enum field named by its constant; absent (or null) gives {@code absent}, which may be null (required). */
    static <E extends Enum<E>> E enumeration(JsonNode node, String field, Class<E> type, E absent)
            throws MalformedHookMessageException {
        if (!present(node, field) && absent != null) {
            return absent;
        }
        String name = text(node, field);
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new MalformedHookMessageException("field " + field + " must be one of "
                    + Arrays.toString(type.getEnumConstants()) + ", was \"" + name + "\"");
        }
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }
}
