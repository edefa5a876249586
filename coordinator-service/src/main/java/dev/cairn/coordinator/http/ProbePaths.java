package dev.cairn.coordinator.http;

import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.routes.Route;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What the probes port serves: the paths of the {@link Route.Access#PROBE} routes go to the handler it wraps (the
 * API's {@code /health} and {@code /ready}, and {@code /metrics} in front of it); any other path is answered 404 with a
 * JSON error that points at the API's port, so that the probes port never becomes a second way into the API.
 */
final class ProbePaths extends Handler.Wrapper {

    private static final List<String> PATHS = Arrays.stream(Route.values())
            .filter(route -> route.access() == Route.Access.PROBE).map(Route::path).toList();
    private static final String ELSEWHERE = "the probes port serves only "
            + String.join(", ", PATHS.subList(0, PATHS.size() - 1)) + " and " + PATHS.get(PATHS.size() - 1)
            + "; the API is on the API port (http.port)";

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
        response.write(true, ByteBuffer.wrap(Json.bytes(Map.of("error", ELSEWHERE))), callback);
        return true;
    }
}
