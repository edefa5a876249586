package dev.cairn.kit.task;

import static dev.cairn.kit.task.InputRecords.ORIGIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.align.Alignment;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.task.KitOutput.Entry;
import dev.cairn.kit.wire.KitRecord;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two source subtasks over a 2-partition input and a 3-partition output, against the in-JVM KRaft broker, driven
 * through the hook directly (no coordinator, no sidecar). The source function writes each input record's origin
 * ({@code partition:offset}) as the output value, so the test can tell which input produced which output.
 */
@ExtendWith(KafkaClusterExtension.class)
class KafkaSourceTaskIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int BATCH = 100;

    @TempDir
    Path dir;

    private KafkaCluster kafka;
    private String input;
    private String output;
    private final List<KafkaSourceTask> tasks = new ArrayList<>();

    @BeforeEach
    void createTopics(KafkaCluster cluster) {
        kafka = cluster;
        input = "source-in-" + UUID.randomUUID();
        output = "source-out-" + UUID.randomUUID();
        cluster.createTopics(2, input);
        cluster.createTopics(3, output);
    }

    @AfterEach
    void closeTasks() throws InterruptedException {
        for (KafkaSourceTask task : tasks) {
            task.close();
        }
    }

    @Test
    void shouldWriteTheBarrierAfterExactlyTheOutputsOfTheInputBeforeTheSnapshotsPositions() throws Exception {
        // given two running subtasks that processed a first batch of input
        produce(0, BATCH);
        KafkaSourceTask zero = start(0);
        KafkaSourceTask one = start(1);
        awaitDataRecords(BATCH);

        // when checkpoint 1 is taken while a second batch arrives
        produce(BATCH, BATCH);
        SnapshotResult first = snapshot(zero, 1);
        SnapshotResult second = snapshot(one, 1);
        Map<Integer, Long> positions = new TreeMap<>(state(first).positions());
        positions.putAll(state(second).positions());
        awaitDataRecords(2 * BATCH);

        // then the state files hold each subtask's partitions, and the barriers split the output at those positions
        assertThat(state(first).positions()).containsOnlyKeys(0);
        assertThat(state(second).positions()).containsOnlyKeys(1);
        assertThat(state(first).generation()).isEqualTo(zero.generation());
        assertThat(positions.values()).allMatch(position -> position >= BATCH / 2 && position <= BATCH);
        Map<Integer, List<Entry>> out = KitOutput.read(kafka.bootstrapServers(), output);
        for (int subtask = 0; subtask < 2; subtask++) {
            for (Map.Entry<Integer, List<Entry>> partition : out.entrySet()) {
                assertSplitByBarrier(partition.getValue(), subtask, 1, positions);
            }
        }
        assertThat(first.finished()).isFalse();
    }

    @Test
    void shouldReplayExactlyTheInputFromTheRestoredPositionsUnderANewerGenerationAfterAResumeRecord()
            throws Exception {
        // given subtask 0 took checkpoint 1 in the middle of its input, then went on and was closed
        produce(0, BATCH);
        KafkaSourceTask crashed = start(0);
        awaitDataRecords(BATCH / 2);
        SnapshotResult snapshot = snapshot(crashed, 1);
        produce(BATCH, BATCH);
        awaitDataRecords(BATCH);
        crashed.close();
        SourceState state = state(snapshot);

        // when a new incarnation restores checkpoint 1
        KafkaSourceTask restored = task(0);
        restored.restore(Optional.of(new RestorePoint(1, snapshot.location(), snapshot.sizeBytes())));
        long replayed = BATCH - state.positions().get(0);
        awaitDataRecords(BATCH + replayed);

        // then every output partition starts the new generation with its resume record, and the new generation's
        // data records are exactly the input from the restored position on, once each
        assertThat(restored.generation()).isGreaterThan(crashed.generation());
        Map<Integer, List<Entry>> out = KitOutput.read(kafka.bootstrapServers(), output);
        List<String> replay = new ArrayList<>();
        for (List<Entry> partition : out.values()) {
            List<Entry> newer = partition.stream().filter(e -> e.generation() == restored.generation()).toList();
            assertThat(newer.get(0).kind()).isEqualTo(new KitRecord.Resume(0, restored.generation(), 1));
            assertThat(partition.indexOf(newer.get(0)))
                    .isGreaterThan(lastIndexOf(partition, e -> e.generation() == crashed.generation()));
            newer.stream().filter(e -> e.isDataOf(0)).forEach(e -> replay.add(e.value()));
        }
        List<String> expected = new ArrayList<>();
        for (long offset = state.positions().get(0); offset < BATCH; offset++) {
            expected.add("0:" + offset);
        }
        assertThat(replay).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void shouldPickADifferentGreaterGenerationForEachLaterAttemptRestoringTheSameCheckpoint() throws Exception {
        // given a checkpoint of subtask 0, taken by its attempt numbered 4
        produce(0, 10);
        KafkaSourceTask original = task(0);
        original.restore(Optional.empty(), new AttemptNumber("first", 4));
        SnapshotResult snapshot = snapshot(original, 1);
        original.close();
        RestorePoint point = new RestorePoint(1, snapshot.location(), snapshot.sizeBytes());

        // when later attempts restore it twice
        KafkaSourceTask again = task(0);
        again.restore(Optional.of(point), new AttemptNumber("second", 5));
        again.close();
        KafkaSourceTask thrice = task(0);
        thrice.restore(Optional.of(point), new AttemptNumber("third", 11));

        // then each incarnation has its own, growing generation, and announced it in every output partition
        assertThat(List.of(original.generation(), again.generation(), thrice.generation())).isSorted()
                .doesNotHaveDuplicates();
        await().atMost(WAIT).untilAsserted(() -> {
            for (List<Entry> partition : KitOutput.read(kafka.bootstrapServers(), output).values()) {
                assertThat(partition).filteredOn(e -> e.kind() instanceof KitRecord.Resume).map(Entry::generation)
                        .containsExactly(original.generation(), again.generation(), thrice.generation());
            }
        });
    }

    @Test
    void shouldAnswerFinishedOnceABoundedInputIsExhausted() throws Exception {
        // given a bounded subtask over 20 input records
        produce(0, 20);
        KafkaSourceTask bounded = new KafkaSourceTask(new SourceTaskConfig("orders-src", 0, 2, input, output,
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                SourceTaskConfig.StartFrom.EARLIEST, true, Duration.ofMillis(100)), ORIGIN);
        tasks.add(bounded);
        bounded.restore(Optional.empty());

        // when its input is read, then its snapshot says it finished, at the end of its partition
        await().atMost(WAIT).untilAsserted(() -> {
            SnapshotResult result = snapshot(bounded, 1);
            assertThat(result.finished()).isTrue();
            assertThat(state(result).positions()).containsEntry(0, 10L);
        });
    }

    @Test
    void shouldCarryTheTriggersAlignmentOnItsBarriersAndAlignAnUnalignedRequest() throws Exception {
        // given
        KafkaSourceTask task = start(0);

        // when checkpoint 1 asks for at-least-once and checkpoint 2 for unaligned barriers
        snapshot(task, 1, options(AlignmentType.AT_LEAST_ONCE));
        snapshot(task, 2, options(AlignmentType.UNALIGNED));

        // then every output partition has an at-least-once barrier 1 and an exactly-once (aligned) barrier 2
        for (List<Entry> partition : KitOutput.read(kafka.bootstrapServers(), output).values()) {
            assertThat(partition).filteredOn(e -> e.kind() instanceof KitRecord.Barrier).map(Entry::kind)
                    .containsExactly(new KitRecord.Barrier(1, 0, task.generation(), Alignment.AT_LEAST_ONCE),
                            new KitRecord.Barrier(2, 0, task.generation(), Alignment.EXACTLY_ONCE));
        }
    }

    private static CheckpointOptions options(AlignmentType alignment) {
        return new CheckpointOptions(BackupType.FULL, SavepointFormat.CANONICAL, PostCheckpointAction.NONE,
                alignment, -1);
    }

    @Test
    void shouldRefuseToRestoreAStateOfPartitionsThisSubtaskDoesNotRead() throws IOException {
        // given a state of subtask 0 that names partition 1 (written by a source of another parallelism), handed as
        // its own state, not as a rescaled restore point
        Path file = dir.resolve("source-orders-src-0.state");
        long size = SourceStateCodec.write(new FileStorage(), file.toString(),
                new SourceState("orders-src", 0, 1, 5, input, Map.of(0, 3L, 1, 4L)));
        KafkaSourceTask task = task(0);

        // when / then
        assertThatThrownBy(() -> task.restore(Optional.of(new RestorePoint(1, file.toString(), size))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without a rescaled restore point");
        assertThat(task.isRunning()).isFalse();
    }

    @Test
    void shouldStopAndDeclineTheNextSnapshotWhenASendFails() throws Exception {
        // given a source whose function makes a record larger than the producer may send
        produce(0, 2);
        KafkaSourceTask task = new KafkaSourceTask(config(0), input -> List.of(new SourceFunction.Output(input.key(),
                new byte[2 * 1024 * 1024])));
        tasks.add(task);
        task.restore(Optional.empty());

        // when the send fails, then the task stops with the send's error, and declines the next snapshot
        await().atMost(WAIT).until(() -> !task.isRunning());
        assertThat(task.failure()).get().asString().contains("RecordTooLarge");
        assertThatThrownBy(() -> snapshot(task, 1)).isInstanceOf(ExecutionException.class)
                .hasMessageContaining("not running").hasMessageContaining("RecordTooLarge");
    }

    @Test
    void shouldStopWithTheFunctionsErrorWhenTheSourceFunctionFails() throws Exception {
        // given
        produce(0, 2);
        KafkaSourceTask task = new KafkaSourceTask(config(0), input -> {
            throw new IllegalArgumentException("cannot parse " + new String(input.value(), StandardCharsets.UTF_8));
        });
        tasks.add(task);
        task.restore(Optional.empty());

        // when / then
        await().atMost(WAIT).until(() -> !task.isRunning());
        assertThat(task.failure()).get().asString().contains("cannot parse value-0");
    }

    private void assertSplitByBarrier(List<Entry> partition, int subtask, long checkpointId,
            Map<Integer, Long> positions) {
        List<Integer> barriers = new ArrayList<>();
        for (int i = 0; i < partition.size(); i++) {
            if (partition.get(i).kind() instanceof KitRecord.Barrier barrier && barrier.from() == subtask
                    && barrier.checkpointId() == checkpointId) {
                barriers.add(i);
            }
        }
        assertThat(barriers).as("barriers %d of subtask %d", checkpointId, subtask).hasSize(1);
        int barrier = barriers.get(0);
        for (int i = 0; i < partition.size(); i++) {
            Entry entry = partition.get(i);
            if (entry.isDataOf(subtask)) {
                String[] origin = entry.value().split(":");
                boolean before = Long.parseLong(origin[1]) < positions.get(Integer.parseInt(origin[0]));
                assertThat(i < barrier).as("record from input %s, barrier at %d, record at %d", entry.value(),
                        barrier, i).isEqualTo(before);
            }
        }
    }

    private static int lastIndexOf(List<Entry> partition, Predicate<Entry> test) {
        int last = -1;
        for (int i = 0; i < partition.size(); i++) {
            if (test.test(partition.get(i))) {
                last = i;
            }
        }
        return last;
    }

    private void awaitDataRecords(long count) {
        await().atMost(WAIT).untilAsserted(() -> {
            Set<String> data = new HashSet<>();
            long total = 0;
            for (List<Entry> partition : KitOutput.read(kafka.bootstrapServers(), output).values()) {
                for (Entry entry : partition) {
                    if (entry.kind() instanceof KitRecord.Data) {
                        data.add(entry.value());
                        total++;
                    }
                }
            }
            assertThat(total).isGreaterThanOrEqualTo(count);
            assertThat(data).isNotEmpty();
        });
    }

    private void produce(int from, int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(input, i % 2, "key-" + i, "value-" + i));
            }
            producer.flush();
        }
    }

    private SourceTaskConfig config(int subtask) {
        return SourceTaskConfig.of("orders-src", subtask, 2, input, output, kafka.bootstrapServers());
    }

    private KafkaSourceTask task(int subtask) {
        KafkaSourceTask task = new KafkaSourceTask(config(subtask), ORIGIN);
        tasks.add(task);
        return task;
    }

    @Test
    void shouldDeclineAndStopWhenACheckpointCompletedWithoutItsSnapshot() throws Exception {
        // given a source that took checkpoint 1
        produce(0, BATCH);
        KafkaSourceTask task = start(0);
        snapshot(task, 1);

        // when checkpoint 3 is requested, and the sidecar knows that checkpoint 2 completed (this task never took it)
        String location = dir.resolve("chk-3").toUri().toString();
        SnapshotRequest request = SnapshotRequest.forTask(3, 0, CheckpointType.CHECKPOINT, location, "job",
                "orders-src", 0, CheckpointOptions.DEFAULTS).withLatestCompletedId(2);

        // then the request is declined as behind, and the task stops with that reason
        assertThatThrownBy(() -> task.snapshot(request).toCompletableFuture().get(WAIT.toSeconds(),
                TimeUnit.SECONDS)).hasMessageContaining("is behind: checkpoint 2 completed");
        await().atMost(WAIT).until(() -> !task.isRunning());
        assertThat(task.failure()).hasValueSatisfying(failure -> assertThat(failure).hasMessageContaining("behind"));
    }

    @Test
    void shouldStopWhenTheCheckpointAfterItsRestorePointCompletesWithoutIt() throws Exception {
        // given a source restored from checkpoint 1
        produce(0, BATCH);
        KafkaSourceTask crashed = start(0);
        SnapshotResult first = snapshot(crashed, 1);
        crashed.close();
        KafkaSourceTask restored = task(0);
        restored.restore(Optional.of(new RestorePoint(1, first.location(), first.sizeBytes())));

        // when checkpoint 2, acknowledged by the crashed incarnation, completes; then checkpoint 1 is notified again
        restored.notifyComplete(1, -1);
        assertThat(restored.isRunning()).isTrue();
        restored.notifyComplete(2, 1);

        // then the restored incarnation is behind and stops
        await().atMost(WAIT).until(() -> !restored.isRunning());
        assertThat(restored.failure()).hasValueSatisfying(failure -> assertThat(failure)
                .hasMessageContaining("checkpoint 2 completed without a snapshot of this incarnation"));
    }

    private KafkaSourceTask start(int subtask) throws IOException {
        KafkaSourceTask task = task(subtask);
        task.restore(Optional.empty());
        return task;
    }

    private SnapshotResult snapshot(KafkaSourceTask task, long checkpointId) throws Exception {
        return snapshot(task, checkpointId, CheckpointOptions.DEFAULTS);
    }

    private SnapshotResult snapshot(KafkaSourceTask task, long checkpointId, CheckpointOptions options)
            throws Exception {
        String location = dir.resolve("chk-" + checkpointId).toUri().toString();
        SnapshotRequest request = SnapshotRequest.forTask(checkpointId, 0, CheckpointType.CHECKPOINT, location, "job",
                "orders-src", 0, options);
        return task.snapshot(request).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static SourceState state(SnapshotResult result) throws IOException {
        return SourceStateCodec.read(new FileStorage(), result.location());
    }
}
