package dev.cairn.kit.operator;

import dev.cairn.kit.align.Alignment;
import dev.cairn.kit.task.Partitioning;
import dev.cairn.kit.wire.KitRecords;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * An operator subtask's results as kit records on a topic that the next task reads: data records to the partition
 * of their key group (among the next task's max parallelism, {@link Partitioning#forKey}), barrier N into every
 * partition when the subtask's input aligned on N, and at every start (restore or rollback) a resume record into every
 * partition with the new generation and the checkpoint restored from. One idempotent producer ({@code acks=all}) keeps
 * each partition's records in the order written.
 *
 * <p>Kafka may give up on a batch ({@code delivery.timeout.ms}, while a partition has no leader) and still deliver a
 * later batch to the same partition: a barrier could then arrive downstream without a record before it. So
 * {@link #barrier} and {@link #start} return only once Kafka confirmed every record sent so far, and throw when one
 * was lost: the subtask acknowledges no checkpoint whose records did not all reach Kafka, stops, and restarts from
 * the latest completed checkpoint. A failed send is also kept in {@link #failure()}, which the task checks after
 * every batch it reads.
 */
public final class KitTopicOutput implements TaskOutput {

    private final String topic;
    private final int subtask;
    private final int downstreamMaxParallelism;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private Producer<byte[], byte[]> producer;
    private int partitions;
    private long generation = -1;

    /**
     * An output to {@code topic} written by subtask {@code subtask}.
     *
     * @param clientConfig {@code bootstrap.servers} and security settings; idempotence and acks are set here
     */
    public KitTopicOutput(String topic, int subtask, Map<String, Object> clientConfig) {
        this(topic, subtask, Partitioning.DEFAULT_MAX_PARALLELISM, clientConfig);
    }

    /**
     * An output to {@code topic} written by subtask {@code subtask}, read by a task of max parallelism
     * {@code downstreamMaxParallelism}: a record goes to the partition of its key group among that many.
     *
     * @param clientConfig {@code bootstrap.servers} and security settings; idempotence and acks are set here
     */
    public KitTopicOutput(String topic, int subtask, int downstreamMaxParallelism, Map<String, Object> clientConfig) {
        this(topic, subtask, downstreamMaxParallelism, () -> new KafkaProducer<>(producerSettings(topic, subtask,
                clientConfig), new ByteArraySerializer(), new ByteArraySerializer()));
    }

    /** An output through the producer {@code producers} makes at the first start. */
    KitTopicOutput(String topic, int subtask, Supplier<Producer<byte[], byte[]>> producers) {
        this(topic, subtask, Partitioning.DEFAULT_MAX_PARALLELISM, producers);
    }

    private KitTopicOutput(String topic, int subtask, int downstreamMaxParallelism,
            Supplier<Producer<byte[], byte[]>> producers) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.subtask = subtask;
        Partitioning.keyGroup(new byte[0], downstreamMaxParallelism);
        this.downstreamMaxParallelism = downstreamMaxParallelism;
        this.producers = Objects.requireNonNull(producers, "producers");
    }

    private static Map<String, Object> producerSettings(String topic, int subtask, Map<String, Object> clientConfig) {
        Map<String, Object> settings = new HashMap<>(clientConfig);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "cairn-kit-output-" + topic + "-" + subtask);
        return settings;
    }

    /**
     * Writes the resume records of the new generation and waits until Kafka confirmed them (and every record before).
     *
     * @throws IllegalStateException when a record sent so far was not delivered
     */
    @Override
    public void start(long restoredFrom, Optional<String> snapshotDirectory, long newGeneration, boolean chosen) {
        if (producer == null) {
            producer = producers.get();
            partitions = producer.partitionsFor(topic).size();
        }
        generation = newGeneration;
        KitRecords.resumes(topic, partitions, restoredFrom, generation, subtask).forEach(this::send);
        confirm("the resume records of generation " + generation);
    }

    @Override
    public void emit(byte[] key, byte[] value) {
        int partition = Partitioning.forKey(key, partitions, downstreamMaxParallelism, subtask);
        send(KitRecords.data(topic, partition, key, value, subtask, generation));
    }

    @Override
    /**
     * Writes barrier {@code checkpointId} into every partition and waits until Kafka confirmed it and every record
     * before it.
     *
     * @throws IllegalStateException when a record sent so far was not delivered: the checkpoint must not be
     *     acknowledged
     */
    public Sealed barrier(long checkpointId, Alignment alignment) {
        KitRecords.barriers(topic, partitions, checkpointId, subtask, generation, alignment).forEach(this::send);
        confirm("barrier " + checkpointId);
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

    private void confirm(String what) {
        producer.flush();
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("subtask " + subtask + " writing " + topic + " lost a record before "
                    + what + ": " + failed + "; it acknowledges nothing after it and stops", failed);
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
