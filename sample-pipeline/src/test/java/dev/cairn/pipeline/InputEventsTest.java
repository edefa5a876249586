package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class InputEventsTest {

    @Test
    void shouldGiveEveryKeyItsShareOfTheEventsWithTheRemainderToTheFirstKeys() {
        assertThat(new InputEvents(10, 4).expectedCounts()).containsExactly(Map.entry("k0", 3L),
                Map.entry("k1", 3L), Map.entry("k2", 2L), Map.entry("k3", 2L));
    }

    @Test
    void shouldExpectOnlyTheKeysThatHaveEvents() {
        assertThat(new InputEvents(2, 5).expectedCounts()).containsOnlyKeys("k0", "k1");
    }

    @Test
    void shouldKeyEventIByIModuloTheKeys() {
        assertThat(InputEvents.keyOf(1_234, 1_000)).isEqualTo("k234");
    }

    @Test
    void shouldRefuseAnInputWithoutKeys() {
        assertThatThrownBy(() -> new InputEvents(10, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 or more keys");
    }
}
