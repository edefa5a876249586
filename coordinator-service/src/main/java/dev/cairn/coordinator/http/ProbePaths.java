package dev.cairn.coordinator.http;

import dev.cairn.coordinator.rest.Json;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What the probes port serves: {@link #PATHS} go to the handler it wraps (the API's {@code /health} and
 * {@code /ready}, and {@code /metrics} in front of it); any other path is answered 404 with a JSON error that
 * points at the API's port, so that the probes port never becomes a second way into the API.
 */
final class ProbePaths extends Handler.Wrapper {

    /** The paths served on the probes port. */
    static final Set<String> PATHS = Set.of("/health", "/ready", "/metrics");

    ProbePaths(Handler probes) {
        super(probes);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (PATHS.contains(request.getHttpURI().getPath())) {
            return super.handle(request, response, callback);
        }
        response.setStatus(404);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.write(true, ByteBuffer.wrap(Json.bytes(Map.of("error", "the probes port serves only /health, "
                + "/ready and /metrics; the API is on the API port (http.port)"))), callback);
        return true;
    }
}
