package dev.cairn.kit.sink;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka side of a write-ahead sink subtask: one transactional producer ({@code transactional.id} =
 * {@code <sinkId>-<subtask>}) writes the committed epochs to the output topic and the commit marker to the
 * compacted {@code <output>.commits} topic (key {@code <sinkId>-<subtask>}, value the checkpoint id as decimal
 * text) in one transaction.
 *
 * <p>{@link #initialise()} calls {@code initTransactions()} first: that fences every earlier producer with the same
 * transactional id and completes (or aborts) a transaction it left, so the marker read afterwards is final. The
 * marker is read with {@code read_committed} up to the partitions' high watermarks, not just to their last stable
 * offsets: another subtask's open transaction on the same partition would otherwise hide a marker committed
 * after it began. So a restore waits for the transactions other subtasks of the sink have open on the commits
 * topic: a live subtask's commit is short, a crashed one's is aborted when its own next incarnation initialises or
 * after its {@code transaction.timeout.ms}.
 *
 * <p>A failed commit leaves the producer unusable (Kafka offers no way to resume a transaction of a crashed
 * producer): it is closed and {@link SinkFailedException} says whether the cause was fencing. The commits topic
 * must exist (compacted); it is not created here.
 */
final class KafkaEpochCommitter implements EpochCommitter {

    private static final Duration POLL = Duration.ofMillis(100);

    private final WriteAheadSinkConfig config;
    private final byte[] markerKey;
    private KafkaProducer<byte[], byte[]> producer;

    KafkaEpochCommitter(WriteAheadSinkConfig config) {
        this.config = config;
        this.markerKey = config.transactionalId().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public OptionalLong initialise() {
        Map<String, Object> settings = new HashMap<>(config.clientConfig());
        settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, config.transactionalId());
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, config.timeout().toMillis());
        try {
            producer = new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
            producer.initTransactions();
        } catch (KafkaException e) {
            closeProducer();
            throw new SinkFailedException("sink " + config.transactionalId() + " cannot initialise its "
                    + "transactional producer: " + e, isFenced(e), e);
        }
        return readMarker();
    }

    @Override
    public void commit(List<Epoch> epochs, long marker) {
        if (producer == null) {
            throw new IllegalStateException("sink " + config.transactionalId() + ": initialise before committing");
        }
        try {
            producer.beginTransaction();
            for (Epoch epoch : epochs) {
                for (SinkRecord record : epoch.records()) {
                    producer.send(new ProducerRecord<>(config.outputTopic(), record.key(), record.value()));
                }
            }
            producer.send(new ProducerRecord<>(config.commitsTopic(), markerKey,
                    Long.toString(marker).getBytes(StandardCharsets.UTF_8)));
            producer.commitTransaction();
        } catch (KafkaException e) {
            closeProducer();
            if (isFenced(e)) {
                throw new SinkFailedException("sink " + config.transactionalId() + " was fenced while committing "
                        + "checkpoint " + marker + ": a newer incarnation of this subtask took over its "
                        + "transactional id, so this one stops; the newer one commits what this one had pending",
                        true, e);
            }
            throw new SinkFailedException("sink " + config.transactionalId() + " could not commit checkpoint "
                    + marker + " (" + e + "); it stops, and the incarnation restored from the latest completed "
                    + "checkpoint commits the pending records", false, e);
        }
    }

    @Override
    public void close() {
        closeProducer();
    }

    private OptionalLong readMarker() {
        String topic = config.commitsTopic();
        Map<String, Object> settings = new HashMap<>(config.clientConfig());
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (Admin admin = Admin.create(config.clientConfig());
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, config.timeout());
            if (infos == null || infos.isEmpty()) {
                throw new SinkFailedException("sink " + config.transactionalId() + " cannot read its commit marker: "
                        + "the topic " + topic + " does not exist; create it (cleanup.policy=compact) before "
                        + "starting the sink", false, null);
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            Map<TopicPartition, Long> ends = highWatermarks(admin, partitions);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return readUpTo(consumer, ends);
        } catch (KafkaException e) {
            throw new SinkFailedException("sink " + config.transactionalId() + " cannot read its commit marker "
                    + "from " + topic + ": " + e, false, e);
        }
    }

    private Map<TopicPartition, Long> highWatermarks(Admin admin, List<TopicPartition> partitions) {
        try {
            Map<TopicPartition, ListOffsetsResultInfo> offsets = admin.listOffsets(
                    partitions.stream().collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest())),
                    new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                    .all().get(config.timeout().toMillis(), TimeUnit.MILLISECONDS);
            return offsets.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SinkFailedException("interrupted while reading the end of " + config.commitsTopic(), false, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new SinkFailedException("sink " + config.transactionalId() + " cannot read the end of "
                    + config.commitsTopic() + ": " + e, false, e);
        }
    }

    private OptionalLong readUpTo(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        long deadline = System.nanoTime() + config.timeout().toNanos();
        OptionalLong marker = OptionalLong.empty();
        while (!reached(consumer, ends)) {
            if (System.nanoTime() - deadline > 0) {
                throw new SinkFailedException("sink " + config.transactionalId() + " could not read "
                        + config.commitsTopic() + " up to " + ends + " within " + config.timeout()
                        + " (an open transaction on it?)", false, null);
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                if (Arrays.equals(record.key(), markerKey)) {
                    marker = parse(record);
                }
            }
        }
        return marker;
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (consumer.position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    private OptionalLong parse(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return OptionalLong.empty();
        }
        String text = new String(record.value(), StandardCharsets.UTF_8);
        try {
            return OptionalLong.of(Long.parseLong(text.strip()));
        } catch (NumberFormatException e) {
            throw new SinkFailedException("the commit marker of sink " + config.transactionalId() + " at "
                    + record.topic() + "-" + record.partition() + "@" + record.offset() + " is not a checkpoint id: \""
                    + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"", false, e);
        }
    }

    private static boolean isFenced(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProducerFencedException || cause instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }

    private void closeProducer() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }
}
