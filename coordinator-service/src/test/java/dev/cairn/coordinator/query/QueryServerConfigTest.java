package dev.cairn.coordinator.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
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
}
