package dev.cairn.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.routes.QueryApi;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.core.contract.InputLimits;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Slow and oversized clients against the REST server: they may cost a connection until the idle timeout,
 * never the other clients' answers.
 */
class QueryServerStallTest {

    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(2);
    private static final int STALLED_CLIENTS = 20;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Socket> stalled = new ArrayList<>();
    private QueryServer server;

    @BeforeEach
    void startServer() {
        server = QueryServer.bind(QueryServerConfig.loopback().withLimits(TestLimits.connections(IDLE_TIMEOUT, 50, 0))
                .withAccess(TestTokens.mutations()));
        server.start(new FixedStateSource(new JobLocation.Unavailable("no state in this test")), new AlwaysUp(),
                (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : stalled) {
            socket.close();
        }
        server.close();
    }

    @Test
    void shouldAnswerOtherClientsPromptlyWhileClientsStallInTheirBodyAndCloseThoseAfterTheIdleTimeout()
            throws Exception {
        long stalledAt = System.nanoTime();
        for (int i = 0; i < STALLED_CLIENTS; i++) {
            stalled.add(stallInBody());
        }

        for (int i = 0; i < 10; i++) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(server.uri() + "/jobs/job-1"))
                    .timeout(Duration.ofMillis(500)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(503);
        }
        assertThat(stalled).noneMatch(QueryServerStallTest::closedByServer);

        Awaitility.await().atMost(IDLE_TIMEOUT.multipliedBy(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> stalled.stream().allMatch(QueryServerStallTest::closedByServer));
        assertThat(Duration.ofNanos(System.nanoTime() - stalledAt)).isGreaterThanOrEqualTo(IDLE_TIMEOUT);
    }

    @Test
    void shouldMakeNewConnectionsWaitWhileTheConnectionLimitIsReached() throws Exception {
        server.close();
        server = QueryServer.bind(QueryServerConfig.loopback().withLimits(TestLimits.connections(IDLE_TIMEOUT, 3, 0))
                .withAccess(TestTokens.mutations()));
        server.start(new FixedStateSource(new JobLocation.Unavailable("no state in this test")), new AlwaysUp(),
                (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
        for (int i = 0; i < 3; i++) {
            stalled.add(stallInBody());
        }

        CompletableFuture<HttpResponse<String>> waiting = http.sendAsync(HttpRequest.newBuilder(
                URI.create(server.uri() + "/jobs/job-1")).GET().build(), HttpResponse.BodyHandlers.ofString());

        Awaitility.await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(1)).until(() -> !waiting.isDone());
        Awaitility.await().atMost(IDLE_TIMEOUT.multipliedBy(3)).until(waiting::isDone);
        assertThat(waiting.get().statusCode()).isEqualTo(503);
    }

    @Test
    void shouldAnswer431ForOversizeHeadersAndKeepServing() throws Exception {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(server.uri() + "/jobs/job-1"))
                .header("X-Padding", "x".repeat(QueryServer.MAX_HEADER_BYTES)).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(431);
        assertThat(Json.MAPPER.readTree(answer.body()).get("error").asText()).startsWith("431");
        assertThat(get("/jobs/job-1").statusCode()).isEqualTo(503);
    }

    @Test
    void shouldAnswer413ForADeclaredOrSentBodyOverTheLimit() throws Exception {
        byte[] large = new byte[QueryApi.MAX_BODY_BYTES + 1];
        HttpResponse<String> declared = http.send(HttpRequest.newBuilder(URI.create(server.uri() + "/jobs/job-1"))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(large)).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> chunked = http.send(HttpRequest.newBuilder(URI.create(server.uri() + "/jobs/job-1"))
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(large))).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(Json.MAPPER.readTree(chunked.body()).get("error").asText())
                .isEqualTo("the body is larger than 65536 bytes");
        assertThat(get("/jobs/job-1").statusCode()).isEqualTo(503);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(server.uri() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A client that declares a body of 1,000 bytes, sends a few, and stalls. */
    private Socket stallInBody() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.getOutputStream().write(("POST /jobs/job-1/checkpoints HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer " + TestTokens.OPS + "\r\n"
                + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"type\"")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** Whether the server closed the connection: whatever it answered, the stream ends (or is reset). */
    private static boolean closedByServer(Socket socket) {
        try {
            socket.setSoTimeout(20);
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[1024];
            while (true) {
                if (in.read(buffer) == -1) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
