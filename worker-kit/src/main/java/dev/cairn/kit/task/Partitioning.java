package dev.cairn.kit.task;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Utils;

/**
 * Which input partitions a source subtask reads and which output partition a record goes to.
 *
 * <ul>
 *   <li>input: subtask {@code i} of {@code n} reads the partitions {@code p} with {@code p % n == i} (assigned, no
 *       consumer group: the positions live in the checkpoint);</li>
 *   <li>output: a keyed record goes to {@code toPositive(murmur2(key)) % partitions}, the partition Kafka's default
 *       partitioner picks, so every record of a key lands on one partition whoever writes it. A record without a
 *       key goes to partition {@code subtask % partitions} (deterministic, unlike Kafka's sticky choice, so a replay
 *       writes it where the crashed incarnation did).</li>
 * </ul>
 */
public final class Partitioning {

    private Partitioning() {
    }

    /** The input partitions of subtask {@code subtask} of {@code parallelism}, ascending. */
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

    /**
     * The output partition of a record with {@code key} written by {@code subtask} to a topic of {@code partitions}.
     */
    public static int forKey(byte[] key, int partitions, int subtask) {
        if (partitions < 1) {
            throw new IllegalArgumentException("a topic has 1 partition or more, was " + partitions);
        }
        if (key == null) {
            return subtask % partitions;
        }
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }
}
