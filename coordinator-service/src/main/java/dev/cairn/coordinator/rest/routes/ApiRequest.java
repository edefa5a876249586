package dev.cairn.coordinator.rest.routes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP request as {@link QueryApi} sees it, independent of the server that received it.
 *
 * @param method the HTTP method, e.g. {@code GET}
 * @param rawPath the path, still percent-encoded
 * @param rawQuery the query string, still percent-encoded; {@code null} when there is none
 * @param headers every value of every header, by lower-case name
 * @param body the whole body (empty when there is none), at most {@link QueryApi#MAX_BODY_BYTES}
 */
record ApiRequest(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, byte[] body) {

    ApiRequest {
        Map<String, List<String>> byName = new TreeMap<>();
        headers.forEach((name, values) ->
                byName.computeIfAbsent(name.toLowerCase(Locale.ROOT), lowerCase -> new ArrayList<>()).addAll(values));
        byName.replaceAll((name, values) -> List.copyOf(values));
        headers = Map.copyOf(byName);
    }

    /** Every value of the header {@code name} (in any case), in the order received. */
    List<String> headers(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    /** The first value of the header {@code name}, or {@code null}. */
    String header(String name) {
        List<String> values = headers(name);
        return values.isEmpty() ? null : values.get(0);
    }

    /** The path and query, as received. */
    String rawPathAndQuery() {
        return rawPath + (rawQuery == null ? "" : "?" + rawQuery);
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
