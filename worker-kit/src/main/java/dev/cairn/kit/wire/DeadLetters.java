package dev.cairn.kit.wire;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a kit task puts an input record it cannot process (malformed kit headers, an unknown upstream subtask): the
 * record's key, value and headers unchanged, on a dead-letter topic, with headers saying why
 * ({@value #REASON}) and where it came from ({@value #TOPIC}, {@value #PARTITION}, {@value #OFFSET}). The task goes
 * on; a dead letter that cannot be written is kept in {@link #failure()}, and the task stops on it rather than lose
 * the record.
 */
public final class DeadLetters implements AutoCloseable {

    /** Why the record was not processed. */
    public static final String REASON = "cairn.kit.dead-letter.reason";
    /** The topic the record was read from. */
    public static final String TOPIC = "cairn.kit.dead-letter.topic";
    /** The partition it was read from. */
    public static final String PARTITION = "cairn.kit.dead-letter.partition";
    /** Its offset there. */
    public static final String OFFSET = "cairn.kit.dead-letter.offset";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    private final String topic;
    private final String who;
    private final Map<String, Object> settings;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private KafkaProducer<byte[], byte[]> producer;

    /**
     * Dead letters of task {@code who} on {@code topic}.
     *
     * @param clientConfig {@code bootstrap.servers} and security settings
     */
    public DeadLetters(String topic, String who, Map<String, Object> clientConfig) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.who = Objects.requireNonNull(who, "who");
        Map<String, Object> producerSettings = new HashMap<>(clientConfig);
        producerSettings.put(ProducerConfig.ACKS_CONFIG, "all");
        producerSettings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "cairn-kit-dead-letters-" + who);
        this.settings = producerSettings;
    }

    /** Writes {@code record} to the dead-letter topic with {@code reason}. */
    public void send(ConsumerRecord<byte[], byte[]> record, String reason) {
        if (producer == null) {
            producer = new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
        }
        Headers headers = new RecordHeaders(record.headers().toArray())
                .add(REASON, reason.getBytes(StandardCharsets.UTF_8))
                .add(TOPIC, record.topic().getBytes(StandardCharsets.UTF_8))
                .add(PARTITION, Integer.toString(record.partition()).getBytes(StandardCharsets.US_ASCII))
                .add(OFFSET, Long.toString(record.offset()).getBytes(StandardCharsets.US_ASCII));
        LOG.warn("Task {}: {}-{} at offset {} goes to {}: {}", who, record.topic(), record.partition(),
                record.offset(), topic, reason);
        producer.send(new ProducerRecord<>(topic, null, record.key(), record.value(), headers), (metadata, error) -> {
            if (error != null && failure.compareAndSet(null, error)) {
                LOG.error("Task {}: a dead letter could not be written to {}", who, topic, error);
            }
        });
    }

    /**
     * Waits until Kafka confirmed every dead letter sent so far: what a task calls before it acknowledges a
     * checkpoint whose input held them.
     *
     * @throws IllegalStateException when a dead letter could not be written
     */
    public void confirm() {
        if (producer != null) {
            producer.flush();
        }
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("task " + who + ": a dead letter could not be written to " + topic + ": "
                    + failed, failed);
        }
    }

    /** Why a dead letter could not be written, when one could not. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close();
        }
    }
}
