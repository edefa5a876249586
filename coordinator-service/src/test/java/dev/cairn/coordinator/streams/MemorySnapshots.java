package dev.cairn.coordinator.streams;

import dev.cairn.events.SnapshotChunk;
import dev.cairn.events.SnapshotManifest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A snapshot store in memory that keeps a partition's newest snapshot as {@link KafkaSnapshotStore} lays it out (its
 * chunks, small here so that a snapshot has several, and its manifest), and decodes it anew for every reader.
 */
final class MemorySnapshots implements SnapshotStore {

    /** Small chunks: a test state spans several. */
    static final int CHUNK_BYTES = 300;

    private SnapshotManifest manifest;
    private final Map<Integer, SnapshotChunk> chunks = new HashMap<>();
    private long records;

    /** Tells rebuilds that the snapshots take {@code count} records ({@link SnapshotStore#records}); 0 by default. */
    MemorySnapshots takingRecords(long count) {
        this.records = count;
        return this;
    }

    @Override
    public long records(Map<String, Object> appConfigs, String journalTopic, int partition) {
        return records;
    }

    @Override
    public synchronized Optional<Snapshot> latest(Map<String, Object> appConfigs, String journalTopic,
            int partition) {
        return manifest == null ? Optional.empty() : Optional.of(SnapshotCodec.decode(manifest, chunks));
    }

    @Override
    public synchronized void write(Map<String, Object> appConfigs, String journalTopic, Snapshot snapshot) {
        List<SnapshotChunk> written = SnapshotCodec.chunks(snapshot, CHUNK_BYTES);
        chunks.clear();
        written.forEach(chunk -> chunks.put(chunk.getChunk(), chunk));
        manifest = SnapshotCodec.manifest(snapshot, written, 0);
    }

    /** The newest snapshot's manifest, {@code null} before the first. */
    synchronized SnapshotManifest manifest() {
        return manifest;
    }
}
