package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.internals.InMemoryKeyValueStore;
import org.junit.jupiter.api.Test;

class TimerKeysTest {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void shouldScanOnlyTheTimersDueByNow() {
        InMemoryKeyValueStore timers = new InMemoryKeyValueStore("timers");
        timers.put(TimerKeys.timer(NOW - 5, "early"), CoordinatorProcessor.NO_VALUE.get());
        timers.put(TimerKeys.timer(NOW, "due-now"), CoordinatorProcessor.NO_VALUE.get());
        timers.put(TimerKeys.timer(NOW + 1, "next-ms"), CoordinatorProcessor.NO_VALUE.get());
        timers.put(TimerKeys.timer(StoreLayout.NEVER, "layout"), CoordinatorProcessor.NO_VALUE.get());

        List<String> due = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = timers.range(null, TimerKeys.dueBy(NOW))) {
            it.forEachRemaining(entry -> due.add(TimerKeys.timerJob(entry.key)));
        }

        assertThat(due).containsExactly("early", "due-now");
    }

    @Test
    void shouldOrderTimersBeforeAndAfterTheEpochByDueTime() {
        assertThat(TimerKeys.timer(-1, "b").compareTo(TimerKeys.timer(0, "a"))).isNegative();
        assertThat(TimerKeys.timer(0, "b").compareTo(TimerKeys.dueBy(0))).isNegative();
        assertThat(TimerKeys.dueBy(0).compareTo(TimerKeys.timer(1, ""))).isZero();
        assertThat(TimerKeys.timerDueAt(TimerKeys.timer(NOW, "job"))).isEqualTo(NOW);
    }
}
