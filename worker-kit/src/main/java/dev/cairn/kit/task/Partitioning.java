package dev.cairn.kit.task;

import dev.cairn.events.keygroups.KeyGroupRanges;
import dev.cairn.sidecar.hook.KeyGroupRange;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Utils;

/**
 * Which input partitions a subtask reads and which output partition a record goes to.
 *
 * <ul>
 *   <li>source input: subtask {@code i} of {@code n} reads the partitions {@code p} with {@code p % n == i}
 *       (assigned, no consumer group: the positions live in the checkpoint);</li>
 *   <li>key groups (Flink's {@code KeyGroupRangeAssignment}): a key's group is
 *       {@code toPositive(murmur2(key)) % maxParallelism}, the downstream task's max parallelism;</li>
 *   <li>output: a keyed record goes to partition {@code keyGroup * partitions / maxParallelism}, so each partition
 *       holds a contiguous range of key groups ({@link #keyGroupsOf}), and every record of a key lands on one
 *       partition whoever writes it. A record without a key goes to partition {@code subtask % partitions}
 *       (deterministic, so a replay writes it where the crashed incarnation did);</li>
 *   <li>operator input: an operator subtask reads every partition whose key groups overlap its own
 *       ({@link #readBy}); a partition may be read by two neighbours, each keeping the keys of its own groups.</li>
 * </ul>
 */
public final class Partitioning {

    /** The max parallelism a writer assumes of its downstream task unless told: Flink's smallest default, 128. */
    public static final int DEFAULT_MAX_PARALLELISM = KeyGroupRanges.DEFAULT_LOWER_BOUND_MAX_PARALLELISM;

    private Partitioning() {
    }

    /** The input partitions of source subtask {@code subtask} of {@code parallelism}, ascending. */
    public static List<Integer> assigned(int partitions, int parallelism, int subtask) {
        if (parallelism < 1 || subtask < 0 || subtask >= parallelism) {
            throw new IllegalArgumentException("a subtask index is within 0 and the parallelism - 1, was subtask "
                    + subtask + " of " + parallelism);
        }
        List<Integer> mine = new ArrayList<>();
        for (int partition = subtask; partition < partitions; partition += parallelism) {
            mine.add(partition);
        }
        return mine;
    }

    /** The key group of {@code key} among {@code maxParallelism}: murmur2 of its bytes, made positive, modulo. */
    public static int keyGroup(byte[] key, int maxParallelism) {
        requireMaxParallelism(maxParallelism);
        return Utils.toPositive(Utils.murmur2(key)) % maxParallelism;
    }

    /** The partition of a topic of {@code partitions} that holds {@code keyGroup} of {@code maxParallelism}. */
    public static int forKeyGroup(int keyGroup, int partitions, int maxParallelism) {
        requirePartitions(partitions);
        requireMaxParallelism(maxParallelism);
        if (keyGroup < 0 || keyGroup >= maxParallelism) {
            throw new IllegalArgumentException("key group " + keyGroup + " is not within 0 and "
                    + (maxParallelism - 1));
        }
        return (int) ((long) keyGroup * partitions / maxParallelism);
    }

    /**
     * The output partition of a record with {@code key} written by {@code subtask} to a topic of {@code partitions}
     * read by a task of max parallelism {@code maxParallelism}: the partition of its key group.
     */
    public static int forKey(byte[] key, int partitions, int maxParallelism, int subtask) {
        requirePartitions(partitions);
        if (key == null) {
            return subtask % partitions;
        }
        return forKeyGroup(keyGroup(key, maxParallelism), partitions, maxParallelism);
    }

    /**
     * The key groups partition {@code partition} of {@code partitions} holds, contiguous; empty (end before start)
     * when the topic has more partitions than key groups and this one gets none.
     */
    public static KeyGroupRange keyGroupsOf(int partition, int partitions, int maxParallelism) {
        requirePartitions(partitions);
        requireMaxParallelism(maxParallelism);
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException("partition " + partition + " is not within 0 and " + (partitions - 1));
        }
        int start = firstGroupOf(partition, partitions, maxParallelism);
        int end = firstGroupOf(partition + 1, partitions, maxParallelism) - 1;
        return new KeyGroupRange(start, end);
    }

    /** The partitions of a topic of {@code partitions} whose key groups overlap {@code range}, ascending. */
    public static List<Integer> readBy(int partitions, int maxParallelism, KeyGroupRange range) {
        List<Integer> mine = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
            if (keyGroupsOf(partition, partitions, maxParallelism).overlaps(range)) {
                mine.add(partition);
            }
        }
        return mine;
    }

    /** The first key group {@code g} with {@code g * partitions / max >= partition}: ceil(partition * max / p). */
    private static int firstGroupOf(int partition, int partitions, int maxParallelism) {
        return (int) (((long) partition * maxParallelism + partitions - 1) / partitions);
    }

    private static void requirePartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("a topic has 1 partition or more, was " + partitions);
        }
    }

    private static void requireMaxParallelism(int maxParallelism) {
        String problem = KeyGroupRanges.problem(maxParallelism, 1);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }
}
