package dev.cairn.coordinator.streams;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.RequestEnvelope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream task whose stores are not of this release's layout rebuilds them from its journal partition before it
 * decides anything: the stores equal those of the coordinator that wrote the journal, the pending checkpoint and the
 * queued request go on, ids continue, and inputs the journal already reflects are not decided twice. Each driver
 * here is a new application: its inputs start at offset 0 again, as a new consumer group reads them from the
 * beginning.
 */
class StoreRebuildTopologyTest {

    static final String JOB = "job";
    /** The stores a rebuild must reproduce exactly; timers are rebuilt as due ticks and are compared apart. */
    private static final List<String> COMPARED = CoordinatorStores.REBUILT.stream()
            .filter(name -> !name.equals(CoordinatorStores.TIMERS))
            .toList();

    @TempDir
    Path first;
    @TempDir
    Path second;

    @Test
    void shouldRebuildEveryStoreFromTheJournalAndGoOnWhereTheWriterLeft() {
        List<TestRecord<String, byte[]>> journal;
        Map<String, Map<Object, Object>> before;
        try (CoordinatorDriver writer = CoordinatorDriver.start(first)) {
            runUntilOnePendingAndOneQueued(writer);
            journal = writer.rawJournal().readRecordsToList();
            before = contents(writer);
        }

        try (CoordinatorDriver rebuilt = CoordinatorDriver.on(second).rebuildingFrom(source(journal)).start()) {
            assertThat(contents(rebuilt)).isEqualTo(before);
            assertThat(StoreLayout.recorded(timers(rebuilt))).contains(StoreLayout.CURRENT);
            assertThat(StoreLayout.inputPositions(timers(rebuilt))).containsOnlyKeys(
                    CoordinatorDriver.TOPICS.requests(), CoordinatorDriver.TOPICS.acks());
            sendTheInputsOf(rebuilt);

            rebuilt.ack(JOB, 2, "source", 1, 10);
            rebuilt.ack(JOB, 2, "sink", 0, 10);

            assertWentOnWhereTheWriterLeft(rebuilt);
        }
    }

    @Test
    void shouldSkipInputsTheJournalAlreadyReflectsWhenTheyAreReadAgain() {
        List<TestRecord<String, byte[]>> journal;
        try (CoordinatorDriver writer = CoordinatorDriver.start(first)) {
            runUntilOnePendingAndOneQueued(writer);
            journal = writer.rawJournal().readRecordsToList();
        }

        try (CoordinatorDriver rebuilt = CoordinatorDriver.on(second).rebuildingFrom(source(journal)).start()) {
            Map<String, Map<Object, Object>> afterRebuild = contents(rebuilt);
            sendTheInputsOf(rebuilt);

            assertThat(rebuilt.journal().readValuesToList()).as("nothing decided twice").isEmpty();
            assertThat(contents(rebuilt)).isEqualTo(afterRebuild);
        }
    }

    @Test
    void shouldFoldNothingAndFailNamingThePartitionAndItsFirstOffsetWhenTheJournalsHeadWasDeleted() {
        List<TestRecord<String, byte[]>> journal;
        try (CoordinatorDriver writer = CoordinatorDriver.start(first)) {
            runUntilOnePendingAndOneQueued(writer);
            journal = writer.rawJournal().readRecordsToList();
        }
        List<Long> folded = new ArrayList<>();
        JournalSource headDeleted = (configs, topic, partition, fromOffset, sink) -> {
            sink.start(3);
            sink.end(journal.size());
            for (int offset = 3; offset < journal.size(); offset++) {
                folded.add((long) offset);
                sink.accept(offset, journal.get(offset).headers(), journal.get(offset).value());
            }
        };

        Throwable failure = catchThrowable(() -> CoordinatorDriver.on(second).rebuildingFrom(headDeleted).start()
                .close());

        assertThat(JournalHeadDeletedException.in(failure)).as("the rebuild fails, whatever wraps it")
                .hasValueSatisfying(deleted -> {
                    assertThat(deleted.partition()).isZero();
                    assertThat(deleted.firstOffset()).isEqualTo(3);
                    assertThat(deleted).hasMessageStartingWith("Cannot rebuild the stores of partition 0 from "
                            + CoordinatorDriver.TOPICS.journal() + ": the partition's first offset is 3, so its "
                            + "records at offsets 0 to 2 were deleted (by retention, compaction or "
                            + "kafka-delete-records.sh) and no snapshot holds them, and a fold of the rest would "
                            + "silently lose the jobs whose history they held. Nothing was folded");
                });
        assertThat(folded).as("no record of the partition folded").isEmpty();
    }

