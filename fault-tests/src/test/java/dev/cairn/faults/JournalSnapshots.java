package dev.cairn.faults;

import dev.cairn.events.SnapshotEnvelope;
import dev.cairn.events.SnapshotManifest;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The journal and the snapshots topic of a run, as a coordinator reads them (read_committed): each journal
 * partition's first and end offsets, the newest {@link SnapshotManifest} of each snapshots partition (the snapshot of
 * the journal partition of the same number), and {@link #deleteBefore deletion} of journal records as a finite
 * retention deletes them.
 */
final class JournalSnapshots {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The key of a partition's manifests ({@code SnapshotCodec.MANIFEST_KEY}). */
    private static final String MANIFEST_KEY = "manifest";

    /**
     * What the snapshots topic holds.
     *
     * @param newest the newest manifest's journal offset of each partition that has one
     * @param written the manifests the topic holds in all (every snapshot written, until compaction removes some)
     */
    record Manifests(Map<Integer, Long> newest, int written) {}

    private final String bootstrapServers;
    private final CairnTopics topics;
    private final AvroEventSerde<SnapshotEnvelope> serde = CairnSerdes.snapshots();

    JournalSnapshots(String bootstrapServers, CairnTopics topics) {
        this.bootstrapServers = bootstrapServers;
        this.topics = topics;
    }

    /** The end offset of every journal partition (its last stable offset: what a read_committed reader reaches). */
    Map<Integer, Long> journalEnds() {
        try (KafkaConsumer<String, byte[]> consumer = consumer()) {
            return byPartition(consumer.endOffsets(partitions(consumer, topics.journal()), TIMEOUT));
        }
    }

    /** The first offset of every journal partition (above 0 once records were deleted from its head). */
    Map<Integer, Long> journalStarts() {
        try (KafkaConsumer<String, byte[]> consumer = consumer()) {
            return byPartition(consumer.beginningOffsets(partitions(consumer, topics.journal()), TIMEOUT));
        }
    }

    /** Reads the snapshots topic from its first record to its end. */
    Manifests manifests() {
        Map<Integer, Long> newest = new TreeMap<>();
        int written = 0;
        try (KafkaConsumer<String, byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer, topics.snapshots());
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TIMEOUT);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topics.snapshots() + " not read to its end " + ends + " within "
                            + TIMEOUT);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (MANIFEST_KEY.equals(record.key()) && record.value() != null
                            && serde.deserialize(record.topic(), record.value()).getPart()
                                    instanceof SnapshotManifest manifest) {
                        newest.put(record.partition(), manifest.getJournalOffset());
                        written++;
                    }
                }
            }
        }
        return new Manifests(newest, written);
    }

    /**
     * Deletes the records of each journal partition of {@code offsets} below its offset ({@code Admin.deleteRecords},
     * as a retention deletes a log's head); returns each partition's first offset then.
     */
    Map<Integer, Long> deleteBefore(Map<Integer, Long> offsets) {
        Map<TopicPartition, RecordsToDelete> deletions = new HashMap<>();
        offsets.forEach((partition, offset) -> deletions.put(new TopicPartition(topics.journal(), partition),
                RecordsToDelete.beforeOffset(offset)));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.deleteRecords(deletions).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("deleting " + deletions + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting journal records", e);
        }
        return journalStarts();
    }

    private KafkaConsumer<String, byte[]> consumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false), new StringDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer, String topic) {
        return consumer.partitionsFor(topic, TIMEOUT).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
    }

    private static Map<Integer, Long> byPartition(Map<TopicPartition, Long> offsets) {
        Map<Integer, Long> byPartition = new TreeMap<>();
        offsets.forEach((partition, offset) -> byPartition.put(partition.partition(), offset));
        return byPartition;
    }
}
