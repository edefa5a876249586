package dev.cairn.sidecar.hook.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/**
 * A worker stand-in on a loopback port: records every request and answers as told; {@link #hang()} makes it
 * hold every answer until it is closed.
 */
final class StubWorkerServer implements AutoCloseable {

    /** A request as the worker received it. */
    record Received(String method, String path, String contentType, String body) {}

    /** An answer to give. */
    record Answer(int status, String body) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile BiFunction<String, String, Answer> answers = (path, body) -> new Answer(204, "");
    private volatile boolean hanging;

    StubWorkerServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Answers every request with this status and body. */
    StubWorkerServer answer(int status, String body) {
        answers = (path, requestBody) -> new Answer(status, body);
        return this;
    }

    /** Holds every answer until {@link #close()}. */
    StubWorkerServer hang() {
        hanging = true;
        return this;
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body));
            if (hanging) {
                released.await();
            }
            Answer answer = answers.apply(exchange.getRequestURI().getPath(), body);
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
