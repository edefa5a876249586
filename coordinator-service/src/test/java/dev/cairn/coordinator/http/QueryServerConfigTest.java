package dev.cairn.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Where the REST API listens and what it advertises as Kafka Streams' application.server. */
class QueryServerConfigTest {

    @Test
    void shouldAdvertiseTheBindAddressWhenListeningOnOneInterface() {
        assertThat(QueryServerConfig.of("127.0.0.1", 8081, null).advertisedHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void shouldAdvertiseTheHostNameWhenListeningOnEveryInterface() {
        assertThat(QueryServerConfig.of("0.0.0.0", 8081, " ").advertisedHost()).isNotBlank().isNotEqualTo("0.0.0.0");
    }

    @Test
    void shouldAdvertiseTheHostItIsGiven() {
        assertThat(QueryServerConfig.of("0.0.0.0", 8081, "coordinator-2.cairn").advertisedHost())
                .isEqualTo("coordinator-2.cairn");
    }

    @Test
    void shouldRefuseAPortOutOfRange() {
        assertThatThrownBy(() -> new QueryServerConfig("0.0.0.0", 70_000, "h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("http-port must be in 0..65535 (0 picks a free port), was 70000");
    }

    @Test
    void shouldAdvertiseThePortActuallyBoundWhenAskedForAnyFreePort() {
        try (QueryServer server = QueryServer.bind(QueryServerConfig.loopback())) {
            assertThat(server.port()).isPositive();
            assertThat(server.applicationServer()).isEqualTo("127.0.0.1:" + server.port());
            assertThat(server.uri()).hasToString("http://127.0.0.1:" + server.port());
        }
    }

    @Test
    void shouldNameTheAddressThatCannotBeBound() {
        try (QueryServer taken = QueryServer.bind(QueryServerConfig.loopback())) {
            QueryServerConfig same = new QueryServerConfig("127.0.0.1", taken.port(), "127.0.0.1");

            assertThatThrownBy(() -> QueryServer.bind(same))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageStartingWith("cannot bind the REST API to 127.0.0.1:" + taken.port());
        }
    }

    @Test
    void shouldRefuseAProbesPortOutOfRangeOrEqualToTheApiPort() {
        QueryServerConfig config = new QueryServerConfig("127.0.0.1", 8081, "h");

        assertThatThrownBy(() -> config.withProbesPort(-2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("http-probes-port must be in -1..65535 (-1: none, 0 picks a free port), was -2");
        assertThatThrownBy(() -> config.withProbesPort(8081)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("http-probes-port must differ from http-port (8081)");
        assertThat(QueryServerConfig.loopback().withProbesPort(0).probesPort()).isZero();
    }

    @Test
    void shouldRefuseClientLimitsOutOfRangeNamingTheSetting() {
        assertThatThrownBy(() -> TestLimits.perClient(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("http-max-connections-per-client must be 0 (no cap) or positive, was -1");
        assertThatThrownBy(() -> TestLimits.slowClients(-5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("http-min-request-data-rate must be 0 (no minimum) or positive, was -5");
        assertThatThrownBy(() -> TestLimits.slowClients(0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("http-header-timeout-ms must be positive, was 0");
    }

    @Test
    void shouldNameTheProbesAddressThatCannotBeBoundAndReleaseTheApiPort() {
        try (QueryServer taken = QueryServer.bind(QueryServerConfig.loopback())) {
            QueryServer api = QueryServer.bind(QueryServerConfig.loopback());
            int apiPort = api.port();
            api.close();
            QueryServerConfig clash = new QueryServerConfig("127.0.0.1", apiPort, "127.0.0.1")
                    .withProbesPort(taken.port());

            assertThatThrownBy(() -> QueryServer.bind(clash))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageStartingWith("cannot bind the REST probes to 127.0.0.1:" + taken.port());
            try (QueryServer again = QueryServer.bind(new QueryServerConfig("127.0.0.1", apiPort, "127.0.0.1"))) {
                assertThat(again.port()).isEqualTo(apiPort);
            }
        }
    }
}
