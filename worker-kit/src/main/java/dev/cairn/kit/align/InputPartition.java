package dev.cairn.kit.align;

import java.util.Objects;

/**
 * One partition a task reads (a topic and a partition number; the kit's own type, so that alignment stays free of
 * Kafka types).
 *
 * @param topic the topic
 * @param partition the partition number, 0 or more
 */
public record InputPartition(String topic, int partition) implements Comparable<InputPartition> {

    public InputPartition {
        Objects.requireNonNull(topic, "topic");
        if (partition < 0) {
            throw new IllegalArgumentException("a partition number is 0 or more, was " + partition);
        }
    }

    @Override
    public int compareTo(InputPartition other) {
        int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
