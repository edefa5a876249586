package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.http.TestLimits;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TriggerRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzed requests against a real server over a job's real stores (a TopologyTestDriver): random methods,
 * paths, tokens, headers and bodies, raw garbage, while uploads stall beside them ({@code -Dcairn.fuzz.requests},
 * 500 by default). Every request gets an answer with a status the API documents, a JSON error for every
 * refusal, never a 500; only valid requests with a valid token are published; the server still serves a
 * plain GET at the end.
 */
class QueryApiFuzzTest {

    private static final int REQUESTS = Integer.getInteger("cairn.fuzz.requests", 500);
    private static final String JOB = "job-1";
    private static final List<Integer> DOCUMENTED = List.of(200, 202, 400, 401, 403, 404, 405, 408, 413, 414, 415,
            431, 501, 505);
    private static final String VALID_SPEC = "{\"tasks\":[{\"taskId\":\"s\",\"parallelism\":2}],"
            + "\"config\":{\"intervalMs\":1000,\"timeoutMs\":5000,\"storageBaseLocation\":\"file:///x\"}}";
    private static final String VALID_TRIGGER = "{\"type\":\"SAVEPOINT\",\"targetLocation\":\"s3://b/sp\"}";

    @TempDir
    Path stateDir;

    private final Random random = new Random(7);
    private final List<RequestEnvelope> published = new CopyOnWriteArrayList<>();
    private CoordinatorDriver cairn;
    private QueryServer server;

    @BeforeEach
    void start() {
        cairn = CoordinatorDriver.start(stateDir);
        cairn.register(spec(JOB, task("source", 2)));
        // the subject here is the answer to every fuzzed request; the cap on one address's connections has tests of
        // its own (QueryServerClientLimitsTest), and 500 connections opened one after another from 127.0.0.1 can
        // briefly outnumber it while the server is still closing the earlier ones on a busy machine
        server = QueryServer.bind(QueryServerConfig.loopback()
                .withLimits(TestLimits.perClient(0)).withAccess(TestTokens.mutations()));
        server.start(cairn.localSource(), new AlwaysUp(), (jobId, request) -> published.add(request),
                InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        server.close();
        cairn.close();
    }

    @Test
    void shouldAnswerEveryFuzzedRequestWithADocumentedStatusAndPublishOnlyValidOnes() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        Map<Integer, Integer> statuses = new TreeMap<>();
        try {
            for (int i = 0; i < REQUESTS; i++) {
                if (i % 50 == 0) {
                    stalled.add(stallAnUpload());
                }
                Answer answer = send(fuzzedRequest(i));
                statuses.merge(answer.status(), 1, Integer::sum);
                assertThat(answer.status()).as("request %d, statuses so far %s", i, statuses).isIn(DOCUMENTED);
                if (answer.status() >= 400 && !answer.body().isEmpty()) {
                    JsonNode error = Json.MAPPER.readTree(answer.body());
                    assertThat(error.path("error").asText()).as("request %d", i).isNotBlank();
                }
            }
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }

        System.out.println("[fuzz] " + REQUESTS + " REST requests answered; statuses " + statuses + ", "
                + published.size() + " published");
        assertThat(statuses).containsKeys(200, 400, 401, 404);
        assertThat(published).allSatisfy(request -> {
            if (request.getEvent() instanceof JobSpec spec) {
                assertThat(JobSpecs.problems(spec)).isEmpty();
            } else {
                assertThat(request.getEvent()).isInstanceOf(TriggerRequest.class);
            }
        });
        assertThat(send(get("/jobs/" + JOB)).status()).isEqualTo(200);
    }

