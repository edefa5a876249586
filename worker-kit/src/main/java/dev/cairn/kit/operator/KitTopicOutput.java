package dev.cairn.kit.operator;

import dev.cairn.kit.align.Alignment;
import dev.cairn.kit.task.Partitioning;
import dev.cairn.kit.wire.KitRecords;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * An operator subtask's results as kit records on a topic that the next task reads: data records to the partition
 * of their key, barrier N into every partition when the subtask's input aligned on N, and at every start (restore or
 * rollback) a resume record into every partition with the new generation and the checkpoint restored from. One
 * idempotent producer ({@code acks=all}) keeps each partition's records in the order written. A failed send is
 * kept in {@link #failure()}; the task stops on it.
 */
public final class KitTopicOutput implements TaskOutput {

    private final String topic;
    private final int subtask;
    private final Map<String, Object> producerSettings;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private KafkaProducer<byte[], byte[]> producer;
    private int partitions;
    private long generation = -1;

    /**
     * An output to {@code topic} written by subtask {@code subtask}.
     *
     * @param clientConfig {@code bootstrap.servers} and security settings; idempotence and acks are set here
     */
    public KitTopicOutput(String topic, int subtask, Map<String, Object> clientConfig) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.subtask = subtask;
        Map<String, Object> settings = new HashMap<>(clientConfig);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "cairn-kit-output-" + topic + "-" + subtask);
        this.producerSettings = settings;
    }

    @Override
    public void start(long restoredFrom, Optional<Path> snapshotDirectory, long newGeneration, boolean chosen) {
        if (producer == null) {
            producer = new KafkaProducer<>(producerSettings, new ByteArraySerializer(), new ByteArraySerializer());
            partitions = producer.partitionsFor(topic).size();
        }
        generation = newGeneration;
        KitRecords.resumes(topic, partitions, restoredFrom, generation, subtask).forEach(this::send);
    }

    @Override
    public void emit(byte[] key, byte[] value) {
        send(KitRecords.data(topic, Partitioning.forKey(key, partitions, subtask), key, value, subtask, generation));
    }

    @Override
    public Sealed barrier(long checkpointId, Alignment alignment) {
        KitRecords.barriers(topic, partitions, checkpointId, subtask, generation, alignment).forEach(this::send);
        return Sealed.NOTHING;
    }

    @Override
    public void complete(long checkpointId) {
        // the records are written as they come; the next task's snapshot decides what they count for
    }

    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close();
        }
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        producer.send(record, (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
        });
    }
}
