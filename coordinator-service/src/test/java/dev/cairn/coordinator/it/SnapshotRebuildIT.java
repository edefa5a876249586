package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.streams.KafkaSnapshotStore;
import dev.cairn.coordinator.streams.Snapshot;
import dev.cairn.coordinator.streams.SnapshotStore;
import dev.cairn.coordinator.streams.StoreLayout;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.events.TimerIndex;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.SnapshotManifest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots on a real broker, in the signed default mode: a running coordinator writes a snapshot of its journal
 * partition to the snapshots topic; once the journal records before the snapshot are deleted (as a finite retention
 * deletes them), a coordinator of a new application id, which has no store nor changelog, rebuilds every job from
 * the snapshot and the journal after it, and goes on with the pending checkpoint and the next ids. Without the
 * snapshot the same rebuild would refuse the partition (its head was deleted). And the snapshots topic as a reader
 * finds it after writers stopped half way or wrote garbage: the newest whole snapshot of this layout is read, and the
 * next writer removes what is left of the others.
 */
@ExtendWith(KafkaClusterExtension.class)
class SnapshotRebuildIT {

    private static final List<String> TASKS = List.of("source", "sink");

    @Test
    void shouldRebuildFromTheSnapshotAndTheJournalAfterItWhenTheRecordsBeforeItWereDeleted(KafkaCluster kafka,
            @TempDir Path first, @TempDir Path second) {
        String job = CoordinatorTestBed.uniqueJobId("snapshot");
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, first).partitions(1)
                .kafkaProperty(SnapshotStore.INTERVAL_CONFIG, "300").start()) {
            cairn.register(Events.job(job, 400, 60_000, TASKS.toArray(String[]::new)));
            TASKS.forEach(task -> cairn.startTask(job, task, 0, task + "-1"));
            CheckpointTriggered completedOne = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job));
            TASKS.forEach(task -> cairn.ack(job, completedOne.getCheckpointId(), task, 0, task + "-1"));
            cairn.awaitNextControl(CheckpointCompleted.class,
                    c -> c.getCheckpointId() == completedOne.getCheckpointId());
            CheckpointTriggered pending = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getCheckpointId() > completedOne.getCheckpointId());
            cairn.ack(job, pending.getCheckpointId(), "source", 0, "source-1");
            cairn.awaitJournal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)
                    && a.getCheckpointId() == pending.getCheckpointId());
            JobState before = cairn.liveJob(job);
            TopicPartition journal = new TopicPartition(cairn.topics().journal(), 0);
            long journalEnd = endOffset(kafka, journal);
            SnapshotManifest snapshot = await("a snapshot of the whole journal").atMost(CoordinatorTestBed.WAIT)
                    .until(() -> newestManifest(kafka, new TopicPartition(cairn.topics().snapshots(), 0)),
                            manifest -> manifest.isPresent() && manifest.get().getJournalOffset() >= journalEnd)
                    .orElseThrow();
            MeterRegistry registry = cairn.coordinator().metrics().registry();
            await("the snapshot in the metrics").atMost(CoordinatorTestBed.WAIT).until(() -> {
                Gauge offset = registry.find("cairn.snapshot.journal.offset").tag("partition", "0").gauge();
                return offset != null && offset.value() >= snapshot.getJournalOffset();
            });
            assertThat(registry.get("cairn.snapshots").tag("partition", "0").counter().count()).isPositive();
            assertThat(registry.find("cairn.snapshot.failures").counters()).as("no snapshot failed").isEmpty();
            assertThat(snapshot.getJournalRecords()).as("every record below its position folded")
                    .isEqualTo(snapshot.getJournalOffset() - transactionMarkers(kafka, journal,
                            snapshot.getJournalOffset()));

            cairn.restartAsNewApplication(second, oldApplication -> {
                StoreRebuildIT.deleteGroup(kafka, oldApplication);
                deleteJournalBefore(kafka, journal, snapshot.getJournalOffset());
            });

            JobState rebuilt = await("job rebuilt").atMost(CoordinatorTestBed.WAIT)
                    .until(() -> cairn.liveJob(job), java.util.Objects::nonNull);
            assertThat(rebuilt.getPending()).isEqualTo(before.getPending());
            assertThat(rebuilt.getNextCheckpointId()).isEqualTo(before.getNextCheckpointId());
            assertThat(rebuilt.getCounts()).isEqualTo(before.getCounts());
            cairn.ack(job, pending.getCheckpointId(), "sink", 0, "sink-1");
            CheckpointCompleted goneOn = cairn.awaitNextControl(CheckpointCompleted.class,
                    c -> c.getJobId().equals(job) && c.getCheckpointId() == pending.getCheckpointId());
            assertThat(goneOn.getSubtaskCount()).isEqualTo(TASKS.size());
            CheckpointTriggered next = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job) && t.getCheckpointId() > pending.getCheckpointId());
            assertThat(next.getCheckpointId()).isEqualTo(pending.getCheckpointId() + 1);
            assertThat(cairn.journal(CheckpointTriggered.class, t -> t.getJobId().equals(job)
                    && t.getCheckpointId() > completedOne.getCheckpointId()
                    && t.getCheckpointId() <= pending.getCheckpointId()))
                    .as("the pending checkpoint not triggered again: the inputs the snapshot reflects were skipped")
                    .hasSize(1);
        }
    }

    @Test
    void shouldReadTheNewestWholeSnapshotAndRemoveWhatIsLeftOfOlderOnes(KafkaCluster kafka) throws Exception {
        CairnTopics topics = new CairnTopics("snapshots-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopics(1, topics.journal(), topics.snapshots());
        Map<String, Object> app = Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "snapshot-store",
                StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        KafkaSnapshotStore store = new KafkaSnapshotStore();
        TopicPartition partition = new TopicPartition(topics.snapshots(), 0);
        store.write(app, topics.journal(), snapshot(10, StoreLayout.CURRENT, topics.acks()));
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(partition.topic(), 0, "snapshot/30/0", new byte[] {7})).get();
            producer.send(new ProducerRecord<>(partition.topic(), 0, "manifest", new byte[] {1, 2, 3})).get();
        }

        assertThat(store.latest(app, topics.journal(), 0)).as("a record under the manifest key that does not "
                + "decode, and the chunk of a writer stopped half way, leave the snapshot before whole")
                .hasValueSatisfying(read -> {
                    assertThat(read.journalOffset()).isEqualTo(10);
                    assertThat(read.timers()).isEqualTo(snapshot(10, StoreLayout.CURRENT, topics.acks()).timers());
                    assertThat(read.inputPositions()).isEqualTo(Map.of(topics.acks(), 9L));
                });

        store.write(app, topics.journal(), snapshot(20, StoreLayout.CURRENT, topics.acks()));

        assertThat(store.latest(app, topics.journal(), 0)).map(Snapshot::journalOffset).contains(20L);
        assertThat(liveKeys(kafka, partition)).as("older chunks and the stray one removed")
                .containsExactlyInAnyOrder("manifest", "snapshot/20/0");

        store.write(app, topics.journal(), snapshot(30, StoreLayout.CURRENT + 1, topics.acks()));

        assertThat(store.latest(app, topics.journal(), 0)).as("a snapshot of another store layout is not used")
                .isEmpty();
    }

    /** A snapshot of an empty state, with two timers and the position of one input. */
    private static Snapshot snapshot(long journalOffset, long layout, String input) {
        return new Snapshot(0, journalOffset, journalOffset, 0, 1_000, layout, CoordinatorState.inMemory(),
                Set.of(new TimerIndex.Timer("job-a", 2_000), new TimerIndex.Timer("job-b", 3_000)),
                Map.of(input, 9L));
    }

    /** The keys of the partition whose newest record is not a tombstone. */
    private static Set<String> liveKeys(KafkaCluster kafka, TopicPartition partition) {
        Map<String, Boolean> live = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records(kafka, partition, endOffset(kafka, partition))) {
            live.put(new String(record.key(), StandardCharsets.UTF_8), record.value() != null);
        }
        return live.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    private static Map<String, Object> consumerConfig(KafkaCluster kafka) {
        return Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    }

    private static long endOffset(KafkaCluster kafka, TopicPartition partition) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(kafka),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return consumer.endOffsets(List.of(partition)).get(partition);
        }
    }

    /** The offsets below {@code end} that hold no record a reader sees: the journal's transaction markers. */
    private static long transactionMarkers(KafkaCluster kafka, TopicPartition journal, long end) {
        return end - records(kafka, journal, end).size();
    }

    private static List<ConsumerRecord<byte[], byte[]>> records(KafkaCluster kafka, TopicPartition partition,
            long end) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(kafka),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<ConsumerRecord<byte[], byte[]>> records = new java.util.ArrayList<>();
            while (consumer.position(partition) < end) {
                consumer.poll(Duration.ofMillis(200)).records(partition).stream()
                        .filter(record -> record.offset() < end).forEach(records::add);
            }
            return records;
        }
    }

    private static Optional<SnapshotManifest> newestManifest(KafkaCluster kafka, TopicPartition snapshots) {
        SnapshotManifest newest = null;
        for (ConsumerRecord<byte[], byte[]> record : records(kafka, snapshots, endOffset(kafka, snapshots))) {
            if ("manifest".equals(new String(record.key(), StandardCharsets.UTF_8)) && record.value() != null) {
                newest = (SnapshotManifest) CairnSerdes.snapshots().deserialize(snapshots.topic(), record.value())
                        .getPart();
            }
        }
        return Optional.ofNullable(newest);
    }

    private static void deleteJournalBefore(KafkaCluster kafka, TopicPartition journal, long offset) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.deleteRecords(Map.of(journal, RecordsToDelete.beforeOffset(offset))).all().get();
            assertThat(admin.listOffsets(Map.of(journal, org.apache.kafka.clients.admin.OffsetSpec.earliest()))
                    .partitionResult(journal).get().offset()).as("the journal's head deleted").isEqualTo(offset);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
