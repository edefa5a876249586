package dev.cairn.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pipeline.InputEvents;
import org.junit.jupiter.api.Test;

class LatenciesTest {

    @Test
    void shouldMatchTheNthResultOfAKeyToTheNthEventOfThatKey() {
        int keys = 3;
        long events = 10;
        // events 0..9: k0 k1 k2 k0 k1 k2 k0 k1 k2 k0
        for (int i = 0; i < events; i++) {
            String key = InputEvents.keyOf(i, keys);
            long count = i / keys + 1;
            assertThat(Latencies.eventIndex(key, Long.toString(count), keys, events)).as("event %d", i).isEqualTo(i);
        }
        assertThat(Latencies.eventIndex("k0", "4", keys, events)).isEqualTo(9);
    }

    @Test
    void shouldMatchNothingThatIsNotAResultOfTheInput() {
        assertThat(Latencies.eventIndex("k1", "4", 3, 10)).as("k1 has 3 events").isEqualTo(-1);
        assertThat(Latencies.eventIndex("k3", "1", 3, 10)).as("no such key").isEqualTo(-1);
        assertThat(Latencies.eventIndex("k01", "1", 3, 10)).as("not a key of the input").isEqualTo(-1);
        assertThat(Latencies.eventIndex("x1", "1", 3, 10)).isEqualTo(-1);
        assertThat(Latencies.eventIndex("k1", "0", 3, 10)).as("counts start at 1").isEqualTo(-1);
        assertThat(Latencies.eventIndex("k1", "two", 3, 10)).isEqualTo(-1);
        assertThat(Latencies.eventIndex(null, "1", 3, 10)).isEqualTo(-1);
        assertThat(Latencies.eventIndex("k1", null, 3, 10)).isEqualTo(-1);
    }

    @Test
    void shouldTakePercentilesByNearestRank() {
        long[] values = new long[100];
        for (int i = 0; i < values.length; i++) {
            values[i] = 100 - i; // 100 .. 1, unsorted on purpose
        }
        assertThat(Latencies.percentile(values, 50)).isEqualTo(50);
        assertThat(Latencies.percentile(values, 99)).isEqualTo(99);
        assertThat(Latencies.percentile(values, 100)).isEqualTo(100);
        assertThat(Latencies.percentile(values, 0.5)).isEqualTo(1);
        assertThat(Latencies.percentile(new long[] {7}, 99)).isEqualTo(7);
        assertThat(Latencies.percentile(new long[] {1, 2, 3}, 50)).isEqualTo(2);
        assertThat(Latencies.percentile(new long[0], 50)).isNaN();
        assertThat(values[0]).as("the input is left as it was").isEqualTo(100);
        assertThatThrownBy(() -> Latencies.percentile(values, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Latencies.percentile(values, 101)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldTakeTheMedianOfOddAndEvenCounts() {
        assertThat(Latencies.median(3, 1, 2)).isEqualTo(2);
        assertThat(Latencies.median(4, 1, 3, 2)).isEqualTo(2.5);
        assertThat(Latencies.median()).isNaN();
    }
}
