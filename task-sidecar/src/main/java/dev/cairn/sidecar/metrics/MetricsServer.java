package dev.cairn.sidecar.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cairn.metrics.PrometheusScrape;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a sidecar's {@link SidecarMetrics} on {@code GET /metrics} and its {@link SidecarHealth} on
 * {@code GET /health} (200 when up, 503 when down, a JSON body {@code {"status":"UP"}} or
 * {@code {"status":"DOWN","reason":"..."}}), on one daemon thread of the JDK's HTTP server. Another method is
 * answered 405 with {@code Allow: GET}, another path 404, both with a JSON body {@code {"error": "..."}} saying what
 * is wrong.
 */
public final class MetricsServer implements AutoCloseable {

    /** The path of the metrics. */
    public static final String PATH = "/metrics";
    /** The path of the health check (a Kubernetes probe's). */
    public static final String HEALTH_PATH = "/health";
    private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService thread;

    private MetricsServer(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /**
     * Binds {@code bindAddress}:{@code port} (0: any free port) and serves {@code metrics} and what {@code health}
     * says at each request there.
     *
     * @throws UncheckedIOException when the address cannot be bound (port in use, unknown address)
     */
    public static MetricsServer start(SidecarMetrics metrics, Supplier<SidecarHealth> health, String bindAddress,
            int port) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the sidecar's metrics on " + bindAddress + ":" + port + ": "
                    + e.getMessage(), e);
        }
        ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "cairn-sidecar-metrics");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/", exchange -> answer(exchange, metrics, health));
        server.start();
        MetricsServer started = new MetricsServer(server, thread);
        LOG.info("Sidecar metrics on http://{}:{}{}, health on {}", bindAddress, started.port(), PATH, HEALTH_PATH);
        return started;
    }

    private static void answer(HttpExchange exchange, SidecarMetrics metrics, Supplier<SidecarHealth> health)
            throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (!PATH.equals(path) && !HEALTH_PATH.equals(path)) {
                error(exchange, 404, "no endpoint " + method + " " + path + "; the sidecar serves GET " + PATH
                        + " and GET " + HEALTH_PATH);
            } else if (!"GET".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET");
                error(exchange, 405, method + " is not allowed here; allowed: GET");
            } else if (HEALTH_PATH.equals(path)) {
                health(exchange, health.get());
            } else {
                PrometheusScrape scrape = metrics.scrape(exchange.getRequestHeaders().getFirst("Accept"));
                exchange.getResponseHeaders().set("Content-Type", scrape.contentType());
                send(exchange, 200, scrape.body());
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not answer {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
        }
    }

    private static void health(HttpExchange exchange, SidecarHealth health) throws IOException {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("status", health.up() ? "UP" : "DOWN");
        if (!health.up()) {
            body.put("reason", health.reason());
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        send(exchange, health.up() ? 200 : 503, JSON.writeValueAsBytes(body));
    }

    private static void error(HttpExchange exchange, int status, String message) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        send(exchange, status, JSON.writeValueAsBytes(Map.of("error", message)));
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops serving at once. */
    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
