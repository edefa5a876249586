package dev.cairn.kit.operator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which key groups of an operator subtask's keyed state a snapshot writes, and which it refers to. Like Flink's
 * incremental RocksDB snapshots, a snapshot reuses only objects of a confirmed checkpoint (the newest completed one it
 * took or restored): a group whose version has not moved since that checkpoint is referred to, every other non-empty
 * group is written anew. A full snapshot (a FULL checkpoint, the first after a NO_CLAIM restore) writes every group.
 * Pure bookkeeping: the loop thread plans at the barrier, the snapshot thread reports what it wrote, notifications
 * confirm. Thread-safe.
 */
final class IncrementalSnapshots {

    /**
     * What a snapshot at a barrier decided: the groups to write, with their entries' bytes, and the objects of the
     * confirmed checkpoint it refers to for the others.
     */
    record Plan(long checkpointId, long[] versions, Map<Integer, byte[]> toWrite, List<KeyGroupObject> reused) {
    }

    /** A snapshot's groups: the versions it saw and the object of every non-empty group. */
    private record Groups(long[] versions, Map<Integer, KeyGroupObject> objects) {
    }

    private Groups confirmed;
    private final Map<Long, Groups> taken = new HashMap<>();

    /**
     * Plans the snapshot of checkpoint {@code checkpointId} of {@code state}.
     *
     * @param encoder the bytes of one group's file
     * @param full whether to write every group (nothing reused)
     */
    synchronized Plan plan(long checkpointId, KeyedState state, GroupEncoder encoder, boolean full) {
        long[] versions = state.versions();
        Map<Integer, byte[]> toWrite = new HashMap<>();
        List<KeyGroupObject> reused = new ArrayList<>();
        for (int group = 0; group < versions.length; group++) {
            KeyGroupObject base = full || confirmed == null || confirmed.versions()[group] != versions[group] ? null
                    : confirmed.objects().get(group);
            if (base != null) {
                reused.add(base);
            } else if (!state.group(group).isEmpty()) {
                toWrite.put(group, encoder.encode(group, state.group(group)));
            }
        }
        return new Plan(checkpointId, versions, toWrite, reused);
    }

    /** The snapshot of {@code plan} is written: its groups' objects, new and reused. */
    synchronized void written(Plan plan, List<KeyGroupObject> objects) {
        Map<Integer, KeyGroupObject> byGroup = new HashMap<>();
        objects.forEach(o -> byGroup.put(o.group(), o));
        taken.put(plan.checkpointId(), new Groups(plan.versions(), byGroup));
    }

    /** Checkpoint {@code checkpointId} completed: its snapshot, if this incarnation wrote it, is the base now. */
    synchronized void completed(long checkpointId) {
        Groups groups = taken.get(checkpointId);
        if (groups != null) {
            confirmed = groups;
        }
        taken.keySet().removeIf(id -> id <= checkpointId);
    }

    /** Checkpoint {@code checkpointId} aborted: its snapshot is never a base. */
    synchronized void aborted(long checkpointId) {
        taken.remove(checkpointId);
    }

    /**
     * The state was restored from a completed checkpoint whose groups are {@code objects}, {@code versions} being the
     * state's versions right after: that checkpoint is the base; snapshots taken before are forgotten.
     */
    synchronized void restored(long[] versions, List<KeyGroupObject> objects) {
        Map<Integer, KeyGroupObject> byGroup = new HashMap<>();
        objects.forEach(o -> byGroup.put(o.group(), o));
        confirmed = new Groups(versions.clone(), byGroup);
        taken.clear();
    }

    @Override
    public synchronized String toString() {
        return "IncrementalSnapshots[" + (confirmed == null ? "no base" : confirmed.objects().size() + " base groups")
                + ", " + taken.size() + " taken]";
    }

    /** The bytes of one group's file. */
    @FunctionalInterface
    interface GroupEncoder {
        byte[] encode(int group, Map<KeyedState.Key, byte[]> entries);
    }
}
