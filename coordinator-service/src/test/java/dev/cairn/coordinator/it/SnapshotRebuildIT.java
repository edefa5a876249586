package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.streams.SnapshotStore;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.SnapshotManifest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots on a real broker, in the signed default mode: a running coordinator writes a snapshot of its journal
 * partition to the snapshots topic; once the journal records before the snapshot are deleted (as a finite retention
 * deletes them), a coordinator of a new application id, which has no store nor changelog, rebuilds every job from
 * the snapshot and the journal after it, and goes on with the pending checkpoint and the next ids. Without the
 * snapshot the same rebuild would refuse the partition (its head was deleted).
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
            assertThat(snapshot.getJournalRecords()).as("every record below its position folded")
                    .isEqualTo(snapshot.getJournalOffset() - transactionMarkers(kafka, journal,
                            snapshot.getJournalOffset()));

            cairn.restartAsNewApplication(second, oldApplication -> {
                deleteGroup(kafka, oldApplication);
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

    private static void deleteGroup(KafkaCluster kafka, String group) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            await().atMost(CoordinatorTestBed.WAIT).ignoreExceptions()
                    .until(() -> admin.deleteConsumerGroups(List.of(group)).all().get() == null);
        }
    }
}
