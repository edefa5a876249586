package dev.cairn.bench.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The raw consume rate: a plain consumer ({@code read_committed}, byte arrays, no decoding, default fetch sizes)
 * reading a range of the acks topic back from the broker, as fast as it can.
 */
final class RawConsume {

    private RawConsume() {}

    /** The current end of every partition of {@code topic}. */
    static Map<TopicPartition, Long> endOffsets(String bootstrap, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            return consumer.endOffsets(partitions);
        }
    }

    /** Records per second reading {@code [from, to)} of every partition; NaN for an empty range. */
    static double recordsPerSecond(String bootstrap, Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
        long expected = from.keySet().stream().mapToLong(p -> to.get(p) - from.get(p)).sum();
        if (expected <= 0) {
            return Double.NaN;
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            long read = 0;
            long started = System.nanoTime();
            long deadline = started + Duration.ofSeconds(120).toNanos();
            while (from.keySet().stream().anyMatch(p -> consumer.position(p) < to.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new RowFailedException("the raw consumer read " + read + " of " + expected + " records");
                }
                read += consumer.poll(Duration.ofMillis(100)).count();
            }
            return read / ((System.nanoTime() - started) / 1e9);
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
