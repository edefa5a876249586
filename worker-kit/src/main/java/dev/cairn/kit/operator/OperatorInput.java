package dev.cairn.kit.operator;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.task.Partitioning;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * An operator subtask's consumer: its share of the input topic's partitions, the channels they carry, and seeking to
 * a snapshot's positions. No group and no committed offsets: the snapshot holds the positions.
 */
final class OperatorInput implements AutoCloseable {

    private final OperatorTaskConfig config;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final List<Channel> channels;

    /**
     * Assigns the subtask's partitions of the input topic.
     *
     * @throws IllegalStateException when the input topic does not exist
     */
    OperatorInput(OperatorTaskConfig config) {
        this.config = config;
        this.consumer = new KafkaConsumer<>(config.consumerSettings(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        try {
            int count = consumer.partitionsFor(config.inputTopic()).size();
            if (count == 0) {
                throw new IllegalStateException("operator " + config.name() + ": the input topic "
                        + config.inputTopic() + " does not exist");
            }
            List<Integer> mine = Partitioning.assigned(count, config.parallelism(), config.subtask());
            this.partitions = mine.stream().map(p -> new TopicPartition(config.inputTopic(), p)).toList();
            this.channels = config.channels(mine);
            consumer.assign(partitions);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /** The channels of the subtask's partitions. */
    List<Channel> channels() {
        return channels;
    }

    /** Seeks every partition to its restart offset in {@code positions}, or to its beginning when it has none. */
    void seek(InputPositions positions) {
        for (TopicPartition partition : partitions) {
            positions.restartOffset(new InputPartition(partition.topic(), partition.partition())).ifPresentOrElse(
                    offset -> consumer.seek(partition, offset), () -> consumer.seekToBeginning(List.of(partition)));
        }
    }

    ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        return consumer.poll(timeout);
    }

    /** Makes a blocked {@link #poll} return with a {@link org.apache.kafka.common.errors.WakeupException}. */
    void wakeup() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        consumer.close();
    }

    @Override
    public String toString() {
        return config.inputTopic() + partitions.stream().map(TopicPartition::partition).toList();
    }
}
