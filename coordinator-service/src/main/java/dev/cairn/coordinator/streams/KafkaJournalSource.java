package dev.cairn.coordinator.streams;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.message.SchemaStore;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * Reads a journal partition from Kafka with a consumer of its own, configured as Kafka Streams configures the
 * consumer that restores a changelog ({@link RestoreConsumers}), so that a rebuild folds exactly what the previous
 * owner of the partition committed. It tells the rebuild the partition's first offset (its log start offset, which is
 * above 0 when records were deleted from its head) and reads from the offset asked for up to the end offset it found
 * when it began; a partition that makes no progress for {@link #STALL} fails the rebuild, and Kafka Streams retries
 * the task.
 */
public final class KafkaJournalSource implements JournalSource {

    /** How long reading may make no progress before the rebuild fails. */
    static final Duration STALL = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(500);

    private final SchemaStore schemas;

    /** @param schemas where unknown schema fingerprints are looked up (the schemas topic's catalog) */
    public KafkaJournalSource(SchemaStore schemas) {
        this.schemas = schemas;
    }

    @Override
    public SchemaStore schemas() {
        return schemas;
    }

    @Override
    public long records(Map<String, Object> appConfigs, String topic, int partition) {
        TopicPartition journal = new TopicPartition(topic, partition);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(appConfigs, partition)) {
            List<TopicPartition> partitions = List.of(journal);
            return consumer.endOffsets(partitions, STALL).get(journal)
                    - consumer.beginningOffsets(partitions, STALL).get(journal);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> appConfigs, int partition) {
        return RestoreConsumers.open(appConfigs, "journal-rebuild-" + partition);
    }

    @Override
    public void read(Map<String, Object> appConfigs, String topic, int partition, long fromOffset,
            RecordSink sink) {
        TopicPartition journal = new TopicPartition(topic, partition);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(appConfigs, partition)) {
            consumer.assign(List.of(journal));
            long first = consumer.beginningOffsets(List.of(journal)).get(journal);
            sink.start(first);
            consumer.seek(journal, Math.max(first, fromOffset));
            long end = consumer.endOffsets(List.of(journal)).get(journal);
            sink.end(end);
            long lastProgress = System.nanoTime();
            while (consumer.position(journal) < end) {
                List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(POLL).records(journal);
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (record.offset() >= end) {
                        return;
                    }
                    sink.accept(record.offset(), record.headers(), record.value());
                }
                if (!records.isEmpty()) {
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                    throw new StreamsException("reading " + journal + " made no progress for " + STALL.toSeconds()
                            + " s at offset " + consumer.position(journal) + " of " + end);
                }
            }
        }
    }
}
