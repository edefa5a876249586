package dev.cairn.kit.task;

import static dev.cairn.kit.task.InputRecords.ORIGIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cairn.events.CheckpointType;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.storage.S3Settings;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.kit.task.KitOutput.Entry;
import dev.cairn.kit.wire.KitRecord;
import dev.cairn.s3.S3ProxyServer.StoredObjects;
import dev.cairn.s3.S3ServerExtension;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A source subtask whose checkpoints' storage base is an {@code s3://} location: its state goes to a real S3 API
 * server in this JVM (S3Proxy), and a new incarnation restores from it, against the in-JVM KRaft broker.
 */
@ExtendWith(KafkaClusterExtension.class)
class KafkaSourceTaskOnS3IT {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int BATCH = 200;

    private static SnapshotStorages storage;

    private KafkaCluster kafka;
    private String input;
    private String output;
    private String jobKey;
    private final List<KafkaSourceTask> tasks = new ArrayList<>();

    @BeforeAll
    static void connect() {
        storage = SnapshotStorages.of(S3Settings.fromProperties(S3.server().settings()));
    }

    @AfterAll
    static void disconnect() {
        storage.close();
    }

    @BeforeEach
    void createTopics(KafkaCluster cluster) {
        kafka = cluster;
        input = "s3-source-in-" + UUID.randomUUID();
        output = "s3-source-out-" + UUID.randomUUID();
        jobKey = "checkpoints/" + UUID.randomUUID();
        cluster.createTopics(1, input, output);
    }

    @AfterEach
    void closeTasks() throws InterruptedException {
        for (KafkaSourceTask task : tasks) {
            task.close();
        }
    }

    @Test
    void shouldReplayFromThePositionsItKeptInS3WhenANewIncarnationRestores() throws Exception {
        // given a source that took checkpoint 1 into S3 after some of its input, read more, and was closed
        InputRecords.produce(kafka.bootstrapServers(), input, 0, BATCH);
        KafkaSourceTask crashed = task();
        crashed.restore(Optional.empty());
        awaitDataRecords(BATCH / 4);
        SnapshotResult snapshot = snapshot(crashed, 1);
        InputRecords.produce(kafka.bootstrapServers(), input, 0, BATCH);
        awaitDataRecords(2 * BATCH);
        crashed.close();
        long position = SourceStateCodec.read(storage, snapshot.location()).positions().get(0);

        // when a new incarnation restores checkpoint 1 from S3
        KafkaSourceTask restored = task();
        restored.restore(Optional.of(new RestorePoint(1, snapshot.location(), snapshot.sizeBytes())));
        awaitDataRecords(2 * BATCH + (2 * BATCH - position));

        // then the state is one object under the checkpoint's location, and the new generation replays exactly the
        // input from the restored position on
        assertThat(snapshot.location()).isEqualTo(S3.server().location(jobKey + "/chk-1/source-orders-src-0.state"));
        assertThat(S3.server().objects(jobKey)).isEqualTo(new StoredObjects(1, snapshot.sizeBytes()));
        assertThat(position).isBetween((long) BATCH / 4, (long) BATCH);
        List<String> replay = KitOutput.read(kafka.bootstrapServers(), output).get(0).stream()
                .filter(entry -> entry.isDataOf(0) && entry.generation() == restored.generation())
                .map(Entry::value).toList();
        List<String> expected = new ArrayList<>();
        for (long offset = position; offset < 2 * BATCH; offset++) {
            expected.add("0:" + offset);
        }
        assertThat(replay).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldRefuseToRestoreNamingTheS3LocationWhenTheStateWasCorruptedThere() throws Exception {
        // given a state in S3 whose last position byte was changed in the bucket
        String key = jobKey + "/chk-3/source-orders-src-0.state";
        String location = S3.server().location(key);
        SourceStateCodec.write(storage, location, new SourceState("orders-src", 0, 3, 7, input, Map.of(0, 5L)));
        byte[] bytes = S3.server().read(key);
        bytes[bytes.length - 10] ^= 1;
        S3.server().overwrite(key, bytes);
        KafkaSourceTask task = task();

        // when / then
        assertThatThrownBy(() -> task.restore(Optional.of(new RestorePoint(3, location, bytes.length))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("the source state " + location + " is corrupt: its checksum is");
        assertThat(task.generation()).isEqualTo(-1);
    }

    @Test
    void shouldRefuseToRestoreSayingTheStateDoesNotExistWhenNothingIsAtTheS3Location() {
        // given
        String location = S3.server().location(jobKey + "/chk-9/source-orders-src-0.state");
        KafkaSourceTask task = task();

        // when / then
        assertThatThrownBy(() -> task.restore(Optional.of(new RestorePoint(9, location, 40))))
                .isInstanceOf(IOException.class).hasMessage("the source state " + location + " does not exist");
    }

    private KafkaSourceTask task() {
        SourceTaskConfig config = SourceTaskConfig.of("orders-src", 0, 1, input, output, kafka.bootstrapServers())
                .withStorage(storage);
        KafkaSourceTask task = new KafkaSourceTask(config, ORIGIN);
        tasks.add(task);
        return task;
    }

    private SnapshotResult snapshot(KafkaSourceTask task, long checkpointId) throws Exception {
        String location = S3.server().location(jobKey + "/chk-" + checkpointId);
        SnapshotRequest request = SnapshotRequest.forTask(checkpointId, 0, CheckpointType.CHECKPOINT, location, "job",
                "orders-src", 0, CheckpointOptions.DEFAULTS);
        return task.snapshot(request).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private void awaitDataRecords(long count) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(KitOutput.read(kafka.bootstrapServers(), output)
                .values().stream().flatMap(List::stream).filter(entry -> entry.kind() instanceof KitRecord.Data)
                .count()).isGreaterThanOrEqualTo(count));
    }
}
