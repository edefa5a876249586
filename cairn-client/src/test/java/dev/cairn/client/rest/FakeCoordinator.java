package dev.cairn.client.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A REST API on a loopback port that answers each {@code METHOD path} with what a test set, and records every call
 * (method, path, Authorization header, body): the coordinator's REST API as a client sees it. Public so that the
 * CLI's tests use it too.
 */
public final class FakeCoordinator implements AutoCloseable {

    /** One call as it arrived. */
    public record Call(String method, String path, String authorization, String body) {}

    /** One answer. */
    public record Answer(int status, String body) {}

    private final HttpServer server;
    private final Map<String, Supplier<Answer>> answers = new ConcurrentHashMap<>();
    private final List<Call> calls = new CopyOnWriteArrayList<>();

    public FakeCoordinator() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    /** Answers {@code method path} with {@code status} and {@code body} from now on. */
    public FakeCoordinator on(String method, String path, int status, String body) {
        return on(method, path, () -> new Answer(status, body));
    }

    /** Answers {@code method path} with what {@code answer} gives at each call. */
    public FakeCoordinator on(String method, String path, Supplier<Answer> answer) {
        answers.put(method + " " + path, answer);
        return this;
    }

    /** The API's root. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every call so far. */
    public List<Call> calls() {
        return List.copyOf(calls);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().getRawPath();
        calls.add(new Call(exchange.getRequestMethod(), path, exchange.getRequestHeaders().getFirst("Authorization"),
                body));
        Supplier<Answer> answer = answers.get(exchange.getRequestMethod() + " " + path);
        Answer a = answer == null ? new Answer(404, "{\"error\":\"no route " + path + "\"}") : answer.get();
        byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(a.status(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
