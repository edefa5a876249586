package dev.cairn.pipeline;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The pipeline's input, deterministic: event {@code i} (0 to {@code events - 1}) has the key {@code k<i % keys>} and
 * the value {@code i} as decimal text. In: the number of events and of keys. Out: the events, produced to
 * {@code <job>.events} by {@link #produce}, and how many events each key has ({@link #expectedCounts}), which is
 * what the pipeline's final count of each key must be.
 *
 * @param events how many events
 * @param keys over how many keys
 */
public record InputEvents(int events, int keys) {

    public InputEvents {
        if (events < 0 || keys < 1) {
            throw new IllegalArgumentException("the input has 0 or more events over 1 or more keys, was " + events
                    + " over " + keys);
        }
    }

    /** The key of event {@code i}. */
    public static String keyOf(int i, int keys) {
        return "k" + (i % keys);
    }

    /** Each key's number of events, in key order of first appearance. */
    public Map<String, Long> expectedCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int k = 0; k < Math.min(keys, events); k++) {
            counts.put(keyOf(k, keys), (long) (events / keys + (k < events % keys ? 1 : 0)));
        }
        return counts;
    }

    /**
     * Produces events {@code from} (inclusive) to {@code to} (exclusive) to {@code topic}, idempotently with
     * {@code acks=all}, and waits until the broker has them all.
     *
     * @throws IllegalStateException when a send fails
     */
    public void produce(String bootstrapServers, String topic, int from, int to) {
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 5),
                new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < to && failed.get() == null; i++) {
                producer.send(new ProducerRecord<>(topic, keyOf(i, keys), Integer.toString(i)), (metadata, error) -> {
                    if (error != null) {
                        failed.compareAndSet(null, error);
                    }
                });
            }
            producer.flush();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("cannot produce the input events to " + topic + ": " + failed.get(),
                    failed.get());
        }
    }
}
