package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.SnapshotChunk;
import dev.cairn.events.SnapshotEntry;
import dev.cairn.events.SnapshotManifest;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a snapshot is split into chunks and a manifest, and read back; what a reader refuses. */
class SnapshotCodecTest {

    private static Snapshot snapshot;

    @BeforeAll
    static void foldAJournal(@TempDir Path dir) {
        try (CoordinatorDriver writer = CoordinatorDriver.start(dir)) {
            StoreRebuildTopologyTest.runUntilOnePendingAndOneQueued(writer);
            StoreRebuild rebuild = new StoreRebuild(CoordinatorSettings.DEFAULTS,
                    StoreRebuildTopologyTest.source(writer.rawJournal().readRecordsToList()), DecisionListener.NONE);
            snapshot = rebuild.foldForSnapshot(Map.of(), CoordinatorDriver.TOPICS.journal(), 0,
                    CoordinatorDriver.START.toEpochMilli(), () -> false).snapshot();
        }
    }

    @Test
    void shouldReadBackEveryEntryTimerAndInputPositionWhenSplitIntoChunks() {
        List<SnapshotChunk> chunks = SnapshotCodec.chunks(snapshot, 200);
        SnapshotManifest manifest = SnapshotCodec.manifest(snapshot, chunks, 42);

        Snapshot read = SnapshotCodec.decode(manifest, byIndex(chunks));

        assertThat(chunks).hasSizeGreaterThan(2);
        assertThat(manifest.getFirstChunkOffset()).isEqualTo(42);
        assertThat(manifest.getChunks()).isEqualTo(chunks.size());
        for (StateTable<?, ?> table : StateTable.ALL) {
            assertThat(encoded(read, table)).as(table.store()).isEqualTo(encoded(snapshot, table));
        }
        assertThat(encoded(snapshot, StateTable.ACKS)).as("acks are in the snapshot").isNotEmpty();
        assertThat(read.timers()).isEqualTo(snapshot.timers()).isNotEmpty();
        assertThat(read.inputPositions()).isEqualTo(snapshot.inputPositions()).isNotEmpty();
        assertThat(read.journalOffset()).isEqualTo(snapshot.journalOffset());
        assertThat(read.journalRecords()).isEqualTo(snapshot.journalRecords()).isEqualTo(snapshot.journalOffset());
        assertThat(read.layout()).isEqualTo(StoreLayout.CURRENT);
    }

    @Test
    void shouldKeepOneChunkWhenTheStateFitsIt() {
        List<SnapshotChunk> chunks = SnapshotCodec.chunks(snapshot, KafkaSnapshotStore.CHUNK_BYTES);

        assertThat(chunks).singleElement().satisfies(chunk -> {
            assertThat(chunk.getChunk()).isZero();
            assertThat(chunk.getJournalOffset()).isEqualTo(snapshot.journalOffset());
        });
    }

    @Test
    void shouldRefuseASnapshotWithAMissingChunk() {
        List<SnapshotChunk> chunks = SnapshotCodec.chunks(snapshot, 200);
        Map<Integer, SnapshotChunk> missingOne = byIndex(chunks);
        missingOne.remove(1);

        assertThatThrownBy(() -> SnapshotCodec.decode(SnapshotCodec.manifest(snapshot, chunks, 0), missingOne))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("chunk 1 of " + chunks.size() + " of the snapshot at journal offset "
                        + snapshot.journalOffset() + " is missing");
    }

    @Test
    void shouldRefuseAChunkOfAnotherSnapshot() {
        List<SnapshotChunk> chunks = SnapshotCodec.chunks(snapshot, 200);
        Map<Integer, SnapshotChunk> mixed = byIndex(chunks);
        mixed.put(0, SnapshotChunk.newBuilder(chunks.get(0)).setJournalOffset(snapshot.journalOffset() - 1).build());

        assertThatThrownBy(() -> SnapshotCodec.decode(SnapshotCodec.manifest(snapshot, chunks, 0), mixed))
                .hasMessageContaining("chunk 0 of");
    }

    @Test
    void shouldRefuseAnEntryOfATableThisReleaseDoesNotHave() {
        List<SnapshotChunk> chunks = SnapshotCodec.chunks(snapshot, KafkaSnapshotStore.CHUNK_BYTES);
        SnapshotChunk withUnknown = SnapshotChunk.newBuilder(chunks.get(0)).setEntries(List.of(new SnapshotEntry(
                "cairn-future", ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {2})))).build();

        assertThatThrownBy(() -> SnapshotCodec.decode(SnapshotCodec.manifest(snapshot, chunks, 0),
                Map.of(0, withUnknown))).hasMessage("chunk 0 holds an entry of table cairn-future, which this release "
                        + "does not have");
    }

    @Test
    void shouldTellChunkKeysFromTheManifestKey() {
        assertThat(SnapshotCodec.chunkKey(17, 3)).isEqualTo("snapshot/17/3");
        assertThat(SnapshotCodec.isChunkKey("snapshot/17/3")).isTrue();
        assertThat(SnapshotCodec.isChunkKey(SnapshotCodec.MANIFEST_KEY)).isFalse();
        assertThat(SnapshotCodec.isChunkKey(null)).isFalse();
    }

    private static Map<Integer, SnapshotChunk> byIndex(List<SnapshotChunk> chunks) {
        Map<Integer, SnapshotChunk> byIndex = new HashMap<>();
        chunks.forEach(chunk -> byIndex.put(chunk.getChunk(), chunk));
        return byIndex;
    }

    /** A table's entries as their store bytes, comparable by content. */
    private static <K, V extends org.apache.avro.specific.SpecificRecord> Map<Bytes, Bytes> encoded(Snapshot of,
            StateTable<K, V> table) {
        Map<Bytes, Bytes> entries = new HashMap<>();
        of.state().entries(table).forEach((key, value) -> entries.put(Bytes.wrap(table.keys().encode(key)),
                Bytes.wrap(table.encode(value))));
        return entries;
    }
}
