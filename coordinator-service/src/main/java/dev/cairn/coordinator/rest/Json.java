package dev.cairn.coordinator.rest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The REST API's JSON: responses use Flink's REST API naming (snake_case, durations in milliseconds,
 * timestamps in epoch milliseconds, absent values as {@code null}); request bodies are read strictly
 * (duplicate fields and trailing content are errors).
 */
public final class Json {

    /** Thread-safe once configured; shared by the server, the forwarder and the tests. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Json() {
    }

    /** The JSON of a view; views are plain records, so this cannot fail short of a bug. */
    public static byte[] bytes(Object view) {
        try {
            return MAPPER.writeValueAsBytes(view);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + view.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /**
     * Reads a request body strictly.
     *
     * @throws ApiException 400 naming the line and column of malformed JSON
     */
    static JsonNode readTree(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw ApiException.badRequest("malformed JSON" + where + ": " + e.getOriginalMessage());
        }
    }

    /** A value as an error message shows it: its kind and (up to 60 characters of) its JSON. */
    static String describe(JsonNode node) {
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