    @Test
    void shouldNameTheInputOfEveryJournalRecordDecidedOnOneAndNoneForTimers() {
        try (CoordinatorDriver writer = CoordinatorDriver.start(first)) {
            writer.register(spec(JOB, task("source", 1)));
            writer.startTask(JOB, "source", 0);
            writer.nextTrigger();

            List<TestRecord<String, byte[]>> journal = writer.rawJournal().readRecordsToList();

            assertThat(journal).hasSizeGreaterThanOrEqualTo(3);
            assertThat(header(journal.get(0), StoreLayout.INPUT_TOPIC)).isEqualTo(CoordinatorDriver.TOPICS.requests());
            assertThat(header(journal.get(0), StoreLayout.INPUT_OFFSET)).isEqualTo("0");
            TestRecord<String, byte[]> started = journal.stream()
                    .filter(r -> CoordinatorDriver.TOPICS.acks().equals(header(r, StoreLayout.INPUT_TOPIC)))
                    .findFirst().orElseThrow();
            assertThat(header(started, StoreLayout.INPUT_OFFSET)).isEqualTo("0");
            assertThat(journal.get(journal.size() - 1).headers().toArray()).as("the trigger, decided on a tick")
                    .isEmpty();
        }
    }

    @Test
    void shouldFindNothingToRebuildInAnEmptyJournalAndRecordTheLayout() {
        try (CoordinatorDriver fresh = CoordinatorDriver.start(first)) {
            KeyValueStore<Bytes, Bytes> timers = timers(fresh);

            assertThat(StoreLayout.recorded(timers)).contains(StoreLayout.CURRENT);
            assertThat(StoreLayout.rebuildReason(timers)).isEmpty();
            assertThat(StoreLayout.inputPositions(timers)).isEmpty();
            assertThat(contents(fresh).values()).allSatisfy(store -> assertThat(store).isEmpty());
        }
    }

