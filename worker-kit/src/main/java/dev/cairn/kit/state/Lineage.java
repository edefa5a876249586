package dev.cairn.kit.state;

import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The lineage of a kit subtask's state: the checkpoint it was restored (or rolled back) to, and the snapshots taken
 * since, with their locations. It answers which of its own snapshots the subtask can roll back to, and whether the
 * subtask is behind: a checkpoint newer than its state completed without a snapshot of this lineage (the previous
 * incarnation acknowledged it, and its last ack was still in flight when this one chose its restore point). A
 * subtask that is behind must not take part in later checkpoints; restarted, it restores that checkpoint.
 *
 * <p>Pure and thread-safe (a source's loop thread and the sidecar's notification thread both use it).
 */
public final class Lineage {

    private final NavigableMap<Long, String> snapshots = new TreeMap<>();
    private long base = -1;
    private long completedUpTo = -1;

    /** The state now comes from checkpoint {@code checkpointId} (-1: the initial state), kept at {@code location}. */
    public synchronized void rebase(long checkpointId, Optional<String> location) {
        snapshots.clear();
        location.ifPresent(at -> snapshots.put(checkpointId, at));
        base = checkpointId;
        completedUpTo = checkpointId;
    }

    /** The checkpoint the state comes from (-1: the initial state). */
    public synchronized long base() {
        return base;
    }

    /** The snapshot of checkpoint {@code checkpointId} was written to {@code location}. */
    public synchronized void taken(long checkpointId, String location) {
        snapshots.put(checkpointId, location);
    }

    /** This lineage's snapshot of {@code checkpointId}, if it took or restored one (and has not forgotten it). */
    public synchronized Optional<String> location(long checkpointId) {
        return Optional.ofNullable(snapshots.get(checkpointId));
    }

    /**
     * Checkpoint {@code checkpointId} completed. Answers whether it belongs to this lineage; if so, older snapshots
     * are forgotten (the subtask never rolls back before a completed checkpoint it took).
     */
    public synchronized boolean completed(long checkpointId) {
        if (!snapshots.containsKey(checkpointId)) {
            return false;
        }
        completedUpTo = Math.max(completedUpTo, checkpointId);
        snapshots.headMap(checkpointId, false).clear();
        return true;
    }

    /** Whether checkpoint {@code latestCompletedId} completed newer than this lineage's state and without it. */
    public synchronized boolean behind(long latestCompletedId) {
        return latestCompletedId > completedUpTo && !snapshots.containsKey(latestCompletedId);
    }

    /** The message of a subtask that is behind checkpoint {@code checkpointId}. */
    public synchronized String behindMessage(String subtask, long checkpointId) {
        return subtask + " is behind: checkpoint " + checkpointId + " completed without a snapshot of this "
                + "incarnation (whose state comes from checkpoint " + base + "); it stops, and restarted it restores "
                + "checkpoint " + checkpointId + " or a later one";
    }
}
