package dev.cairn.bench.audit;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.events.SnapshotEnvelope;
import dev.cairn.events.SnapshotManifest;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The snapshots the rebuild benchmark starts its coordinators from, made once before the repeats: a coordinator of an
 * application id of its own, with a snapshot every {@link #INTERVAL}, runs until the newest manifest of every journal
 * partition that has records covers the partition's committed end ({@code journalOffset >= } its
 * {@code read_committed} end offset, both read again every half second), then stops. What it measured: the seconds
 * from its start until then (its own rebuild from the journal's first record and its first snapshots' folds of the
 * whole journal included), and the newest manifest of every partition.
 *
 * @param seconds from the coordinator's start until every partition's snapshot covered its journal
 * @param manifests the newest manifest by partition (none for a partition whose journal has no record)
 */
record SnapshotsMade(double seconds, Map<Integer, SnapshotManifest> manifests) {

    /** The snapshot interval of the coordinator that makes them. */
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private static final Duration POLL = Duration.ofMillis(200);
    private static final AvroEventSerde<SnapshotEnvelope> SERDE = CairnSerdes.snapshots();

    /** Starts the coordinator over {@code topics}, waits for the snapshots (at most {@code limit}), stops it. */
    static SnapshotsMade make(String bootstrap, CairnTopics topics, int partitions, Path stateDir, Duration limit)
            throws InterruptedException {
        List<TopicPartition> journal = IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(topics.journal(), p)).toList();
        List<TopicPartition> snapshots = IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(topics.snapshots(), p)).toList();
        Map<Integer, SnapshotManifest> newest = new TreeMap<>();
        long started = System.nanoTime();
        try (CoordinatorApp app = CoordinatorApp.start(RebuildBenchmark.config(bootstrap, "snapshots-maker",
                topics, partitions, stateDir, SigningKey.generate(), INTERVAL));
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
            consumer.assign(snapshots);
            consumer.seekToBeginning(snapshots);
            long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                Map<TopicPartition, Long> ends = consumer.endOffsets(journal);
                readNewest(consumer, snapshots, newest);
                List<String> behind = new ArrayList<>();
                for (TopicPartition partition : journal) {
                    long end = ends.get(partition);
                    SnapshotManifest manifest = newest.get(partition.partition());
                    if (end > 0 && (manifest == null || manifest.getJournalOffset() < end)) {
                        behind.add(partition.partition() + " (journal end " + end + ", snapshot at "
                                + (manifest == null ? "none" : manifest.getJournalOffset()) + ")");
                    }
                }
                if (behind.isEmpty()) {
                    return new SnapshotsMade((System.nanoTime() - started) / 1e9, Map.copyOf(newest));
                }
                if (System.nanoTime() > deadline || app.stopped().isDone()) {
                    throw new IllegalStateException("no snapshot of every journal partition up to its end within "
                            + limit + " (coordinator stopped: " + app.stopped().isDone() + "); behind: " + behind);
                }
                TimeUnit.MILLISECONDS.sleep(500);
            }
        }
    }

    /** Reads the snapshots partitions on from where the consumer is up to their end, keeping each newest manifest. */
    private static void readNewest(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> snapshots,
            Map<Integer, SnapshotManifest> newest) {
        Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(snapshots));
        while (snapshots.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                if (record.key() != null && record.value() != null
                        && "manifest".equals(new String(record.key(), StandardCharsets.UTF_8))
                        && SERDE.deserialize(record.topic(), record.value()).getPart()
                                instanceof SnapshotManifest manifest) {
                    newest.put(record.partition(), manifest);
                }
            }
        }
    }

    /** Entries in the newest snapshots, summed over the partitions. */
    long entries() {
        return manifests.values().stream().mapToLong(SnapshotManifest::getEntries).sum();
    }

    /** Chunks of the newest snapshots, summed over the partitions. */
    long chunks() {
        return manifests.values().stream().mapToLong(SnapshotManifest::getChunks).sum();
    }

    /** The journal offsets of the newest snapshots, by partition. */
    Map<Integer, Long> journalOffsets() {
        Map<Integer, Long> offsets = new TreeMap<>();
        manifests.forEach((partition, manifest) -> offsets.put(partition, manifest.getJournalOffset()));
        return offsets;
    }
}
