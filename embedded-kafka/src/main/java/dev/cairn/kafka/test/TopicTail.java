package dev.cairn.kafka.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows every partition of one topic (committed records only, as Cairn's readers do) and keeps every
 * record it has read, so that a test can wait for an event, wait for the <em>next</em> one after what it
 * already consumed, or look at all of them. Waiting is polling the consumer until a deadline. Thread-safe.
 *
 * @param <V> the topic's value type (an envelope); {@code unwrap} turns a value into the event inside
 */
public final class TopicTail<V> implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(20);

    private final String topic;
    private final KafkaConsumer<String, V> consumer;
    private final Function<V, Object> unwrap;
    private final List<ConsumerRecord<String, V>> records = new ArrayList<>();
    private int cursor;

    private TopicTail(Map<String, ?> clientProperties, String topic, Deserializer<V> values,
            Function<V, Object> unwrap) {
        this.topic = topic;
        this.unwrap = unwrap;
        Map<String, Object> config = new HashMap<>(clientProperties);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), values);
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Follows the topic from its beginning. */
    public static <V> TopicTail<V> fromBeginning(String bootstrapServers, String topic, Deserializer<V> values,
            Function<V, Object> unwrap) {
        return fromBeginning(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topic, values, unwrap);
    }

    /**
     * Follows the topic from its beginning with a consumer of {@code clientProperties} ({@code bootstrap.servers}
     * and, on a secured cluster, the reader's security settings).
     */
    public static <V> TopicTail<V> fromBeginning(Map<String, ?> clientProperties, String topic,
            Deserializer<V> values, Function<V, Object> unwrap) {
        return new TopicTail<>(clientProperties, topic, values, unwrap);
    }

    /** The first event of {@code type} that matches among everything read; waits up to {@code timeout}. */
    public <T> T await(Class<T> type, Predicate<T> matching, Duration timeout) {
        return type.cast(unwrap.apply(awaitRecord(0, event(type, matching), timeout, "a " + type.getSimpleName())
                .value()));
    }

    /**
     * The first event of {@code type} that matches after the last one a {@code awaitNext...} call returned;
     * everything before it counts as consumed. Waits up to {@code timeout}.
     */
    public <T> T awaitNext(Class<T> type, Predicate<T> matching, Duration timeout) {
        return type.cast(unwrap.apply(awaitNextRecord(event(type, matching), timeout, "a " + type.getSimpleName())
                .value()));
    }

    /** Like {@link #awaitNext}, for a whole record (its timestamp, partition, offset). */
    public synchronized ConsumerRecord<String, V> awaitNextRecord(Predicate<ConsumerRecord<String, V>> matching,
            Duration timeout, String what) {
        ConsumerRecord<String, V> found = awaitRecord(cursor, matching, timeout, what);
        cursor = records.indexOf(found) + 1;
        return found;
    }

    /** Every event of {@code type} that matches, among everything read so far, after reading what is new. */
    public synchronized <T> List<T> all(Class<T> type, Predicate<T> matching) {
        readNew();
        List<T> matches = new ArrayList<>();
        for (ConsumerRecord<String, V> record : records) {
            Object event = unwrap.apply(record.value());
            if (type.isInstance(event) && matching.test(type.cast(event))) {
                matches.add(type.cast(event));
            }
        }
        return matches;
    }

    /** Every record read so far, headers included, after reading what is new. */
    public synchronized List<ConsumerRecord<String, V>> records() {
        readNew();
        return List.copyOf(records);
    }

    private synchronized ConsumerRecord<String, V> awaitRecord(int from, Predicate<ConsumerRecord<String, V>> matching,
            Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int checked = from;
        while (true) {
            Optional<ConsumerRecord<String, V>> found = records.subList(checked, records.size()).stream()
                    .filter(matching).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            checked = records.size();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " on " + topic + " within " + timeout);
            }
            readNew();
        }
    }

    private <T> Predicate<ConsumerRecord<String, V>> event(Class<T> type, Predicate<T> matching) {
        return record -> {
            Object event = unwrap.apply(record.value());
            return type.isInstance(event) && matching.test(type.cast(event));
        };
    }

    private void readNew() {
        consumer.poll(POLL).forEach(records::add);
    }

    @Override
    public synchronized void close() {
        consumer.close();
    }
}
