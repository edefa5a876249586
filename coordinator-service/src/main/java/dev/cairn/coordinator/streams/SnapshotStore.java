package dev.cairn.coordinator.streams;

import java.util.Map;
import java.util.Optional;

/**
 * Where the snapshots of the journal partitions' fold are kept ({@link KafkaSnapshotStore}: {@code cairn.snapshots},
 * partition {@code p} for journal partition {@code p}). A rebuild starts from the newest one of its partition
 * ({@link StoreRebuild}); a stream task writes one from time to time ({@link SnapshotMaker}).
 */
public interface SnapshotStore {

    /** The Kafka Streams property that sets how often a stream task makes a snapshot, in ms (0: never). */
    String INTERVAL_CONFIG = "cairn.snapshot.interval.ms";

    /** No snapshots: every rebuild folds its journal partition from the first record, and none is written. */
    SnapshotStore NONE = new SnapshotStore() {
        @Override
        public Optional<Snapshot> latest(Map<String, Object> appConfigs, String journalTopic, int partition) {
            return Optional.empty();
        }

        @Override
        public void write(Map<String, Object> appConfigs, String journalTopic, Snapshot snapshot) {
            throw new UnsupportedOperationException("no snapshot store");
        }

        @Override
        public boolean keeps() {
            return false;
        }
    };

    /**
     * The newest complete snapshot of {@code journalTopic}'s {@code partition} in this release's store layout; empty
     * when there is none (or only one that cannot be used, which is logged).
     *
     * @param appConfigs the application's Kafka Streams configuration (how Kafka is reached)
     */
    Optional<Snapshot> latest(Map<String, Object> appConfigs, String journalTopic, int partition);

    /** Writes {@code snapshot} as its partition's newest, and removes what is left of older ones. */
    void write(Map<String, Object> appConfigs, String journalTopic, Snapshot snapshot);

    /**
     * How many records the partition's snapshots take (the snapshots partition's end offset less its first, chunks
     * and tombstones of replaced snapshots included until compaction removes them); -1 when it cannot tell. Decides,
     * with the journal's length, whether a rebuild folds at once ({@link StoreRebuild#inline}).
     */
    default long records(Map<String, Object> appConfigs, String journalTopic, int partition) {
        return 0;
    }

    /** Whether snapshots are kept at all (a task writes none to a store that keeps none). */
    default boolean keeps() {
        return true;
    }
}
