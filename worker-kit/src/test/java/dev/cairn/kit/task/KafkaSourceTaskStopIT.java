package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.task.KitOutput.Entry;
import dev.cairn.kit.wire.KitRecord;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source subtask at a stop-with-savepoint, against the in-JVM KRaft broker, driven through the hook directly: it
 * emits nothing after the savepoint's barrier, reads on when the stop fails, and stops when it completes.
 */
@ExtendWith(KafkaClusterExtension.class)
class KafkaSourceTaskStopIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int BATCH = 100;

    @TempDir
    Path dir;

    private KafkaCluster kafka;
    private String input;
    private String output;
    private KafkaSourceTask task;

    @BeforeEach
    void startTask(KafkaCluster cluster) throws IOException {
        kafka = cluster;
        input = "stop-in-" + UUID.randomUUID();
        output = "stop-out-" + UUID.randomUUID();
        cluster.createTopics(1, input);
        cluster.createTopics(2, output);
        task = new KafkaSourceTask(SourceTaskConfig.of("orders-src", 0, 1, input, output, kafka.bootstrapServers()),
                SourceFunction.identity());
        task.restore(Optional.empty());
    }

    @AfterEach
    void closeTask() throws InterruptedException {
        task.close();
    }

    @Test
    void shouldEmitNothingAfterTheStopsBarrierAndReadOnWhenTheStopFails() throws Exception {
        // given a source that read a first batch
        produce(BATCH);
        awaitDataRecords(BATCH);

        // when it takes a stop-with-savepoint, more input arrives, and a checkpoint is taken before the stop fails
        SourceState stop = state(snapshot(1, CheckpointType.SAVEPOINT, PostCheckpointAction.SUSPEND));
        produce(BATCH);
        SourceState during = state(snapshot(2, CheckpointType.CHECKPOINT, PostCheckpointAction.NONE));
        task.notifyAborted(new CheckpointAbort(1, -1, true));

        // then nothing was read between the two barriers, and once the stop failed the rest is read
        assertThat(stop.positions()).containsEntry(0, (long) BATCH);
        assertThat(during.positions()).isEqualTo(stop.positions());
        assertThat(stop.ended()).isFalse();
        awaitDataRecords(2 * BATCH);
        for (List<Entry> partition : KitOutput.read(kafka.bootstrapServers(), output).values()) {
            assertThat(between(partition, 1, 2)).noneMatch(entry -> entry.kind() instanceof KitRecord.Data);
        }
        assertThat(task.isRunning()).isTrue();
    }

    @Test
    void shouldEndItsInputAtADrainedStopAndStopWhenItCompletes() throws Exception {
        // given a source that read a first batch
        produce(BATCH);
        awaitDataRecords(BATCH);

        // when it takes a stop-with-savepoint with drain, which completes
        SourceState stop = state(snapshot(1, CheckpointType.SAVEPOINT, PostCheckpointAction.TERMINATE));
        task.notifyComplete(new CheckpointCompletion(1, -1, true, true));

        // then its snapshot says the input ended, and it stops without a failure
        assertThat(stop.ended()).isTrue();
        assertThat(stop.positions()).containsEntry(0, (long) BATCH);
        await().atMost(WAIT).until(() -> !task.isRunning());
        assertThat(task.isStopped()).isTrue();
        assertThat(task.failure()).isEmpty();
    }

    private static List<Entry> between(List<Entry> partition, long first, long second) {
        int from = -1;
        int to = partition.size();
        for (int i = 0; i < partition.size(); i++) {
            if (partition.get(i).kind() instanceof KitRecord.Barrier barrier) {
                from = barrier.checkpointId() == first ? i : from;
                to = barrier.checkpointId() == second ? i : to;
            }
        }
        assertThat(from).as("barrier " + first).isNotNegative();
        return partition.subList(from + 1, to);
    }

    private SnapshotResult snapshot(long checkpointId, CheckpointType type, PostCheckpointAction action)
            throws Exception {
        CheckpointOptions options = new CheckpointOptions(BackupType.FULL, SavepointFormat.CANONICAL, action,
                AlignmentType.ALIGNED, -1);
        String location = dir.resolve("chk-" + checkpointId).toUri().toString();
        SnapshotRequest request = SnapshotRequest.forTask(checkpointId, 0, type, location, "job", "orders-src", 0,
                options);
        return task.snapshot(request).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static SourceState state(SnapshotResult result) throws IOException {
        return SourceStateCodec.read(new FileStorage(), result.location());
    }

    private void awaitDataRecords(long count) {
        await().atMost(WAIT).until(() -> KitOutput.read(kafka.bootstrapServers(), output).values().stream()
                .flatMap(List::stream).filter(entry -> entry.kind() instanceof KitRecord.Data).count() >= count);
    }

    private void produce(int count) {
        InputRecords.produce(kafka.bootstrapServers(), input, 0, count);
    }
}
