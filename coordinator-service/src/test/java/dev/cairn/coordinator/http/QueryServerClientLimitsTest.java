package dev.cairn.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.testbed.RawClient;
import dev.cairn.core.contract.InputLimits;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The limits of {@link ClientLimits} one at a time, on plain sockets from distinct loopback addresses: the cap
 * per client, the header deadline, and the minimum body rate that a slow but honest body still meets.
 */
class QueryServerClientLimitsTest {

    private static final String GET_HEALTH = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

    private final List<RawClient> clients = new ArrayList<>();
    private QueryServer server;

    @AfterEach
    void stop() throws IOException {
        for (RawClient client : clients) {
            client.close();
        }
        server.close();
    }

    @Test
    void shouldCloseTheConnectionOverTheCapOfOneAddressAndLeaveItsOthersAndOtherAddressesServed() throws Exception {
        start(TestLimits.perClient(3));
        List<RawClient> allowed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RawClient client = connect("127.0.0.2");
            assertThat(client.send(GET_HEALTH)).isTrue();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> client.received().contains("\"UP\""));
            allowed.add(client);
        }

        RawClient extra = connect("127.0.0.2");

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(extra::closedByServer);
        assertThat(extra.received()).isEmpty();
        for (RawClient client : allowed) {
            int answered = client.received().length();
            assertThat(client.send(GET_HEALTH)).isTrue();
            Awaitility.await().atMost(Duration.ofSeconds(5))
                    .until(() -> client.received().substring(answered).startsWith("HTTP/1.1 200 "));
        }
        RawClient elsewhere = connect("127.0.0.3");
        elsewhere.send(GET_HEALTH);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> elsewhere.received().startsWith("HTTP/1.1 200 "));

        allowed.get(0).close();
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> served("127.0.0.2"));
    }

    @Test
    void shouldCapConnectionsPerClientOnTheProbesPortByItsOwnSmallCapNotTheApis() throws Exception {
        start(TestLimits.perClient(1));
        List<RawClient> probes = new ArrayList<>();
        for (int i = 0; i < QueryServer.PROBE_CONNECTIONS_PER_CLIENT; i++) {
            probes.add(connect("127.0.0.4", server.probesPort()));
        }
        for (RawClient probe : probes) {
            probe.send(GET_HEALTH);
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> probe.received().startsWith("HTTP/1.1 200 "));
        }

        RawClient holdingTooMany = connect("127.0.0.4", server.probesPort());

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(holdingTooMany::closedByServer);
        assertThat(holdingTooMany.received()).isEmpty();
        RawClient kubelet = connect("127.0.0.5", server.probesPort());
        kubelet.send(GET_HEALTH);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> kubelet.received().startsWith("HTTP/1.1 200 "));
    }

    @Test
    void shouldCloseAConnectionThatDribblesItsHeadersPastTheHeaderTimeout() throws Exception {
        start(TestLimits.slowClients(ClientLimits.DEFAULT_MIN_REQUEST_DATA_RATE,
                Duration.ofSeconds(1)));
        RawClient dribbler = connect("127.0.0.5");
        dribbler.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
        long startedAt = System.nanoTime();

        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> !dribbler.send("x") || dribbler.closedByServer());

        Awaitility.await().atMost(Duration.ofSeconds(2)).until(dribbler::closedByServer);
        assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).isBetween(Duration.ofMillis(900),
                Duration.ofSeconds(4));
        assertThat(dribbler.received()).isEmpty();
    }

    @Test
    void shouldLeaveAnIdleKeptAliveConnectionToTheIdleTimeoutAndServeItsNextRequest() throws Exception {
        start(TestLimits.slowClients(ClientLimits.DEFAULT_MIN_REQUEST_DATA_RATE,
                Duration.ofMillis(500)));
        RawClient client = connect("127.0.0.6");
        client.send(GET_HEALTH);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> client.received().contains("\"UP\""));

        Awaitility.await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3))
                .until(() -> !client.closedByServer());

        int answered = client.received().length();
        client.send(GET_HEALTH);
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> client.received().substring(answered).startsWith("HTTP/1.1 200 "));
    }

    /** 600 bytes in pieces of 30 every 150 ms: 200 bytes/s for 3 seconds, twice the minimum. */
    @Test
    void shouldAcceptABodyThatArrivesSlowlyButAboveTheMinimumRate() throws Exception {
        start(TestLimits.slowClients(100, ClientLimits.DEFAULT_HEADER_TIMEOUT));
        RawClient client = connect("127.0.0.7");
        String body = "{\"type\":\"CHECKPOINT\"}" + " ".repeat(579);
        client.send(RawClient.postHead(body.length(), TestTokens.OPS));
        long startedAt = System.nanoTime();
        for (int piece = 0; piece * 30 < body.length(); piece++) {
            long due = startedAt + Duration.ofMillis(150L * piece).toNanos();
            Awaitility.await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                    .until(() -> System.nanoTime() >= due);
            client.send(body.substring(piece * 30, Math.min(body.length(), piece * 30 + 30)));
        }

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> client.received().startsWith("HTTP/1.1 "));
        assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).isGreaterThan(ClientLimits.BODY_RATE_GRACE);
        assertThat(client.received()).doesNotStartWith("HTTP/1.1 408").startsWith("HTTP/1.1 503 ");
    }

    @Test
    void shouldServeOnlyTheProbePathsOnTheProbesPort() throws Exception {
        start(ClientLimits.DEFAULTS);
        RawClient probe = connect("127.0.0.8", server.probesPort());

        probe.send("GET /jobs/job-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> probe.received().contains("}"));
        assertThat(probe.received()).startsWith("HTTP/1.1 404 ").contains("the probes port serves only /health");
        int answered = probe.received().length();
        probe.send("GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> probe.received().substring(answered).startsWith("HTTP/1.1 200 "));
    }

    private void start(ClientLimits limits) {
        server = QueryServer.bind(QueryServerConfig.loopback().withProbesPort(0).withLimits(limits)
                .withAccess(TestTokens.mutations()));
        server.start(new FixedStateSource(new JobLocation.Unavailable("no state in this test")),
                new AlwaysUp(), (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    /**
     * Whether a new connection from {@code source} is answered 200 (false when the server closes it first, as it
     * does while it has not yet seen that one of the source's connections closed).
     */
    private boolean served(String source) throws IOException {
        RawClient client = connect(source);
        client.send(GET_HEALTH);
        Awaitility.await().atMost(Duration.ofSeconds(2))
                .until(() -> client.received().startsWith("HTTP/1.1 200 ") || client.closedByServer());
        return client.received().startsWith("HTTP/1.1 200 ");
    }

    private RawClient connect(String source) throws IOException {
        return connect(source, server.port());
    }

    private RawClient connect(String source, int port) throws IOException {
        RawClient client = RawClient.connect(source, port);
        clients.add(client);
        return client;
    }
}
