package dev.cairn.demo.acls;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What a principal meets when it tries what its ACLs do not allow, with plain Kafka clients of its settings: each
 * method tries one thing and returns the exception Kafka answered with ({@code null} when it was allowed).
 */
final class Refusals {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String TIMEOUT_MS = "15000";
    private static final String DELIVERY_TIMEOUT_MS = "20000";
    private static final byte[] BYTES = {1, 2, 3};

    private Refusals() {
    }

    /** Produces one record to partition 0 of {@code topic} and waits for the broker's answer. */
    static Throwable writing(Map<String, Object> client, String topic) {
        return producing(client, Map.of(), topic);
    }

    /** As {@link #writing}, with a producer that is not idempotent (it needs no producer id). */
    static Throwable writingWithoutIdempotence(Map<String, Object> client, String topic) {
        return producing(client, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.ACKS_CONFIG, "1"), topic);
    }

    /** Reads partition 0 of {@code topic} from its beginning, without a group, as Cairn's readers do. */
    static Throwable reading(Map<String, Object> client, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(client, Map.of())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
            return firstFailure(consumer);
        }
    }

    /** Reads {@code topic} as a member of the consumer group {@code group}. */
    static Throwable readingInGroup(Map<String, Object> client, String group, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(client, Map.of(ConsumerConfig.GROUP_ID_CONFIG, group))) {
            consumer.subscribe(List.of(topic));
            return firstFailure(consumer);
        }
    }

    /** Starts a transactional producer with {@code transactionalId} ({@code initTransactions}). */
    static Throwable transacting(Map<String, Object> client, String transactionalId) {
        try (KafkaProducer<byte[], byte[]> producer = producer(client,
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId))) {
            producer.initTransactions();
            return null;
        } catch (KafkaException e) {
            return e;
        }
    }

    private static Throwable producing(Map<String, Object> client, Map<String, Object> settings, String topic) {
        try (KafkaProducer<byte[], byte[]> producer = producer(client, settings)) {
            producer.send(new ProducerRecord<>(topic, 0, BYTES, BYTES)).get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (KafkaException e) {
            return brokersAnswer(e);
        } catch (TimeoutException e) {
            return e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    /**
     * What the broker answered: a producer whose producer id was refused before {@code send} was called throws a
     * plain {@link KafkaException} ("in an error state") whose cause is the broker's refusal.
     */
    private static Throwable brokersAnswer(KafkaException e) {
        return e.getClass() == KafkaException.class && e.getCause() instanceof KafkaException cause ? cause : e;
    }

    /** Polls until the consumer fails; fails the test when it reads on for {@link #WAIT} without a refusal. */
    private static Throwable firstFailure(KafkaConsumer<byte[], byte[]> consumer) {
        AtomicReference<Throwable> refused = new AtomicReference<>();
        await().atMost(WAIT).until(() -> {
            try {
                consumer.poll(Duration.ofMillis(100));
                return false;
            } catch (KafkaException e) {
                refused.set(e);
                return true;
            }
        });
        return refused.get();
    }

    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> client, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT_MS);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS);
        config.putAll(settings);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> client, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putAll(settings);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
