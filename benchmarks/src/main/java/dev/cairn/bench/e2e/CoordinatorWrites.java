package dev.cairn.bench.e2e;

import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the coordinator wrote, topic by topic: the end offsets of its output topics (journal, control, completed,
 * dead letters) and of its stores' changelogs, summed over partitions, before and after the measured rounds.
 * Offsets count transaction markers too: one per partition a transaction wrote to, a few per commit interval,
 * against thousands of records per round.
 */
final class CoordinatorWrites {

    /** The labels of the output topics; every other label is a store's. */
    static final Set<String> OUTPUTS = Set.of("journal", "control", "completed", "dlq");

    private CoordinatorWrites() {}

    /** End offsets by label: the output topic's kind ({@code journal}, ...) or the changelog's store name. */
    static Map<String, Long> endOffsets(String bootstrap, CairnTopics topics) {
        Map<String, String> outputs = Map.of(topics.journal(), "journal", topics.control(), "control",
                topics.completed(), "completed", topics.dlq(), "dlq");
        Map<String, Long> ends = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.listTopics(Duration.ofSeconds(60)).forEach((topic, partitions) -> {
                String label = outputs.getOrDefault(topic, storeOf(topic));
                if (label != null) {
                    List<TopicPartition> all = partitions.stream()
                            .map(p -> new TopicPartition(topic, p.partition())).toList();
                    long end = consumer.endOffsets(all).values().stream().mapToLong(Long::longValue).sum();
                    ends.merge(label, end, Long::sum);
                }
            });
        }
        return ends;
    }

    /** What was written between two snapshots, by label; labels that did not move are left out. */
    static Map<String, Long> between(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> written = new TreeMap<>();
        after.forEach((label, end) -> {
            long moved = end - before.getOrDefault(label, 0L);
            if (moved > 0) {
                written.put(label, moved);
            }
        });
        return written;
    }

    /** The store a coordinator's changelog topic belongs to ({@code <application id>-cairn-...-changelog}). */
    private static String storeOf(String topic) {
        int store = topic.indexOf("-cairn-");
        return topic.endsWith("-changelog") && store >= 0 && !topic.startsWith("bench-")
                ? topic.substring(store + 1, topic.length() - "-changelog".length()) : null;
    }
}
