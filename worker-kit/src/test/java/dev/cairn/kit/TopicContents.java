package dev.cairn.kit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The kit tests' reader of a whole topic: every record up to the current end, as a downstream reader sees it. */
public final class TopicContents {

    private static final Duration READ_LIMIT = Duration.ofSeconds(30);

    private TopicContents() {
    }

    /**
     * Every record of {@code topic} up to its end offsets at the time of the call, in each partition's order.
     *
     * @param readCommitted whether to read as {@code read_committed} (a transaction's records only once committed)
     */
    public static List<ConsumerRecord<byte[], byte[]>> read(String bootstrap, String topic, boolean readCommitted) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " up to " + ends + " within " + READ_LIMIT);
                }
                consumer.poll(Duration.ofMillis(50)).forEach(records::add);
            }
            return records;
        }
    }
}
