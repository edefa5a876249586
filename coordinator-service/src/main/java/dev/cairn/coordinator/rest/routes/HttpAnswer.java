package dev.cairn.coordinator.rest.routes;

import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.views.ApiViews;
import java.util.HashMap;
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

    /** The JSON error {@code e} describes, with the headers its status calls for. */
    static HttpAnswer error(ApiException e) {
        return new HttpAnswer(e.status(), Json.bytes(new ApiViews.Error(e.getMessage())), e.headers());
    }

    /** This answer, naming {@code instance} in {@value Forwarder#SERVED_BY} unless another instance served it. */
    HttpAnswer servedBy(String instance) {
        if (headers.containsKey(Forwarder.SERVED_BY)) {
            return this;
        }
        Map<String, String> withServer = new HashMap<>(headers);
        withServer.put(Forwarder.SERVED_BY, instance);
        return new HttpAnswer(status, body, withServer);
    }
}
