package dev.cairn.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.testbed.RawClient;
import dev.cairn.core.contract.InputLimits;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The campaign's attack, without a broker: hundreds of clients, from a dozen addresses so that the cap per client
 * lets them in, each declaring a body and sending one byte of it a second. Every API connection is held at first;
 * the probes port answers all along, and the minimum body rate cuts the clients off within seconds, after which
 * the API answers again.
 */
class QueryServerFloodTest {

    private static final int CLIENTS = 250;
    /** 127.0.0.10 to 127.0.0.22: at most 20 clients each, the default cap per client. */
    private static final int SOURCE_ADDRESSES = 13;
    private static final long MIN_RATE = 100;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final List<RawClient> dribblers = new ArrayList<>();
    private final ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
    private QueryServer server;

    @BeforeEach
    void startServer() {
        server = QueryServer.bind(QueryServerConfig.loopback().withProbesPort(0).withAccess(TestTokens.mutations())
                .withLimits(TestLimits.slowClients(MIN_RATE,
                        ClientLimits.DEFAULT_HEADER_TIMEOUT)));
        server.start(new FixedStateSource(new JobLocation.Unavailable("no state in this test")),
                new AlwaysUp(), (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() throws IOException {
        drip.shutdownNow();
        for (RawClient dribbler : dribblers) {
            dribbler.close();
        }
        server.close();
    }

    @Test
    void shouldAnswerProbesOnTheProbesPortAndCutOffClientsThatDribbleTheirBodyBelowTheMinimumRate()
            throws Exception {
        long floodedAt = System.nanoTime();
        for (int i = 0; i < CLIENTS; i++) {
            RawClient dribbler = RawClient.connect("127.0.0." + (10 + i % SOURCE_ADDRESSES), server.port());
            dribbler.send(RawClient.postHead(1_000, TestTokens.OPS));
            dribblers.add(dribbler);
        }
        drip.scheduleAtFixedRate(() -> dribblers.forEach(d -> d.send("x")), 1_500, 1_000,
                TimeUnit.MILLISECONDS);

        assertThatThrownBy(() -> get(server.uri(), Duration.ofSeconds(1)))
                .as("the API while the flood holds every connection").isInstanceOf(IOException.class);
        AtomicInteger probes = new AtomicInteger();
        URI probesUri = URI.create("http://127.0.0.1:" + server.probesPort());
        Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> get(probesUri, Duration.ofSeconds(1)).statusCode() == 200 && probes.incrementAndGet() > 0);

        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> dribblers.stream().allMatch(RawClient::closedByServer));
        assertThat(Duration.ofNanos(System.nanoTime() - floodedAt)).isLessThan(Duration.ofSeconds(16));
        assertThat(probes.get()).isGreaterThanOrEqualTo(8);
        List<String> answers = dribblers.stream().map(RawClient::received).toList();
        assertThat(answers).as("408, or a reset that discarded it (the server closes with the client's bytes unread)")
                .allMatch(answer -> answer.isEmpty() || answer.startsWith("HTTP/1.1 408 "))
                .anyMatch(answer -> answer.startsWith("HTTP/1.1 408 "));
        assertThat(get(server.uri(), Duration.ofSeconds(2)).statusCode()).isEqualTo(200);
        assertThat(get(probesUri, Duration.ofSeconds(2)).statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> get(URI base, Duration timeout) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/health")).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
