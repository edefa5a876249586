package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inputs a task keeps while its stores are rebuilt, in its timer index (a test driver's). */
class RebuildBacklogTest {

    @TempDir
    Path dir;
    private CoordinatorDriver driver;
    private KeyValueStore<Bytes, Bytes> timers;

    @BeforeEach
    void start() {
        driver = CoordinatorDriver.start(dir);
        timers = driver.driver().getKeyValueStore(CoordinatorStores.TIMERS);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void shouldHandBackTheKeptInputsInTheOrderTheyCameEvenAfterATaskRestart() {
        RebuildBacklog backlog = RebuildBacklog.in(timers);
        AckEnvelope ack = new AckEnvelope(Events.ack("j", 1, "t", 0, "a-0").setTimestampMs(5).build());
        RequestEnvelope request = new RequestEnvelope(Events.triggerRequest("j", "r-1").setTimestampMs(6).build());
        for (int i = 0; i < 12; i++) {
            backlog.append(new RebuildBacklog.Entry("cairn.acks", 0, i, "j", ack, 5), 5, "j", ack);
        }
        backlog.append(new RebuildBacklog.Entry("cairn.requests", 0, 40, "j", request, 7), 7, "j", request);
        assertThat(backlog.take()).hasValueSatisfying(entry -> assertThat(entry.offset()).isZero());

        RebuildBacklog restarted = RebuildBacklog.in(timers);

        assertThat(restarted.size()).isEqualTo(12);
        for (long offset = 1; offset < 12; offset++) {
            Optional<RebuildBacklog.Entry> entry = restarted.take();
            assertThat(entry).hasValueSatisfying(e -> assertThat(e.envelope()).isEqualTo(ack));
            assertThat(entry.orElseThrow().offset()).isEqualTo(offset);
        }
        RebuildBacklog.Entry last = restarted.take().orElseThrow();
        assertThat(last).isEqualTo(new RebuildBacklog.Entry("cairn.requests", 0, 40, "j", request, 7));
        assertThat(restarted.isEmpty()).isTrue();
        assertThat(restarted.take()).isEmpty();
    }

    @Test
    void shouldKeepItsEntriesApartFromTimersAndLayoutEntries() {
        RebuildBacklog backlog = RebuildBacklog.in(timers);
        AckEnvelope ack = new AckEnvelope(Events.ack("j", 1, "t", 0, "a-0").setTimestampMs(5).build());
        backlog.append(new RebuildBacklog.Entry("cairn.acks", 0, 3, "j", ack, 5), 5, "j", ack);
        timers.put(TimerKeys.timer(1_000, "j"), CoordinatorProcessor.NO_VALUE);
        StoreLayout.recordLayout(timers, StoreLayout.CURRENT);

        assertThat(RebuildBacklog.isEntry(TimerKeys.timer(1_000, "j"))).isFalse();
        assertThat(RebuildBacklog.isEntry(TimerKeys.timer(StoreLayout.NEVER, StoreLayout.LAYOUT_KEY))).isFalse();
        assertThat(RebuildBacklog.entries(timers)).hasSize(1);
        assertThat(StoreLayout.recorded(timers)).contains(StoreLayout.CURRENT);
        try (var due = timers.range(null, TimerKeys.dueBy(Long.MAX_VALUE - 2))) {
            assertThat(due.hasNext()).isTrue();
            assertThat(TimerKeys.timerJob(due.next().key)).isEqualTo("j");
            assertThat(due.hasNext()).as("no tick ever reaches a kept input").isFalse();
        }
    }
}
