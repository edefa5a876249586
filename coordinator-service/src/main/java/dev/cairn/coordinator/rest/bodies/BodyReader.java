package dev.cairn.coordinator.rest.bodies;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonMappingException.Reference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.ApiException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Binds a request body to a Java record with Jackson, strictly: malformed JSON, duplicate fields, trailing
 * content, unknown fields and values of the wrong type (a string for a number, a fraction for a whole number, a
 * number for a string, a name that is not one of an enum's) are refused. Every such problem of a body is named
 * at once, by the JSON path of its field ({@code tasks[0].parallelism}): the body is bound again without each
 * value Jackson refused until it binds, so that the caller can add the problems of the rest. Request bodies take
 * the field names of Flink's request bodies, which mix spellings ({@code target-directory} and {@code cancel-job}
 * in a savepoint trigger, {@code targetDirectory}, {@code formatType} and {@code triggerId} elsewhere), and Cairn's
 * camel-case names beside them; responses are written by {@link Json#MAPPER} (snake_case, as Flink's).
 */
final class BodyReader {

    /** The most binding problems named in one answer (a body is at most 64 KiB, the API's limit). */
    private static final int MAX_PROBLEMS = 50;

    private static final ObjectMapper BODIES = strictMapper();

    private BodyReader() {
    }

    private static ObjectMapper strictMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }

    /**
     * A bound body and what Jackson refused on the way: each refused value is left out of {@code value}.
     *
     * @param value the body, without the refused values
     * @param problems by JSON path of the refused value, the message naming it
     */
    record Bound<T>(T value, Map<String, String> problems) {
    }

    /**
     * The body bound to {@code type}, with every value Jackson refused left out and named.
     *
     * @param example a body of this kind, shown when the body is not a JSON object
     * @throws ApiException 400 for malformed JSON, a body that is not an object, or one that cannot be bound
     */
    static <T> Bound<T> read(String text, Class<T> type, String example) {
        JsonNode root = tree(text);
        if (!root.isObject()) {
            throw ApiException.badRequest("the body must be a JSON object like " + example + ", not "
                    + shown(root));
        }
        ObjectNode body = root.deepCopy();
        Map<String, String> problems = new LinkedHashMap<>();
        while (problems.size() < MAX_PROBLEMS) {
            try {
                return new Bound<>(BODIES.readerFor(type).readValue(body), problems);
            } catch (JsonMappingException e) {
                problems.put(path(e.getPath()), describe(e, body));
                if (!drop(body, e.getPath())) {
                    break;
                }
            } catch (IOException e) {
                problems.put("", "cannot read the body: " + e.getMessage());
                break;
            }
        }
        throw ApiException.badRequest(String.join("; ", problems.values()));
    }

    /** Fails with every problem, separated by {@code "; "}, when there is any. */
    static void requireNone(List<String> problems) {
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(String.join("; ", problems));
        }
    }

    /** {@code tasks[0].parallelism} of a binding error. */
    static String path(List<Reference> references) {
        StringBuilder path = new StringBuilder();
        for (Reference reference : references) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String describe(JsonMappingException e, JsonNode body) {
        String path = path(e.getPath());
        if (e instanceof UnrecognizedPropertyException unknown) {
            String parent = path(e.getPath().subList(0, e.getPath().size() - 1));
            String known = unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted()
                    .collect(Collectors.joining(", "));
            return "unknown field '" + path + "' (known fields" + (parent.isEmpty() ? "" : " of " + parent) + ": "
                    + known + ")";
        }
        JsonNode value = at(body, e.getPath());
        String shown = value == null ? "" : ", not " + shown(value);
        return (path.isEmpty() ? "the body" : path) + " must be " + expected(e) + shown;
    }

    /** What a value of the error's target type looks like, in words. */
    private static String expected(JsonMappingException e) {
        Class<?> type = e instanceof MismatchedInputException m
                && m.getTargetType() != null ? m.getTargetType() : Object.class;
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name())
                    .collect(Collectors.joining(", "));
        }
        if (type == Long.class || type == Integer.class || type == long.class || type == int.class) {
            return "a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return type == Object.class ? "well-formed" : "an object";
    }

    private static JsonNode at(JsonNode body, List<Reference> path) {
        JsonNode node = body;
        for (Reference reference : path) {
            node = node == null ? null
                    : reference.getFieldName() != null ? node.get(reference.getFieldName())
                    : node.get(reference.getIndex());
        }
        return node;
    }

    /** Removes the refused value (an array element becomes {@code null}); false when there is none to remove. */
    private static boolean drop(JsonNode body, List<Reference> path) {
        if (path.isEmpty()) {
            return false;
        }
        JsonNode parent = at(body, path.subList(0, path.size() - 1));
        Reference last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode object && last.getFieldName() != null) {
            return object.remove(last.getFieldName()) != null;
        }
        if (parent instanceof ArrayNode array && last.getIndex() >= 0 && last.getIndex() < array.size()
                && !array.get(last.getIndex()).isNull()) {
            array.set(last.getIndex(), NullNode.getInstance());
            return true;
        }
        return false;
    }

    /**
     * Reads a request body strictly.
     *
     * @throws ApiException 400 naming the line and column of malformed JSON
     */
    private static JsonNode tree(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw ApiException.badRequest("malformed JSON" + where + ": " + e.getOriginalMessage());
        }
    }

    /** A value as an error message shows it: its kind and (up to 60 characters of) its JSON. */
    private static String shown(JsonNode node) {
        String json = node.toString();
        String shown = json.length() > 60 ? json.substring(0, 57) + "..." : json;
        return switch (node.getNodeType()) {
            case STRING -> "the string " + shown;
            case NUMBER -> "the number " + shown;
            case BOOLEAN -> "the boolean " + shown;
            case ARRAY -> "an array " + shown;
            case OBJECT -> "an object " + shown;
            default -> shown;
        };
    }
}
