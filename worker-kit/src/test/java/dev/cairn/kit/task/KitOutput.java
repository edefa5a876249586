package dev.cairn.kit.task;

import dev.cairn.kit.TopicContents;
import dev.cairn.kit.wire.KitRecord;
import dev.cairn.kit.wire.KitRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A source's output as a downstream task would see it: per output partition, the kit records in order. */
final class KitOutput {

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
        Map<Integer, List<Entry>> records = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> record : TopicContents.read(bootstrapServers, topic, false)) {
            String value = record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8);
            records.computeIfAbsent(record.partition(), p -> new ArrayList<>())
                    .add(new Entry(KitRecords.read(record), value));
        }
        return records;
    }
}
