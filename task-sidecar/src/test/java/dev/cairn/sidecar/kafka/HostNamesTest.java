package dev.cairn.sidecar.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The machine's name a task sidecar announces when no {@code host} is configured. */
class HostNamesTest {

    @Test
    void shouldTakeTheHostnameVariableFirstThenTheMachinesName() {
        assertThat(HostNames.local(Map.of("HOSTNAME", "orders-sink-2"), () -> "ip-10-0-0-7"))
                .isEqualTo("orders-sink-2");
        assertThat(HostNames.local(Map.of(), () -> "ip-10-0-0-7")).isEqualTo("ip-10-0-0-7");
    }

    @Test
    void shouldNameNoHostRatherThanOneTheCoordinatorWouldRefuse() {
        assertThat(HostNames.local(Map.of("HOSTNAME", " "), () -> "ip-10-0-0-7")).isEqualTo("ip-10-0-0-7");
        assertThat(HostNames.local(Map.of("HOSTNAME", "a b"), () -> "x".repeat(257))).isNull();
        assertThat(HostNames.local(Map.of(), () -> null)).isNull();
    }

    @Test
    void shouldKeepAConfiguredHostOverTheMachinesName() {
        assertThat(HostNames.orLocal("configured-host")).isEqualTo("configured-host");
    }
}
