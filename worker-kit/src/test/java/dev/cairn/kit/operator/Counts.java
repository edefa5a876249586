package dev.cairn.kit.operator;

import dev.cairn.kit.TopicContents;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The results a kit job's sink committed: per key, the counts in the order written (read_committed). */
final class Counts {

    private Counts() {
    }

    /** Per key, the counts committed to {@code topic}. */
    static Map<String, List<Long>> committed(String bootstrap, String topic) {
        Map<String, List<Long>> counts = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> record : TopicContents.read(bootstrap, topic, true)) {
            counts.computeIfAbsent(new String(record.key(), StandardCharsets.UTF_8), k -> new ArrayList<>())
                    .add(Long.parseLong(new String(record.value(), StandardCharsets.US_ASCII)));
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
