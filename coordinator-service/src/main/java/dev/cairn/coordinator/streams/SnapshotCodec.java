package dev.cairn.coordinator.streams;

import dev.cairn.core.events.TimerIndex;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.SnapshotChunk;
import dev.cairn.events.SnapshotEntry;
import dev.cairn.events.SnapshotInput;
import dev.cairn.events.SnapshotManifest;
import dev.cairn.events.SnapshotTimer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;

/**
 * How a {@link Snapshot} is laid out on {@code cairn.snapshots}: its table entries and timers in chunks of about
 * {@code chunkBytes} each (key {@link #chunkKey}), then a manifest (key {@link #MANIFEST_KEY}) naming how many chunks
 * there are and where the first one is. A manifest is written only after all its chunks, and chunks are keyed by
 * the snapshot's journal offset, so a reader that finds a manifest finds a whole snapshot (the chunks of an older
 * one are removed only after a newer manifest). Entries keep the encoding of their table's store
 * ({@link StateTable#encode}), which is why a snapshot names its store layout.
 */
final class SnapshotCodec {

    /** The key of a partition's newest complete snapshot's manifest. */
    static final String MANIFEST_KEY = "manifest";
    private static final String CHUNK_PREFIX = "snapshot/";
    /** What an entry costs in a chunk besides its key and value bytes: the table name and Avro's lengths. */
    private static final int ENTRY_OVERHEAD = 32;
    private static final Map<String, StateTable<?, ?>> TABLES = StateTable.ALL.stream()
            .collect(Collectors.toMap(StateTable::store, Function.identity()));

    private SnapshotCodec() {
    }

    /** The key of chunk {@code chunk} of the snapshot at {@code journalOffset}. */
    static String chunkKey(long journalOffset, int chunk) {
        return chunkKeyPrefix(journalOffset) + chunk;
    }

    /** What the keys of every chunk of the snapshot at {@code journalOffset} begin with. */
    static String chunkKeyPrefix(long journalOffset) {
        return CHUNK_PREFIX + journalOffset + "/";
    }

    /** Whether {@code key} is a chunk's key, of any snapshot. */
    static boolean isChunkKey(String key) {
        return key != null && key.startsWith(CHUNK_PREFIX);
    }

    /** The snapshot's entries and timers in chunks of about {@code chunkBytes} each; at least one chunk. */
    static List<SnapshotChunk> chunks(Snapshot snapshot, int chunkBytes) {
        List<SnapshotChunk> chunks = new ArrayList<>();
        List<SnapshotEntry> entries = new ArrayList<>();
        long bytes = 0;
        for (StateTable<?, ?> table : StateTable.ALL) {
            for (SnapshotEntry entry : encoded(snapshot.state(), table)) {
                long size = entry.getKey().remaining() + entry.getValue().remaining() + ENTRY_OVERHEAD;
                if (!entries.isEmpty() && bytes + size > chunkBytes) {
                    chunks.add(chunk(snapshot, chunks.size(), entries, List.of()));
                    entries = new ArrayList<>();
                    bytes = 0;
                }
                entries.add(entry);
                bytes += size;
            }
        }
        List<SnapshotTimer> timers = new ArrayList<>();
        for (TimerIndex.Timer timer : snapshot.timers()) {
            long size = timer.jobId().length() * 3L + ENTRY_OVERHEAD;
            if (!(entries.isEmpty() && timers.isEmpty()) && bytes + size > chunkBytes) {
                chunks.add(chunk(snapshot, chunks.size(), entries, timers));
                entries = new ArrayList<>();
                timers = new ArrayList<>();
                bytes = 0;
            }
            timers.add(new SnapshotTimer(timer.jobId(), timer.dueAtMs()));
            bytes += size;
        }
        chunks.add(chunk(snapshot, chunks.size(), entries, timers));
        return chunks;
    }

    private static SnapshotChunk chunk(Snapshot snapshot, int index, List<SnapshotEntry> entries,
            List<SnapshotTimer> timers) {
        return new SnapshotChunk(snapshot.partition(), snapshot.journalOffset(), index, entries, timers);
    }

    private static <K, V extends SpecificRecord> List<SnapshotEntry> encoded(CoordinatorState state,
            StateTable<K, V> table) {
        List<SnapshotEntry> entries = new ArrayList<>();
        state.entries(table).forEach((key, value) -> entries.add(new SnapshotEntry(table.store(),
                ByteBuffer.wrap(table.keys().encode(key)), ByteBuffer.wrap(table.encode(value)))));
        return entries;
    }

    /** The manifest of {@code snapshot}, written as {@code chunks} chunks from {@code firstChunkOffset} on. */
    static SnapshotManifest manifest(Snapshot snapshot, List<SnapshotChunk> chunks, long firstChunkOffset) {
        List<SnapshotInput> inputs = snapshot.inputPositions().entrySet().stream()
                .map(input -> new SnapshotInput(input.getKey(), input.getValue())).toList();
        long entries = chunks.stream().mapToLong(chunk -> chunk.getEntries().size()).sum();
        return new SnapshotManifest(snapshot.partition(), snapshot.journalOffset(), snapshot.journalRecords(),
                snapshot.undecodable(), snapshot.createdAtMs(), snapshot.layout(), chunks.size(), entries,
                (long) snapshot.timers().size(), firstChunkOffset, inputs);
    }

    /**
     * The snapshot a manifest and its chunks hold.
     *
     * @param chunks the chunks read, by index (others than the manifest's are ignored)
     * @throws IllegalArgumentException when a chunk is missing, belongs to another snapshot or holds an entry of a
     *     table this release does not have
     */
    static Snapshot decode(SnapshotManifest manifest, Map<Integer, SnapshotChunk> chunks) {
        CoordinatorState state = CoordinatorState.inMemory();
        Set<TimerIndex.Timer> timers = new HashSet<>();
        for (int index = 0; index < manifest.getChunks(); index++) {
            SnapshotChunk chunk = chunks.get(index);
            if (chunk == null || chunk.getJournalOffset() != manifest.getJournalOffset()) {
                throw new IllegalArgumentException("chunk " + index + " of " + manifest.getChunks() + " of the "
                        + "snapshot at journal offset " + manifest.getJournalOffset() + " is missing");
            }
            for (SnapshotEntry entry : chunk.getEntries()) {
                StateTable<?, ?> table = TABLES.get(entry.getTable());
                if (table == null) {
                    throw new IllegalArgumentException("chunk " + index + " holds an entry of table "
                            + entry.getTable() + ", which this release does not have");
                }
                put(state, table, entry);
            }
            chunk.getTimers().forEach(timer -> timers.add(new TimerIndex.Timer(timer.getJobId(),
                    timer.getDueAtMs())));
        }
        Map<String, Long> inputs = new HashMap<>();
        manifest.getInputs().forEach(input -> inputs.put(input.getTopic(), input.getOffset()));
        return new Snapshot(manifest.getPartition(), manifest.getJournalOffset(), manifest.getJournalRecords(),
                manifest.getUndecodable(), manifest.getCreatedAtMs(), manifest.getLayout(), state, timers, inputs);
    }

    private static <K, V extends SpecificRecord> void put(CoordinatorState state, StateTable<K, V> table,
            SnapshotEntry entry) {
        state.put(table, table.keys().decode(bytes(entry.getKey())), table.decode(bytes(entry.getValue())));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }
}
