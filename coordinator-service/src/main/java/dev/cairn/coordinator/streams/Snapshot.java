package dev.cairn.coordinator.streams;

import dev.cairn.core.events.TimerIndex;
import dev.cairn.core.state.CoordinatorState;
import java.util.Map;
import java.util.Set;

/**
 * A journal partition's fold as of a journal offset: what a rebuild starts from instead of the partition's first
 * record ({@link StoreRebuild}), kept on {@code cairn.snapshots} ({@link SnapshotStore}, encoded by
 * {@link SnapshotCodec}).
 *
 * @param partition the journal partition
 * @param journalOffset it reflects every journal record below this offset, and none at or above it
 * @param journalRecords the journal records folded into it, from the partition's first
 * @param undecodable of those, the ones that did not decode and were skipped
 * @param createdAtMs when it was made (the coordinator's clock)
 * @param layout the store layout ({@link StoreLayout#CURRENT}) its entries are encoded in
 * @param state every table's entries (a state in memory)
 * @param timers the timers the folded events set, none due before {@code createdAtMs}
 * @param inputPositions the last offset of each input topic the folded journal reflects
 */
public record Snapshot(int partition, long journalOffset, long journalRecords, long undecodable, long createdAtMs,
        long layout, CoordinatorState state, Set<TimerIndex.Timer> timers, Map<String, Long> inputPositions) {

    public Snapshot {
        timers = Set.copyOf(timers);
        inputPositions = Map.copyOf(inputPositions);
    }

    @Override
    public String toString() {
        return "snapshot of partition " + partition + " at journal offset " + journalOffset + " (" + journalRecords
                + " records, layout " + layout + ")";
    }
}
