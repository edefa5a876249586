package dev.cairn.sidecar.hook.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Binds hook messages to the records of {@link HookMessages} with Jackson, strictly: duplicate fields, trailing
 * content and values of another JSON type (a number for a string, a string for a number or a flag, a fraction
 * for an integer, a number for an enum) are errors, and every error names the field at fault. Fields that are
 * absent bind to {@code null}; unknown fields are ignored. A field of an object in an array is named by its path
 * ({@code shared[1].sizeBytes}). The checks of bound values (required, bounds) are
 * here too, so that every message says what is wrong in the same words.
 */
final class HookBinding {

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Textual, config -> config
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    private HookBinding() {
    }

    /** {@code body} bound to {@code type}; {@code what} names the message in errors. */
    static <T extends Record> T read(String body, String what, Class<T> type) throws MalformedHookMessageException {
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
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new MalformedHookMessageException(problem(e, what, type, node));
        }
    }

    /**
     * What a failed binding means, said of the field at fault with the value it had; a field inside an array of
     * objects is named by its path, such as {@code shared[1].sizeBytes}.
     */
    private static String problem(JsonProcessingException e, String what, Class<? extends Record> type,
            JsonNode node) {
        List<JsonMappingException.Reference> path = e instanceof JsonMappingException mapping ? mapping.getPath()
                : List.of();
        StringBuilder name = new StringBuilder();
        Type expected = type;
        JsonNode value = node;
        for (JsonMappingException.Reference reference : path) {
            if (reference.getFieldName() != null) {
                RecordComponent component = componentOf(expected, reference.getFieldName());
                if (component == null) {
                    break;
                }
                name.append(name.length() == 0 ? "" : ".").append(reference.getFieldName());
                expected = component.getGenericType();
                value = value == null ? null : value.get(reference.getFieldName());
            } else if (reference.getIndex() >= 0 && expected instanceof ParameterizedType list) {
                name.append('[').append(reference.getIndex()).append(']');
                expected = list.getActualTypeArguments()[0];
                value = value == null ? null : value.get(reference.getIndex());
            }
        }
        if (name.length() == 0) {
            return "the " + what + " cannot be read: " + e.getOriginalMessage();
        }
        return "field " + name + " must be " + expected(expected) + ", was " + value;
    }

    private static RecordComponent componentOf(Type type, String field) {
        if (!(type instanceof Class<?> record) || !record.isRecord()) {
            return null;
        }
        return Arrays.stream(record.getRecordComponents()).filter(c -> c.getName().equals(field)).findFirst()
                .orElse(null);
    }

    private static String expected(Type type) {
        if (type instanceof ParameterizedType) {
            return "an array";
        }
        if (type == Long.class) {
            return "an integer";
        }
        if (type == Boolean.class) {
            return "true or false";
        }
        if (type instanceof Class<?> c && c.isEnum()) {
            return "one of " + Arrays.toString(c.getEnumConstants());
        }
        if (type instanceof Class<?> c && c.isRecord()) {
            return "an object";
        }
        return "a non-empty string";
    }

    /** A required value. */
    static <V> V required(V value, String field) throws MalformedHookMessageException {
        if (value == null) {
            throw new MalformedHookMessageException("missing field " + field);
        }
        return value;
    }

    /** A required string that is not blank. */
    static String text(String value, String field) throws MalformedHookMessageException {
        if (required(value, field).isBlank()) {
            throw new MalformedHookMessageException("field " + field + " must be a non-empty string, was \""
                    + value + "\"");
        }
        return value;
    }

    /** A required integer of at least {@code min}. */
    static long integer(Long value, String field, long min) throws MalformedHookMessageException {
        if (required(value, field) < min) {
            throw new MalformedHookMessageException("field " + field + " must be an integer >= " + min
                    + ", was " + value);
        }
        return value;
    }

    /** An integer that may be absent: {@code absent} then. */
    static long optionalInteger(Long value, String field, long min, long absent) throws MalformedHookMessageException {
        return value == null ? absent : integer(value, field, min);
    }

    /** A value that may be absent: {@code absent} then. */
    static <V> V orElse(V value, V absent) {
        return value == null ? absent : value;
    }

    static String write(Record message) {
        try {
            return MAPPER.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + message, e);
        }
    }
}
