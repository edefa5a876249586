package dev.cairn.sidecar.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;

/**
 * Reads a whole topic from the beginning (every partition, committed records only, as sidecars read) and keeps
 * every event it read, so that tests can wait for an event or look at all of them. Thread-safe.
 *
 * @param <V> the topic's envelope type
 */
public final class TopicTail<V> implements AutoCloseable {

    private final KafkaConsumer<String, V> consumer;
    private final Function<V, Object> unwrap;
    private final List<Object> events = new ArrayList<>();

    /** @param unwrap the event inside an envelope */
    public TopicTail(String bootstrapServers, String topic, Deserializer<V> values, Function<V, Object> unwrap) {
        this.unwrap = unwrap;
        this.consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10), new StringDeserializer(), values);
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Waits up to {@code timeout} for the first event of {@code type} that matches, from the beginning. */
    public <T> T await(Class<T> type, Predicate<T> matching, Duration timeout) {
        List<T> found = new ArrayList<>();
        Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(20)).until(() -> {
            List<T> all = all(type, matching);
            if (all.isEmpty()) {
                return false;
            }
            found.add(all.get(0));
            return true;
        });
        return found.get(0);
    }

    /** Every event of {@code type} that matches, among all read so far, after reading what is new. */
    public synchronized <T> List<T> all(Class<T> type, Predicate<T> matching) {
        consumer.poll(Duration.ofMillis(50)).forEach(record -> events.add(unwrap.apply(record.value())));
        List<T> matches = new ArrayList<>();
        for (Object event : events) {
            if (type.isInstance(event) && matching.test(type.cast(event))) {
                matches.add(type.cast(event));
            }
        }
        return matches;
    }

    @Override
    public synchronized void close() {
        consumer.close();
    }
}
