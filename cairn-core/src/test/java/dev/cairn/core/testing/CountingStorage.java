package dev.cairn.core.testing;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.state.Storage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * Delegating storage that counts every read, write, removal and group scan per table, and the encoded bytes of
 * the values read and written: what a store backing would decode and encode.
 */
public final class CountingStorage implements Storage {

    private final Storage delegate;
    private final Map<StateTable<?, ?>, Integer> reads = new HashMap<>();
    private final Map<StateTable<?, ?>, Integer> writes = new HashMap<>();
    private final Map<StateTable<?, ?>, Integer> removals = new HashMap<>();
    /** Reads and removals of a group: one checkpoint's acks, one job's finished subtasks. */
    public int scans;
    public long bytesRead;
    public long bytesWritten;
    /** The groups the state said were settled ({@link Storage#settled}), in order. */
    public final List<Object> settled = new ArrayList<>();

    public CountingStorage(Storage delegate) {
        this.delegate = delegate;
    }

    /**
     * A state over this storage that knows one checkpoint's progress, as the processor's long-lived state does after
     * the checkpoint's first ack, with the counts of finding it forgotten.
     */
    public CoordinatorState stateKnowingProgressOf(String jobId, long checkpointId) {
        CoordinatorState state = CoordinatorState.over(this);
        state.progress(jobId, checkpointId);
        reset();
        return state;
    }

    /** Forgets every count so far. */
    public void reset() {
        reads.clear();
        writes.clear();
        removals.clear();
        scans = 0;
        bytesRead = 0;
        bytesWritten = 0;
    }

    /** Point reads of one table. */
    public int reads(StateTable<?, ?> table) {
        return reads.getOrDefault(table, 0);
    }

    /** Writes to one table. */
    public int writes(StateTable<?, ?> table) {
        return writes.getOrDefault(table, 0);
    }

    /** Removals from one table. */
    public int removals(StateTable<?, ?> table) {
        return removals.getOrDefault(table, 0);
    }

    /** Point reads of every table. */
    public int reads() {
        return sum(reads);
    }

    /** Writes and removals of every table. */
    public int writes() {
        return sum(writes) + sum(removals);
    }

    private static int sum(Map<StateTable<?, ?>, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public <K, V extends SpecificRecord> V get(StateTable<K, V> table, K key) {
        reads.merge(table, 1, Integer::sum);
        V value = delegate.get(table, key);
        if (value != null) {
            bytesRead += table.encode(value).length;
        }
        return value;
    }

    @Override
    public <K, V extends SpecificRecord> void put(StateTable<K, V> table, K key, V value) {
        writes.merge(table, 1, Integer::sum);
        bytesWritten += table.encode(value).length;
        delegate.put(table, key, value);
    }

    @Override
    public <K, V extends SpecificRecord> void delete(StateTable<K, V> table, K key) {
        removals.merge(table, 1, Integer::sum);
        delegate.delete(table, key);
    }

    @Override
    public <K, V extends SpecificRecord> Map<K, V> scan(StateTable<K, V> table, Object group) {
        scans++;
        Map<K, V> entries = delegate.scan(table, group);
        entries.values().forEach(value -> bytesRead += table.encode(value).length);
        return entries;
    }

    @Override
    public <K, V extends SpecificRecord> void deleteGroup(StateTable<K, V> table, Object group) {
        scans++;
        delegate.deleteGroup(table, group);
    }

    @Override
    public <K, V extends SpecificRecord> void settled(StateTable<K, V> table, Object group) {
        settled.add(group);
        delegate.settled(table, group);
    }
}
