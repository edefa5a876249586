package dev.cairn.kit.task;

import dev.cairn.kit.wire.KitRecord;
import dev.cairn.kit.wire.KitRecords;
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

/** A source's output as a downstream task would see it: per output partition, the kit records in order. */
final class KitOutput {

    private static final Duration READ_LIMIT = Duration.ofSeconds(30);

    private KitOutput() {
    }

    /** One record of the output: what its headers say, and its value as text (the test's input origin). */
    record Entry(KitRecord kind, String value) {

        boolean isDataOf(int subtask) {
            return kind instanceof KitRecord.Data data && data.from() == subtask;
        }

        long generation() {
            if (kind instanceof KitRecord.Data data) {
                return data.generation();
            }
            if (kind instanceof KitRecord.Barrier barrier) {
                return barrier.generation();
            }
            if (kind instanceof KitRecord.Resume resume) {
                return resume.generation();
            }
            throw new AssertionError("a malformed record in the output: " + kind);
        }
    }

    /** Every record of {@code topic} up to its current end, per partition, in offset order. */
    static Map<Integer, List<Entry>> read(String bootstrapServers, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<Integer, List<Entry>> records = new TreeMap<>();
            partitions.forEach(p -> records.put(p.partition(), new ArrayList<>()));
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " up to " + ends + " within " + READ_LIMIT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    String value = record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8);
                    records.get(record.partition()).add(new Entry(KitRecords.read(record), value));
                }
            }
            return records;
        }
    }
}
