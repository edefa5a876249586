package dev.cairn.coordinator.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads every partition of a topic with read_committed, from its end at the time it is created. */
final class TopicReader<V> implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);

    private final KafkaConsumer<String, V> consumer;
    private final List<ConsumerRecord<String, V>> unread = new ArrayList<>();
    private final long timeoutS;

    TopicReader(String bootstrap, String topic, Deserializer<V> values, int fetchMaxWaitMs, long timeoutS) {
        this.timeoutS = timeoutS;
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, fetchMaxWaitMs,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024),
                new StringDeserializer(), values);
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolve the end now, before anything new is produced
    }

    /** Polls until an event of that type matches; skips (and drops) everything read before it. */
    <T> T await(Function<V, Object> event, Class<T> type, Predicate<T> matching, String what) {
        ConsumerRecord<String, V> found = awaitRecord(record -> {
            Object candidate = event.apply(record.value());
            return type.isInstance(candidate) && matching.test(type.cast(candidate));
        }, what);
        return type.cast(event.apply(found.value()));
    }

    /** Polls until a record matches (each record is tested once); drops everything read before it. */
    ConsumerRecord<String, V> awaitRecord(Predicate<ConsumerRecord<String, V>> matching, String what) {
        long deadline = System.nanoTime() + timeoutS * 1_000_000_000L;
        while (true) {
            for (int i = 0; i < unread.size(); i++) {
                ConsumerRecord<String, V> candidate = unread.get(i);
                if (matching.test(candidate)) {
                    unread.subList(0, i + 1).clear();
                    return candidate;
                }
            }
            unread.clear();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeoutS + " s waiting for " + what);
            }
            consumer.poll(POLL).forEach(unread::add);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
