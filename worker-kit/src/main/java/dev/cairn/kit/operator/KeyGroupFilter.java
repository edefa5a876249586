package dev.cairn.kit.operator;

import dev.cairn.kit.task.Partitioning;
import dev.cairn.sidecar.hook.KeyGroupRange;
import java.util.Objects;

/**
 * Which data records of its input an operator subtask processes. A partition holds a contiguous range of key groups
 * ({@link Partitioning#keyGroupsOf}) and may be read by two neighbouring subtasks; each keeps the records of the key
 * groups it owns and drops the others, which its neighbour processes. A keyless record belongs to the owner of its
 * partition's first key group. A record whose key group is not one its partition holds was routed by a writer with
 * another max parallelism (or by an earlier release): the owner of the partition's first group reports it, the
 * others drop it. Pure.
 */
final class KeyGroupFilter {

    /** What the subtask does with a record. */
    enum Verdict {
        /** Its key group is this subtask's: process it. */
        KEEP,
        /** Its key group is a neighbour's, reading the same partition: drop it. */
        NEIGHBOURS,
        /** Its key group does not belong to the partition, and this subtask reports it (a dead letter). */
        MISROUTED
    }

    private final KeyGroupRange own;
    private final int partitions;
    private final int maxParallelism;

    /** The filter of a subtask owning {@code own} of {@code maxParallelism}, reading {@code partitions}. */
    KeyGroupFilter(KeyGroupRange own, int partitions, int maxParallelism) {
        this.own = Objects.requireNonNull(own, "own");
        this.partitions = partitions;
        this.maxParallelism = maxParallelism;
    }

    /** What to do with a data record of {@code key} ({@code null}: keyless) read from {@code partition}. */
    Verdict of(byte[] key, int partition) {
        KeyGroupRange held = Partitioning.keyGroupsOf(partition, partitions, maxParallelism);
        boolean reporter = held.size() > 0 && own.contains(held.startKeyGroup());
        if (key == null) {
            return reporter ? Verdict.KEEP : Verdict.NEIGHBOURS;
        }
        int group = Partitioning.keyGroup(key, maxParallelism);
        if (!held.contains(group)) {
            return reporter ? Verdict.MISROUTED : Verdict.NEIGHBOURS;
        }
        return own.contains(group) ? Verdict.KEEP : Verdict.NEIGHBOURS;
    }

    /** Why a {@link Verdict#MISROUTED} record is reported. */
    String misrouted(byte[] key, int partition) {
        return "key group " + Partitioning.keyGroup(key, maxParallelism) + " of " + maxParallelism + " belongs to "
                + "partition " + Partitioning.forKeyGroup(Partitioning.keyGroup(key, maxParallelism), partitions,
                maxParallelism) + ", not " + partition + " (its writer routes with another max parallelism than "
                + maxParallelism + ", or is of a release before key-group routing)";
    }
}
