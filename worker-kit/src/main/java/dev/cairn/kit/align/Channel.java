package dev.cairn.kit.align;

import java.util.Objects;

/**
 * One input channel of a task: what one upstream subtask writes into one input partition. Every upstream subtask
 * writes into every partition, so a partition carries several channels, interleaved; each channel is in order.
 *
 * @param partition the input partition
 * @param upstream the upstream subtask's index (the {@code cairn.kit.from} header), 0 or more
 */
public record Channel(InputPartition partition, int upstream) implements Comparable<Channel> {

    public Channel {
        Objects.requireNonNull(partition, "partition");
        if (upstream < 0) {
            throw new IllegalArgumentException("an upstream subtask index is 0 or more, was " + upstream);
        }
    }

    /** The channel of upstream subtask {@code upstream} in partition {@code partition} of {@code topic}. */
    public static Channel of(String topic, int partition, int upstream) {
        return new Channel(new InputPartition(topic, partition), upstream);
    }

    @Override
    public int compareTo(Channel other) {
        int byPartition = partition.compareTo(other.partition);
        return byPartition != 0 ? byPartition : Integer.compare(upstream, other.upstream);
    }

    @Override
    public String toString() {
        return partition + "/from-" + upstream;
    }
}
