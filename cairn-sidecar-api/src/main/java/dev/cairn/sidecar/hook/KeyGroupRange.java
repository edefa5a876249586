package dev.cairn.sidecar.hook;

import dev.cairn.events.keygroups.KeyGroupRanges;

/**
 * A contiguous range of key groups, both ends included (Flink: {@code KeyGroupRange}). A task's keyed state is split
 * into as many key groups as its max parallelism; subtask {@code i} of {@code p} owns {@link #forSubtask}. A worker
 * names the range a snapshot holds ({@link SnapshotResult#withKeyGroups}), and a restore names the range a subtask
 * keeps ({@link RestorePoint#keyGroups}) and the ranges of the states it reads ({@link RestoredState#keyGroups}).
 *
 * @param startKeyGroup the first key group, {@code >= 0}
 * @param endKeyGroup the last key group, {@code >= startKeyGroup - 1} ({@code startKeyGroup - 1}: empty)
 */
public record KeyGroupRange(int startKeyGroup, int endKeyGroup) {

    /** Checks the bounds. */
    public KeyGroupRange {
        if (startKeyGroup < 0 || endKeyGroup < startKeyGroup - 1) {
            throw new IllegalArgumentException("a key-group range is [start, end] with 0 <= start <= end + 1, not ["
                    + startKeyGroup + ", " + endKeyGroup + "]");
        }
    }

    /** The key groups of subtask {@code index} of {@code parallelism} for {@code maxParallelism} groups. */
    public static KeyGroupRange forSubtask(int maxParallelism, int parallelism, int index) {
        dev.cairn.events.KeyGroupRange range = KeyGroupRanges.forSubtask(maxParallelism, parallelism, index);
        return new KeyGroupRange(range.getStartKeyGroup(), range.getEndKeyGroup());
    }

    /** Whether the range holds {@code keyGroup}. */
    public boolean contains(int keyGroup) {
        return keyGroup >= startKeyGroup && keyGroup <= endKeyGroup;
    }

    /** Whether the two ranges share a key group. */
    public boolean overlaps(KeyGroupRange other) {
        return size() > 0 && other.size() > 0 && startKeyGroup <= other.endKeyGroup
                && other.startKeyGroup <= endKeyGroup;
    }

    /** How many key groups it holds. */
    public int size() {
        return endKeyGroup - startKeyGroup + 1;
    }

    @Override
    public String toString() {
        return "[" + startKeyGroup + ", " + endKeyGroup + "]";
    }
}
