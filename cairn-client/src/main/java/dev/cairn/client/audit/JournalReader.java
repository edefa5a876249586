package dev.cairn.client.audit;

import dev.cairn.core.audit.JournalEntry;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.SchemaCatalog;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.events.topics.JobPartitions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the journal topic for the audit, without a consumer group: {@code read_committed}, every partition (or
 * only a job's) assigned and read from its beginning up to the end offsets taken when the read starts, or up to an
 * offset or a time. Values are decoded here (with every frozen schema version, {@link CairnSerdes#journal()}, and
 * for a journal named {@code <prefix>journal} with the schemas a coordinator of another release published on
 * {@code <prefix>schemas}, {@link SchemaCatalog}); a record that does not decode is handed on as such, with the
 * reason. When a job is named, only records keyed by it are decoded and handed on.
 */
public final class JournalReader {

    /**
     * Polls of up to 2,000 records: the next fetch is under way while a batch is decoded and folded. Measured on
     * the replay benchmark against 500 (slower) and 10,000 with 8 MiB partition fetches (slower: more garbage).
     * The benchmark's plain consumers read with the same settings, so that they compare like with like.
     */
    public static final Map<String, Object> FAST_FETCH = Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2_000);

    /** How long to wait for the topic's metadata and offsets: Kafka unreachable shows within this. */
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What to read.
     *
     * @param jobId only this job's partition and records; {@code null}: every partition, every record
     * @param untilOffset with a job: the last offset of its partition to read; {@code null}: to the end
     * @param untilTimestampMs stop a partition at its first record with a later timestamp; {@code null}: never
     */
    public record Bounds(String jobId, Long untilOffset, Long untilTimestampMs) {

        /** Every record of every partition, to the end. */
        public static final Bounds ALL = new Bounds(null, null, null);

        public Bounds {
            if (untilOffset != null && jobId == null) {
                throw new IllegalArgumentException("an offset bound needs a job (offsets are per partition)");
            }
        }
    }

    /** Told how far a read is, after every poll. */
    public interface Progress {
        Progress NONE = (read, total) -> { };

        /** {@code read} of {@code total} offsets of the read range are behind. */
        void advanced(long read, long total);

        /** The read ended. */
        default void finished() {
        }
    }

    /**
     * What a read covered.
     *
     * @param records records handed on
     * @param partitions the partitions read, with the offset each read started at (the partition's first: Kafka
     *     keeps nothing before it) and the offset it stopped before
     */
    public record Summary(long records, Map<Integer, long[]> partitions) {

        /** The partitions read, by number, each with the offsets it holds from and was read to. */
        public List<History> history() {
            return partitions.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> new History(e.getKey(), e.getValue()[0], e.getValue()[1])).toList();
        }
    }

    /**
     * The history one partition holds and a read replayed.
     *
     * @param partition the partition
     * @param firstOffset its first offset: above 0 when records before it were deleted (a finite retention,
     *     compaction or deleted records), which no replay can see
     * @param endOffset the offset the read stopped before
     */
    public record History(int partition, long firstOffset, long endOffset) {

        /** Whether records were deleted from the partition's head. */
        public boolean headDeleted() {
            return firstOffset > 0;
        }

        /** {@code partition 0 offsets 0 to 41}, {@code partition 2 empty}, with the deleted head said. */
        public String describe() {
            String range = endOffset > firstOffset ? "offsets " + firstOffset + " to " + (endOffset - 1) : "empty";
            return "partition " + partition + " " + range + (headDeleted() ? " (the " + firstOffset
                    + " records before were deleted)" : "");
        }
    }

    private final Map<String, Object> config;

    /** @param clientConfig the consumer's connection settings (bootstrap servers, security); fetch sizes may be set */
    public JournalReader(Map<String, Object> clientConfig) {
        this.config = new HashMap<>(FAST_FETCH);
        config.putAll(clientConfig);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG,
                "cairn-audit-" + UUID.randomUUID().toString().substring(0, 8));
    }

    /**
     * Reads {@code topic} within {@code bounds}, handing every record to {@code sink} in partition order.
     *
     * @throws AuditException when the topic does not exist, Kafka cannot be reached, an offset bound is past the
     *     partition's end, or the read does not end within {@code timeout}
     */
    public Summary read(String topic, Bounds bounds, Consumer<JournalEntry> sink, Progress progress, Duration timeout) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            Duration metadata = timeout.compareTo(METADATA_TIMEOUT) < 0 ? timeout : METADATA_TIMEOUT;
            List<TopicPartition> partitions = partitions(consumer, topic, bounds.jobId(), metadata);
            consumer.assign(partitions);
            Map<TopicPartition, Long> start = consumer.beginningOffsets(partitions, metadata);
            Map<TopicPartition, Long> stop = new HashMap<>(consumer.endOffsets(partitions, metadata));
            if (bounds.untilOffset() != null) {
                TopicPartition partition = partitions.get(0);
                long end = stop.get(partition);
                if (bounds.untilOffset() >= end || bounds.untilOffset() < start.get(partition)) {
                    throw new AuditException("offset " + bounds.untilOffset() + " is not in partition "
                            + partition.partition() + " of " + topic + " (job " + bounds.jobId()
                            + "), which holds offsets " + start.get(partition) + " to " + (end - 1));
                }
                stop.put(partition, bounds.untilOffset() + 1);
            }
            start.forEach(consumer::seek);
            long total = partitions.stream().mapToLong(p -> stop.get(p) - start.get(p)).sum();
            long records = drain(consumer, topic, bounds, start, stop, sink, progress, total, timeout);
            progress.finished();
            Map<Integer, long[]> covered = new HashMap<>();
            partitions.forEach(p -> covered.put(p.partition(), new long[] {start.get(p), stop.get(p)}));
            return new Summary(records, covered);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new AuditException("cannot read " + topic + " from Kafka at " + config.get(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + " (is it reachable?): " + e.getMessage(), e);
        } catch (KafkaException e) {
            throw new AuditException("cannot read " + topic + ": " + e.getMessage(), e);
        }
    }

    private long drain(KafkaConsumer<String, byte[]> consumer, String topic, Bounds bounds,
            Map<TopicPartition, Long> start, Map<TopicPartition, Long> stop, Consumer<JournalEntry> sink,
            Progress progress, long total, Duration timeout) {
        Map<TopicPartition, Long> next = new HashMap<>(start);
        List<TopicPartition> open = new ArrayList<>();
        stop.forEach((p, end) -> {
            if (start.get(p) < end) {
                open.add(p);
            }
        });
        long deadline = System.nanoTime() + timeout.toNanos();
        long records = 0;
        JournalDecoder decoder = new JournalDecoder(CairnTopics.of(topic, CairnTopics::journal)
                .map(topics -> SchemaCatalog.fromTopic(config, topics.schemas())).orElse(null));
        try (DecodingPipeline pipeline = new DecodingPipeline(record -> entry(decoder, topic, record), sink)) {
            while (!open.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new AuditException("read " + read(next, start) + " of " + total + " offsets of " + topic
                            + " but not the rest within " + timeout.toMillis() + " ms");
                }
                ConsumerRecords<String, byte[]> polled = consumer.poll(Duration.ofMillis(200));
                List<ConsumerRecord<String, byte[]>> batch = new ArrayList<>(polled.count());
                for (TopicPartition partition : polled.partitions()) {
                    if (open.contains(partition)) {
                        next.put(partition, keep(polled.records(partition), next.get(partition), stop.get(partition),
                                bounds, batch));
                    }
                }
                records += batch.size();
                pipeline.hand(batch);
                for (TopicPartition partition : new ArrayList<>(open)) {
                    if (next.get(partition) >= stop.get(partition)
                            || consumer.position(partition) >= stop.get(partition)) {
                        next.put(partition, stop.get(partition));
                        open.remove(partition);
                        consumer.pause(List.of(partition));
                    }
                }
                progress.advanced(read(next, start), total);
            }
            pipeline.finish();
        }
        return records;
    }

    /**
     * Adds the partition's records within the bounds to {@code batch} (only the job's, when one is named).
     *
     * @return the offset to read next, {@code stop} once a bound is reached
     */
    private static long keep(List<ConsumerRecord<String, byte[]>> records, long current, long stop, Bounds bounds,
            List<ConsumerRecord<String, byte[]>> batch) {
        long next = current;
        for (ConsumerRecord<String, byte[]> record : records) {
            if (record.offset() >= stop || (bounds.untilTimestampMs() != null
                    && record.timestamp() > bounds.untilTimestampMs())) {
                return stop;
            }
            next = record.offset() + 1;
            if (bounds.jobId() == null || bounds.jobId().equals(record.key())) {
                batch.add(record);
            }
        }
        return next;
    }

    private static JournalEntry entry(JournalDecoder decoder, String topic, ConsumerRecord<String, byte[]> record) {
        try {
            SpecificRecord event = decoder.decode(topic, record.value());
            return JournalEntry.of(record.partition(), record.offset(), record.timestamp(), record.key(), event);
        } catch (EventDecodingException e) {
            return JournalEntry.undecodable(record.partition(), record.offset(), record.timestamp(), record.key(),
                    e.getMessage());
        }
    }

    private static long read(Map<TopicPartition, Long> next, Map<TopicPartition, Long> start) {
        return next.entrySet().stream().mapToLong(e -> e.getValue() - start.get(e.getKey())).sum();
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic, String jobId,
            Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new AuditException("topic " + topic + " does not exist (is --topic-prefix the coordinator's?)");
        }
        if (jobId != null) {
            return List.of(new TopicPartition(topic, JobPartitions.of(jobId, infos.size())));
        }
        return infos.stream().map(info -> new TopicPartition(topic, info.partition()))
                .sorted(java.util.Comparator.comparingInt(TopicPartition::partition)).toList();
    }
}
