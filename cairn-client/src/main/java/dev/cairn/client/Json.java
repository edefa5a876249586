package dev.cairn.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The REST API's JSON: responses use Flink's REST API naming (snake_case, durations in milliseconds,
 * timestamps in epoch milliseconds, absent values as {@code null}); request bodies are read strictly
 * (duplicate fields and trailing content are errors).
 */
public final class Json {

    /** Thread-safe once configured; shared by the coordinator's REST API, its forwarder, the CLI and the tests. */
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
}
