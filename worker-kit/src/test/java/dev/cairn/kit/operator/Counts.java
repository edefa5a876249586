package dev.cairn.kit.operator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The results a kit job's sink committed: per key, the counts in the order written (read_committed). */
final class Counts {

    private Counts() {
    }

    /** Per key, the counts committed to {@code topic}. */
    static Map<String, List<Long>> committed(String bootstrap, String topic) {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<String, List<Long>> counts = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    counts.computeIfAbsent(new String(record.key(), StandardCharsets.UTF_8), k -> new ArrayList<>())
                            .add(Long.parseLong(new String(record.value(), StandardCharsets.US_ASCII)));
                }
            }
        }
        return counts;
    }

    /** Per key, the exactly-once result of {@code events} events over {@code keys} keys: 1, 2, ..., n. */
    static Map<String, List<Long>> expected(int events, int keys) {
        Map<String, List<Long>> expected = new TreeMap<>();
        for (int i = 0; i < events; i++) {
            List<Long> counts = expected.computeIfAbsent(key(i, keys), k -> new ArrayList<>());
            counts.add((long) counts.size() + 1);
        }
        return expected;
    }

    /** The key of event {@code i}. */
    static String key(int i, int keys) {
        return "k" + (i % keys);
    }
}
