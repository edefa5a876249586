package dev.cairn.kit.operator;

import dev.cairn.kit.task.Partitioning;

/**
 * The key groups of an operator's keyed state (Flink: KeyGroupRangeAssignment): a key's group is a hash of its bytes
 * modulo the task's max parallelism ({@link OperatorTaskConfig#maxParallelism()}). The state is snapshotted by group,
 * so that a checkpoint writes only the groups that changed and refers to the files of the others, and a rescaled
 * subtask reads only the groups of its range.
 */
public final class KeyGroups {

    /** The default number of groups (Flink's lowest default max parallelism). */
    public static final int COUNT = Partitioning.DEFAULT_MAX_PARALLELISM;

    private KeyGroups() {
    }

    /** The group of {@code key} among {@link #COUNT}. */
    public static int of(byte[] key) {
        return of(key, COUNT);
    }

    /** The group of {@code key} among {@code maxParallelism}: murmur2 of its bytes, made positive, modulo. */
    public static int of(byte[] key, int maxParallelism) {
        return Partitioning.keyGroup(key, maxParallelism);
    }
}
