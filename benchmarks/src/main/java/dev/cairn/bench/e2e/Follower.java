package dev.cairn.bench.e2e;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows every partition of one topic from its end at creation, committed records only ({@code read_committed},
 * {@code fetch.max.wait.ms} 20 as a sidecar reads {@code cairn.control}), handing each record to a handler and
 * keeping none. Not thread-safe: one thread polls.
 *
 * @param <V> the value type
 */
final class Follower<V> implements AutoCloseable {

    /** {@code fetch.max.wait.ms} of the task sidecar's control consumer. */
    static final int SIDECAR_FETCH_MAX_WAIT_MS = 20;

    private static final Duration POLL = Duration.ofMillis(20);

    private final String topic;
    private final KafkaConsumer<String, V> consumer;

    Follower(String bootstrap, String topic, Deserializer<V> values) {
        this.topic = topic;
        this.consumer = new KafkaConsumer<>(settings(bootstrap), new StringDeserializer(), values);
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // fix the end now, before anything new is produced
    }

    /** Consumer settings of every reader of the benchmark: committed records, sidecar-like fetch waits. */
    static Map<String, Object> settings(String bootstrap) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, SIDECAR_FETCH_MAX_WAIT_MS);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return config;
    }

    /**
     * Polls, handing every record to {@code handler}, until {@code done} is true; after each poll runs
     * {@code check} (which may throw to give up).
     *
     * @throws RowFailedException when {@code done} is still false after {@code timeout}
     */
    void pollUntil(Consumer<ConsumerRecord<String, V>> handler, BooleanSupplier done, Duration timeout,
            Runnable check, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new RowFailedException("timed out: no " + what + " on " + topic + " within " + timeout);
            }
            consumer.poll(POLL).forEach(handler);
            check.run();
        }
    }

    /** Hands whatever has arrived to {@code handler} without waiting for more. */
    void pollNow(Consumer<ConsumerRecord<String, V>> handler) {
        consumer.poll(Duration.ZERO).forEach(handler);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
