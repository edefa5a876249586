package dev.cairn.coordinator.streams;

import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.assertWentOnWhereTheWriterLeft;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.contents;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.runUntilOnePendingAndOneQueued;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.sendTheInputsOf;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.source;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.timers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cairn.core.contract.CoordinatorSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebuild starts from the partition's newest snapshot and folds only the journal after it: the stores equal those
 * of the coordinator that wrote the journal although the records before the snapshot were deleted, the inputs the
 * snapshot reflects are skipped, and the task goes on where the writer left; records deleted beyond the snapshot, or
 * a journal that ends before it (created again), fail the rebuild loudly.
 */
class SnapshotRebuildTopologyTest {

    private static final String JOURNAL = CoordinatorDriver.TOPICS.journal();

    @TempDir
    Path first;
    @TempDir
    Path second;

    @Test
    void shouldRebuildTheWritersStoresFromASnapshotAndTheJournalAfterItWhenTheRecordsBeforeItWereDeleted() {
        Written written = writeAJournal();
        List<TestRecord<String, byte[]>> journal = written.journal();
        Map<String, Map<Object, Object>> before = written.stores();
        int half = journal.size() / 2;
        MemorySnapshots snapshots = snapshotOf(journal.subList(0, half));
        List<Long> folded = new ArrayList<>();

        try (CoordinatorDriver rebuilt = CoordinatorDriver.on(second).rebuildingFrom(headDeleted(journal, half, folded))
                .snapshotsIn(snapshots).start()) {
            assertThat(contents(rebuilt)).isEqualTo(before);
            assertThat(StoreLayout.inputPositions(timers(rebuilt))).containsOnlyKeys(
                    CoordinatorDriver.TOPICS.requests(), CoordinatorDriver.TOPICS.acks());
            sendTheInputsOf(rebuilt);
            assertThat(rebuilt.journal().readValuesToList()).as("nothing decided twice").isEmpty();

            rebuilt.ack(StoreRebuildTopologyTest.JOB, 2, "source", 1, 10);
            rebuilt.ack(StoreRebuildTopologyTest.JOB, 2, "sink", 0, 10);

            assertWentOnWhereTheWriterLeft(rebuilt);
        }
        assertThat(folded).as("only the journal after the snapshot read").first().isEqualTo((long) half);
    }

    @Test
    void shouldRebuildInTheBackgroundWhenTheSnapshotIsLargeWhateverTheJournalsLength() {
        Written written = writeAJournal();
        List<TestRecord<String, byte[]>> journal = written.journal();
        Map<String, Map<Object, Object>> before = written.stores();
        int half = journal.size() / 2;
        MemorySnapshots snapshots = snapshotOf(journal.subList(0, half))
                .takingRecords(StoreRebuild.INLINE_SNAPSHOT_RECORDS + 1);

        try (CoordinatorDriver rebuilt = CoordinatorDriver.on(second).rebuildingFrom(headDeleted(journal, half,
                new ArrayList<>())).snapshotsIn(snapshots).start()) {
            assertThat(StoreLayout.recorded(timers(rebuilt))).as("not rebuilt within the task's initialisation")
                    .isEmpty();

            BackgroundRebuildTopologyTest.awaitCaughtUp(rebuilt);

            assertThat(contents(rebuilt)).isEqualTo(before);
        }
    }

    @Test
    void shouldFailLoudlyWhenRecordsAfterTheSnapshotWereDeleted() {
        List<TestRecord<String, byte[]>> journal = writeAJournal().journal();
        int third = journal.size() / 3;
        MemorySnapshots snapshots = snapshotOf(journal.subList(0, third));
        List<Long> folded = new ArrayList<>();

        Throwable failure = catchThrowable(() -> CoordinatorDriver.on(second)
                .rebuildingFrom(headDeleted(journal, third + 2, folded)).snapshotsIn(snapshots).start().close());

        assertThat(JournalHeadDeletedException.in(failure)).hasValueSatisfying(deleted -> assertThat(deleted)
                .hasMessageContaining("its records at offsets " + third + " to " + (third + 1) + " were deleted (by "
                        + "retention, compaction or kafka-delete-records.sh) after the newest snapshot (at offset "
                        + third + ")"));
        assertThat(folded).as("nothing folded").isEmpty();
    }

    @Test
    void shouldFailLoudlyWhenTheJournalEndsBeforeTheSnapshot() {
        List<TestRecord<String, byte[]>> journal = writeAJournal().journal();
        MemorySnapshots snapshots = snapshotOf(journal);
        List<TestRecord<String, byte[]>> recreated = journal.subList(0, 3);

        Throwable failure = catchThrowable(() -> CoordinatorDriver.on(second).rebuildingFrom(source(recreated))
                .snapshotsIn(snapshots).start().close());

        assertThat(JournalHeadDeletedException.in(failure)).hasValueSatisfying(behind -> assertThat(behind)
                .hasMessageContaining("the partition ends at offset 3, before the newest snapshot of it (at offset "
                        + journal.size() + "), so the journal was deleted and created again after the snapshot, or "
                        + "lost records it reflects"));
    }

    /** What a coordinator wrote and held after {@link StoreRebuildTopologyTest#runUntilOnePendingAndOneQueued}. */
    private record Written(List<TestRecord<String, byte[]>> journal, Map<String, Map<Object, Object>> stores) {
    }

    private Written writeAJournal() {
        try (CoordinatorDriver writer = CoordinatorDriver.start(first)) {
            runUntilOnePendingAndOneQueued(writer);
            return new Written(writer.rawJournal().readRecordsToList(), contents(writer));
        }
    }

    /** A snapshot store holding the fold of {@code records}, the journal's first ones. */
    private static MemorySnapshots snapshotOf(List<TestRecord<String, byte[]>> records) {
        MemorySnapshots snapshots = new MemorySnapshots();
        StoreRebuild rebuild = new StoreRebuild(CoordinatorSettings.DEFAULTS, source(records), snapshots,
                DecisionListener.NONE);
        StoreRebuild.Folded fold = rebuild.foldForSnapshot(Map.of(), JOURNAL, 0,
                CoordinatorDriver.START.toEpochMilli(), () -> false);
        snapshots.write(Map.of(), JOURNAL, fold.snapshot());
        assertThat(snapshots.manifest().getJournalOffset()).isEqualTo(records.size());
        assertThat(snapshots.manifest().getChunks()).as("several chunks").isGreaterThan(1);
        return snapshots;
    }

    /** The journal with its records before {@code first} deleted; the offsets read go to {@code folded}. */
    private static JournalSource headDeleted(List<TestRecord<String, byte[]>> journal, int first, List<Long> folded) {
        return (configs, topic, partition, fromOffset, sink) -> {
            sink.start(first);
            sink.end(journal.size());
            for (int offset = (int) Math.max(first, fromOffset); offset < journal.size(); offset++) {
                folded.add((long) offset);
                sink.accept(offset, journal.get(offset).headers(), journal.get(offset).value());
            }
        };
    }
}
