package dev.cairn.coordinator.metrics;

import dev.cairn.client.Json;
import dev.cairn.metrics.PrometheusScrape;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code GET /metrics} ({@link CoordinatorMetrics#scrape}) in front of the REST API, and hands every
 * other path to the handler it wraps. Like {@code /health}, it needs no token and is answered by the
 * instance asked: each instance reports the jobs it owns, so Prometheus scrapes every instance. Another
 * method is answered 405 with an {@code Allow} header and a JSON error, as the API answers; a scrape that
 * fails is answered 500 with a JSON error.
 */
public final class MetricsHandler extends Handler.Wrapper {

    /** The path served. */
    public static final String PATH = "/metrics";
    private static final Logger LOG = LoggerFactory.getLogger(MetricsHandler.class);

    private final CoordinatorMetrics metrics;

    /**
     * @param metrics what a scrape answers
     * @param api the handler of every other path
     */
    public MetricsHandler(CoordinatorMetrics metrics, Handler api) {
        super(api);
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!PATH.equals(request.getHttpURI().getPath())) {
            return super.handle(request, response, callback);
        }
        if (!"GET".equals(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET");
            error(response, callback, 405, request.getMethod() + " is not allowed here; allowed: GET");
            return true;
        }
        request.getContext().execute(() -> {
            PrometheusScrape scrape;
            try {
                scrape = metrics.scrape(request.getHeaders().get(HttpHeader.ACCEPT));
            } catch (RuntimeException e) {
                LOG.warn("Could not scrape the metrics", e);
                error(response, callback, 500, "the metrics could not be gathered: " + e);
                return;
            }
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, scrape.contentType());
            response.write(true, ByteBuffer.wrap(scrape.body()), callback);
        });
        return true;
    }

    private static void error(Response response, Callback callback, int status, String message) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.write(true, ByteBuffer.wrap(Json.bytes(Map.of("error", message))), callback);
    }
}