    private byte[] fuzzedRequest(int i) {
        return switch (i % 10) {
            case 0 -> get(randomPath());
            case 1 -> request(pick("PUT", "POST"), "/jobs/" + JOB, token(), mutate(VALID_SPEC));
            case 2 -> request("POST", "/jobs/" + JOB + "/checkpoints", token(), mutate(VALID_TRIGGER));
            case 3 -> request(pick("PUT", "POST", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"), randomPath(),
                    token(), randomBytes(random.nextInt(200)));
            case 4 -> request("PUT", "/jobs/" + JOB, "Bearer " + TestTokens.OPS,
                    VALID_SPEC.getBytes(StandardCharsets.UTF_8));
            case 5 -> randomBytes(1 + random.nextInt(400));
            case 6 -> request("PUT", "/jobs/" + JOB, "Bearer " + TestTokens.OPS,
                    deepJson(5_000 + random.nextInt(20_000)));
            case 7 -> request("PUT", "/jobs/" + JOB, "Bearer " + TestTokens.OPS,
                    randomBytes(60_000 + random.nextInt(20_000)));
            case 8 -> ("GET /" + "x".repeat(10_000 + random.nextInt(10_000)) + " HTTP/1.1\r\nHost: l\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            default -> ("GET /jobs/" + JOB + " HTTP/1.1\r\nHost: l\r\nX-Big: " + "y".repeat(9_000)
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        };
    }

    private String randomPath() {
        String segment = switch (random.nextInt(6)) {
            case 0 -> JOB;
            case 1 -> "%" + Integer.toHexString(random.nextInt(256)) + "%zz";
            case 2 -> "j".repeat(random.nextInt(3_000));
            case 3 -> "%C3%28%00";
            case 4 -> "..%2F..%2Fetc";
            default -> Long.toString(random.nextLong());
        };
        String tail = switch (random.nextInt(5)) {
            case 0 -> "";
            case 1 -> pick("/checkpoints", "/stop", "/savepoints");
            case 2 -> "/checkpoints/" + pick("latest-completed", "1", "-1", "99999999999999999999", "x");
            case 3 -> "/checkpoints/details/" + random.nextInt();
            default -> "/" + segment + "?" + segment;
        };
        return pick("/jobs/", "/", "/jobs", "/health/", "/ready?x=") + segment + tail;
    }

    private String token() {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "Bearer " + TestTokens.OPS;
            case 2 -> "Bearer " + TestTokens.CI;
            default -> pick("Basic Zm9vOmJhcg==", "Bearer", "Bearer " + "t".repeat(random.nextInt(100)), "bearer x y");
        };
    }

    private byte[] mutate(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return switch (random.nextInt(4)) {
            case 0 -> java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case 1 -> {
                bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                yield bytes;
            }
            case 2 -> json.replace("2", pick("0", "-1", "2147483647", "99999999999", "\"two\"", "null"))
                    .getBytes(StandardCharsets.UTF_8);
            default -> json.replace("}", ",\"extra\":" + pick("1", "[]", "{}", "\"x\"") + "}")
                    .getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] deepJson(int depth) {
        return ("[".repeat(depth) + "]".repeat(depth)).getBytes(StandardCharsets.US_ASCII);
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static byte[] get(String path) {
        return request("GET", path, null, new byte[0]);
    }

    private static byte[] request(String method, String path, String authorization, byte[] body) {
        StringBuilder head = new StringBuilder(method).append(' ').append(path)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("Connection: close\r\nContent-Type: application/json\r\n");
        if (authorization != null) {
            head.append("Authorization: ").append(authorization).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(body);
        return bytes.toByteArray();
    }

    private record Answer(int status, String body) {}

    /** Sends raw bytes on a new connection and reads the answer until the server closes it. */
    private Answer send(byte[] request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
                socket.shutdownOutput();
            } catch (IOException refusedMidway) {
                // the server may answer and close before it has read everything (a body over the limit)
            }
            String response = new String(readAll(socket.getInputStream()), StandardCharsets.ISO_8859_1);
            assertThat(response).as("an answer to %s", new String(request, 0, Math.min(80, request.length),
                    StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 ");
            int status = Integer.parseInt(response.substring(9, 12));
            int bodyStart = response.indexOf("\r\n\r\n");
            String body = bodyStart < 0 ? "" : new String(response.substring(bodyStart + 4)
                    .getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
            return new Answer(status, dechunk(response, body));
        }
    }

    private static String dechunk(String head, String body) {
        if (!head.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked")) {
            return body;
        }
        StringBuilder joined = new StringBuilder();
        String rest = body;
        while (true) {
            int lineEnd = rest.indexOf("\r\n");
            int size = Integer.parseInt(rest.substring(0, lineEnd).trim(), 16);
            if (size == 0) {
                return joined.toString();
            }
            joined.append(rest, lineEnd + 2, lineEnd + 2 + size);
            rest = rest.substring(lineEnd + 2 + size + 2);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                all.write(buffer, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // a connection the server reset after answering: what was read is the answer
        }
        return all.toByteArray();
    }

    /** Opens an upload that declares a body and never sends it. */
    private Socket stallAnUpload() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.getOutputStream().write(("PUT /jobs/" + JOB + " HTTP/1.1\r\nHost: l\r\nAuthorization: Bearer "
                + TestTokens.OPS + "\r\nContent-Length: 1000\r\n\r\n{\"ta").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(socket::isConnected);
        return socket;
    }
}
