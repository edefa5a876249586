package dev.cairn.kit.operator;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.task.Partitioning;
import dev.cairn.kit.task.RestoredOffsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * An operator subtask's consumer: the input topic's partitions whose key groups overlap the subtask's
 * ({@link Partitioning#readBy}), the channels they carry, and seeking to a snapshot's positions. No group and no
 * committed offsets: the snapshot holds the positions.
 */
final class OperatorInput implements AutoCloseable {

    private final OperatorTaskConfig config;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final List<Channel> channels;
    private final KeyGroupFilter filter;

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
            List<Integer> mine = Partitioning.readBy(count, config.maxParallelism(), config.keyGroups());
            this.filter = new KeyGroupFilter(config.keyGroups(), count, config.maxParallelism());
            this.partitions = mine.stream().map(p -> new TopicPartition(config.inputTopic(), p)).toList();
            this.channels = config.channels(mine);
            consumer.assign(partitions);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /** Which of the data records read the subtask processes: those of its key groups. */
    KeyGroupFilter filter() {
        return filter;
    }

    /** The partitions read, ascending. */
    List<Integer> partitions() {
        return partitions.stream().map(TopicPartition::partition).toList();
    }

    /** The channels of the subtask's partitions. */
    List<Channel> channels() {
        return channels;
    }

    /**
     * Seeks every partition to its restart offset in {@code positions}, or to its beginning when it has none.
     *
     * @throws IllegalStateException when a restart offset no longer exists ({@link RestoredOffsets})
     */
    void seek(InputPositions positions) {
        Map<TopicPartition, Long> restored = new HashMap<>();
        for (TopicPartition partition : partitions) {
            positions.restartOffset(new InputPartition(partition.topic(), partition.partition()))
                    .ifPresent(offset -> restored.put(partition, offset));
        }
        Map<TopicPartition, Long> checked = RestoredOffsets.check(consumer, restored,
                config.consumerSettings().get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "operator " + config.name());
        for (TopicPartition partition : partitions) {
            Long offset = checked.get(partition);
            if (offset != null) {
                consumer.seek(partition, offset);
            } else {
                consumer.seekToBeginning(List.of(partition));
            }
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
