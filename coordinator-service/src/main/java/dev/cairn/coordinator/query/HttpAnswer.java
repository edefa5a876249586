package dev.cairn.coordinator.query;

import java.util.Map;

/**
 * An HTTP answer as the REST API writes it: status, JSON body and extra headers.
 *
 * @param status the HTTP status
 * @param body the JSON body
 * @param headers extra response headers (Retry-After, Allow, the instance that served it)
 */
record HttpAnswer(int status, byte[] body, Map<String, String> headers) {

    HttpAnswer {
        headers = Map.copyOf(headers);
    }

    static HttpAnswer json(int status, Object view) {
        return new HttpAnswer(status, Json.bytes(view), Map.of());
    }

    static HttpAnswer error(ApiException e, Map<String, String> headers) {
        return new HttpAnswer(e.status(), Json.bytes(new ApiViews.Error(e.getMessage())), headers);
    }
}
