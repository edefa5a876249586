package dev.cairn.kit.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The pure bookkeeping of a write-ahead sink subtask: the open epoch (records since the last snapshot) and the
 * sealed epochs not yet committed. No Kafka, no I/O, no clock; not thread-safe (the sink guards it).
 *
 * <ul>
 *   <li>{@link #add} appends a record to the open epoch;</li>
 *   <li>{@link #seal} (the snapshot of checkpoint N) closes the open epoch as epoch N and answers every
 *       uncommitted epoch, which is what the snapshot file holds;</li>
 *   <li>{@link #committable} answers the epochs a completed checkpoint N commits: every sealed epoch up to N,
 *       also those of aborted checkpoints before it (an abort keeps its epoch, as Flink's two-phase-commit sink
 *       does);</li>
 *   <li>{@link #committed} drops them once the transaction committed; epochs after N stay.</li>
 * </ul>
 *
 * <p>Everything is held in memory: a sink buffers up to a checkpoint interval's output (plus that of checkpoints
 * not yet completed), so checkpoints should be frequent enough for that to fit.
 */
public final class PendingEpochs {

    private final List<SinkRecord> open = new ArrayList<>();
    private final NavigableMap<Long, Epoch> sealed = new TreeMap<>();
    private long lastSealed = -1;
    private long lastCommitted = -1;

    /** Appends a record to the open epoch. */
    public void add(SinkRecord record) {
        open.add(record);
    }

    /**
     * Closes the open epoch as epoch {@code checkpointId} (an empty open epoch adds nothing) and answers the
     * uncommitted epochs, oldest first.
     *
     * @throws IllegalArgumentException when a snapshot of this or a later checkpoint was already taken or
     *     restored: checkpoint ids grow
     */
    public List<Epoch> seal(long checkpointId) {
        if (checkpointId <= lastSealed) {
            throw new IllegalArgumentException("cannot take the snapshot of checkpoint " + checkpointId
                    + " after that of checkpoint " + lastSealed + ": checkpoint ids must grow");
        }
        if (!open.isEmpty()) {
            sealed.put(checkpointId, new Epoch(checkpointId, open));
            open.clear();
        }
        lastSealed = checkpointId;
        return uncommitted();
    }

    /** The sealed epochs up to and including {@code checkpointId}, oldest first: what its completion commits. */
    public List<Epoch> committable(long checkpointId) {
        return List.copyOf(sealed.headMap(checkpointId, true).values());
    }

    /** Drops the epochs up to and including {@code checkpointId}: their transaction committed. */
    public void committed(long checkpointId) {
        sealed.headMap(checkpointId, true).clear();
        lastCommitted = Math.max(lastCommitted, checkpointId);
    }

    /** Whether checkpoint {@code checkpointId} (or a later one) was already committed or restored. */
    public boolean isCommitted(long checkpointId) {
        return checkpointId <= lastCommitted;
    }

    /**
     * Starts over from a restored checkpoint whose pending epochs are now in the output: nothing is open or
     * sealed, and the next snapshot must be of a later checkpoint.
     */
    public void restoredTo(long checkpointId) {
        open.clear();
        sealed.clear();
        lastSealed = checkpointId;
        lastCommitted = checkpointId;
    }

    /** The sealed, uncommitted epochs, oldest first. */
    public List<Epoch> uncommitted() {
        return List.copyOf(sealed.values());
    }
}