    @Test
    void shouldAskForARebuildWhenTheStoresRecordAnotherLayoutOrNone() {
        try (CoordinatorDriver fresh = CoordinatorDriver.start(first)) {
            KeyValueStore<Bytes, Bytes> timers = timers(fresh);

            StoreLayout.recordLayout(timers, StoreLayout.CURRENT + 1);
            assertThat(StoreLayout.rebuildReason(timers)).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("layout " + (StoreLayout.CURRENT + 1)));
            timers.delete(TimerKeys.timer(StoreLayout.NEVER, StoreLayout.LAYOUT_KEY));
            assertThat(StoreLayout.rebuildReason(timers)).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("record no layout"));
        }
    }

    /**
     * Checkpoint 1 completes; checkpoint 2 waits for two of its three acks; a manual request waits in the queue
     * behind it (one checkpoint at a time).
     */
    static void runUntilOnePendingAndOneQueued(CoordinatorDriver driver) {
        driver.register(spec(JOB, task("source", 2), task("sink", 1)));
        startTasks(driver);
        assertThat(driver.nextTrigger().getCheckpointId()).isEqualTo(1);
        ackFirst(driver);
        assertThat(driver.nextTrigger().getCheckpointId()).isEqualTo(2);
        driver.ack(JOB, 2, "source", 0, 10);
        driver.send(JOB, new RequestEnvelope(Events.triggerRequest(JOB, "manual-1").setTimestampMs(driver.now())
                .build()));
        driver.advance(Duration.ofMillis(200));
    }

    /**
     * After {@link #runUntilOnePendingAndOneQueued} and the last two acks of checkpoint 2: it completed, and the queued
     * request ran with the next id.
     */
    static void assertWentOnWhereTheWriterLeft(CoordinatorDriver rebuilt) {
        List<Object> control = rebuilt.control().readValuesToList().stream().map(ControlEnvelope::getEvent).toList();
        assertThat(control).filteredOn(CheckpointCompleted.class::isInstance)
                .extracting(e -> ((CheckpointCompleted) e).getCheckpointId()).containsExactly(2L);
        assertThat(control).filteredOn(CheckpointTriggered.class::isInstance)
                .as("the queued request runs once the pending checkpoint completed, with the next id")
                .extracting(e -> ((CheckpointTriggered) e).getCheckpointId()).containsExactly(3L);
    }

    /** The inputs of {@link #runUntilOnePendingAndOneQueued}, in order, as a consumer reading them again sees them. */
    static void sendTheInputsOf(CoordinatorDriver driver) {
        driver.register(spec(JOB, task("source", 2), task("sink", 1)));
        startTasks(driver);
        ackFirst(driver);
        driver.ack(JOB, 2, "source", 0, 10);
        driver.send(JOB, new RequestEnvelope(Events.triggerRequest(JOB, "manual-1").setTimestampMs(driver.now())
                .build()));
    }

    private static void startTasks(CoordinatorDriver driver) {
        driver.startTask(JOB, "source", 0);
        driver.startTask(JOB, "source", 1);
        driver.startTask(JOB, "sink", 0);
    }

    private static void ackFirst(CoordinatorDriver driver) {
        driver.ack(JOB, 1, "source", 0, 10);
        driver.ack(JOB, 1, "source", 1, 10);
        driver.ack(JOB, 1, "sink", 0, 10);
    }

    static JournalSource source(List<TestRecord<String, byte[]>> journal) {
        return (configs, topic, partition, fromOffset, sink) -> {
            sink.end(journal.size());
            for (int offset = (int) fromOffset; offset < journal.size(); offset++) {
                sink.accept(offset, journal.get(offset).headers(), journal.get(offset).value());
            }
        };
    }

    /** Every compared store's entries, byte-array values wrapped so that they compare by content. */
    static Map<String, Map<Object, Object>> contents(CoordinatorDriver driver) {
        Map<String, Map<Object, Object>> contents = new HashMap<>();
        for (String name : COMPARED) {
            Map<Object, Object> entries = new HashMap<>();
            KeyValueStore<Object, Object> store = driver.driver().getKeyValueStore(name);
            try (KeyValueIterator<Object, Object> it = store.all()) {
                List<KeyValue<Object, Object>> all = new ArrayList<>();
                it.forEachRemaining(all::add);
                all.forEach(e -> entries.put(e.key, e.value instanceof byte[] bytes ? Bytes.wrap(bytes) : e.value));
            }
            contents.put(name, entries);
        }
        return contents;
    }

    static KeyValueStore<Bytes, Bytes> timers(CoordinatorDriver driver) {
        return driver.driver().getKeyValueStore(CoordinatorStores.TIMERS);
    }

    @Test
    void shouldNeverFireTheLayoutEntriesOfTheTimerIndex() {
        try (CoordinatorDriver fresh = CoordinatorDriver.start(first)) {
            fresh.register(spec(JOB, task("source", 1)));
            fresh.startTask(JOB, "source", 0);
            fresh.nextTrigger();
            fresh.advance(Duration.ofSeconds(5));

            assertThat(StoreLayout.recorded(timers(fresh))).contains(StoreLayout.CURRENT);
            assertThat(StoreLayout.inputPositions(timers(fresh))).isEmpty();
        }
    }

    private static String header(TestRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
