package dev.cairn.sample.worker;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import dev.cairn.sidecar.hook.http.HookJson;
import dev.cairn.sidecar.hook.http.HookNotification;
import dev.cairn.sidecar.hook.http.HttpSnapshotHook;
import dev.cairn.sidecar.hook.http.MalformedHookMessageException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link SnapshotHook} over HTTP: the server side of {@link HttpSnapshotHook}'s protocol (JSON
 * bodies as {@link HookJson} describes them).
 * <ul>
 *   <li>{@code POST /snapshot}: 200 with the snapshot result; 409 {@code {"error","reason"}} when the
 *       worker declines; 500 {@code {"error"}} when it fails otherwise.</li>
 *   <li>{@code POST /notify}, {@code POST /restore}, {@code POST /discard}: 204 once the worker has handled it;
 *       422 {@code {"error"}} when the state to restore is missing or corrupt (the sidecar reports it, and the job
 *       falls back to an older checkpoint); 500 {@code {"error"}} when it fails otherwise.</li>
 *   <li>{@code GET /health}: 200 {@code {"status":"UP"}}.</li>
 *   <li>A body that is not the expected JSON: 400 {@code {"error"}} naming what is wrong; a body over
 *       1 MiB: 413; another method: 405; another path: 404.</li>
 * </ul>
 * Requests are served by a small pool, so a slow snapshot never holds up a notification.
 */
public final class HookServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
    private static final int MAX_BODY_BYTES = 1024 * 1024;
    private static final int THREADS = 8;

    private final SnapshotHook worker;
    private final HttpServer server;
    private final ExecutorService executor;

    private HookServer(SnapshotHook worker, HttpServer server, ExecutorService executor) {
        this.worker = worker;
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving.
     *
     * @param worker the hook to serve; closed with the server
     * @param address where to listen (port 0 picks a free one)
     * @throws IOException when the address cannot be bound
     */
    public static HookServer start(SnapshotHook worker, InetSocketAddress address) throws IOException {
        Objects.requireNonNull(worker, "worker");
        HttpServer server = HttpServer.create(address, 0);
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, runnable -> {
            Thread thread = new Thread(runnable, "cairn-hook-server-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        HookServer hookServer = new HookServer(worker, server, executor);
        server.createContext("/", hookServer::handle);
        server.setExecutor(executor);
        server.start();
        return hookServer;
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The base URL to hand an {@link HttpSnapshotHook}. */
    public URI baseUrl() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getAddress().getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort());
    }

    /** Stops serving and closes the worker. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            worker.close();
        } catch (Exception e) {
            LOG.warn("Could not close the worker {}", worker, e);
        }
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/health")) {
                answer(exchange, "GET", () -> respond(exchange, 200, "{\"status\":\"UP\"}"));
            } else if (path.equals("/snapshot")) {
                answer(exchange, "POST", () -> snapshot(exchange, body(exchange)));
            } else if (path.equals("/notify")) {
                answer(exchange, "POST", () -> notify(exchange, body(exchange)));
            } else if (path.equals("/restore")) {
                answer(exchange, "POST", () -> restore(exchange, body(exchange)));
            } else if (path.equals("/discard")) {
                answer(exchange, "POST", () -> discard(exchange, body(exchange)));
            } else {
                respond(exchange, 404, HookJson.error("no such endpoint: " + path
                        + " (expected /snapshot, /notify, /restore, /discard or /health)"));
            }
        } catch (IOException e) {
            LOG.debug("Could not answer {} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI(),
                    e.toString());
        }
    }

    /** Checks the method, then runs the action, turning a malformed body into a 400. */
    private void answer(HttpExchange exchange, String method, Action action) throws IOException {
        if (!exchange.getRequestMethod().equals(method)) {
            exchange.getResponseHeaders().set("Allow", method);
            respond(exchange, 405, HookJson.error(exchange.getRequestURI().getPath() + " accepts " + method
                    + " only, not " + exchange.getRequestMethod()));
            return;
        }
        try {
            action.run();
        } catch (MalformedHookMessageException e) {
            respond(exchange, 400, HookJson.error(e.getMessage()));
        } catch (BodyTooLargeException e) {
            respond(exchange, 413, HookJson.error("the body exceeds " + MAX_BODY_BYTES + " bytes"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            respond(exchange, 503, HookJson.error("the worker is shutting down"));
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            failed(exchange, exchange.getRequestURI().getPath() + " request", e);
        }
    }

    private void snapshot(HttpExchange exchange, String body) throws Exception {
        var request = HookJson.parseSnapshotRequest(body);
        SnapshotResult result;
        try {
            result = worker.snapshot(request).toCompletableFuture().get();
        } catch (ExecutionException e) {
            failed(exchange, "snapshot of checkpoint " + request.checkpointId(), e.getCause());
            return;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            failed(exchange, "snapshot of checkpoint " + request.checkpointId(), e);
            return;
        }
        respond(exchange, 200, HookJson.snapshotResult(result));
    }

    private void notify(HttpExchange exchange, String body) throws Exception {
        HookNotification notification = HookJson.parseNotification(body);
        try {
            if (notification.outcome() == HookNotification.Outcome.COMPLETED) {
                worker.notifyComplete(notification.completion());
            } else {
                worker.notifyAborted(notification.abort());
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            failed(exchange, "notification of checkpoint " + notification.checkpointId(), e);
            return;
        }
        respond(exchange, 204, "");
    }

    private void restore(HttpExchange exchange, String body) throws Exception {
        var from = HookJson.parseRestore(body);
        try {
            worker.restore(from);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            failed(exchange, "restore", e);
            return;
        }
        respond(exchange, 204, "");
    }

    private void discard(HttpExchange exchange, String body) throws Exception {
        var state = HookJson.parseDiscard(body);
        try {
            worker.discardState(state);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            failed(exchange, "discard of " + state.location(), e);
            return;
        }
        respond(exchange, 204, "");
    }

    private void failed(HttpExchange exchange, String what, Throwable error) throws IOException {
        if (error instanceof SnapshotDeclinedException declined) {
            respond(exchange, 409, HookJson.declined(declined.reason().name(), declined.getMessage()));
        } else if (error instanceof StateUnreadableException unreadable) {
            LOG.warn("The worker cannot read the state to restore: {}", unreadable.getMessage());
            respond(exchange, 422, HookJson.error(unreadable.getMessage()));
        } else {
            LOG.warn("The worker failed the {}", what, error);
            respond(exchange, 500, HookJson.error("the worker failed the " + what + ": " + error));
        }
    }

    private static String body(HttpExchange exchange) throws IOException, BodyTooLargeException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw new BodyTooLargeException();
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0) {
            exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    /** A request's work, which may find its body malformed. */
    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    /** The request body is over the limit. */
    private static final class BodyTooLargeException extends Exception {
        private static final long serialVersionUID = 1L;
    }
}
