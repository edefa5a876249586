package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.CheckpointType;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a source task decides without a broker: refused restores and settings, early snapshots. */
class KafkaSourceTaskTest {

    private static final String NO_BROKER = "localhost:1";

    @TempDir
    Path dir;

    private final SourceTaskConfig config = SourceTaskConfig.of("orders-src", 1, 2, "in", "out", NO_BROKER);

    @Test
    void shouldDeclineASnapshotBeforeTheTaskWasRestored() {
        // given
        KafkaSourceTask task = new KafkaSourceTask(config, SourceFunction.identity());
        SnapshotRequest request = SnapshotRequest.forTask(1, 0, CheckpointType.CHECKPOINT, dir.toString(), "job",
                "orders-src", 1, CheckpointOptions.DEFAULTS);

        // when / then
        assertThatThrownBy(() -> task.snapshot(request).toCompletableFuture().get())
                .isInstanceOf(ExecutionException.class).hasMessageContaining("not running");
    }

    @Test
    void shouldRefuseToRestoreAnotherSubtasksStateBeforeConnecting() throws IOException {
        // given the state of subtask 0
        Path file = dir.resolve("source-orders-src-0.state");
        long size = SourceStateCodec.write(new FileStorage(), file.toString(),
                new SourceState("orders-src", 0, 3, 42, "in", Map.of(0, 7L)));
        KafkaSourceTask task = new KafkaSourceTask(config, SourceFunction.identity());

        // when / then
        assertThatThrownBy(() -> task.restore(Optional.of(new RestorePoint(3, file.toUri().toString(), size))))
                .isInstanceOf(IOException.class).hasMessageContaining("subtask 0").hasMessageContaining("own");
        assertThat(task.generation()).isEqualTo(-1);
    }

    @Test
    void shouldRefuseToRestoreACorruptState() throws IOException {
        // given
        Path file = dir.resolve("source-orders-src-1.state");
        Files.write(file, new byte[] {1, 2, 3});
        KafkaSourceTask task = new KafkaSourceTask(config, SourceFunction.identity());

        // when / then
        assertThatThrownBy(() -> task.restore(Optional.of(new RestorePoint(3, file.toString(), 3))))
                .isInstanceOf(IOException.class).hasMessageContaining("truncated");
    }

    @Test
    void shouldSendWithAcksAllAndIdempotenceAndNeverCommitInputOffsets() {
        assertThat(config.producerSettings()).containsEntry("acks", "all").containsEntry("enable.idempotence", true)
                .containsEntry("bootstrap.servers", NO_BROKER);
        assertThat(config.consumerSettings()).containsEntry("enable.auto.commit", false)
                .containsEntry("isolation.level", "read_committed").doesNotContainKey("group.id");
    }

    @Test
    void shouldRefuseClientSettingsTheTaskOwns() {
        assertThatThrownBy(() -> new SourceTaskConfig("s", 0, 1, "in", "out", Map.of("bootstrap.servers", NO_BROKER,
                "group.id", "mine"), SourceTaskConfig.StartFrom.EARLIEST, false, Duration.ofMillis(100)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group.id");
    }

    @Test
    void shouldRefuseASubtaskOutsideTheParallelismAndAnIdThatCannotNameAFile() {
        assertThatThrownBy(() -> SourceTaskConfig.of("s", 2, 2, "in", "out", NO_BROKER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subtask 2 of 2");
        assertThatThrownBy(() -> SourceTaskConfig.of("../s", 0, 1, "in", "out", NO_BROKER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("task id");
    }
}
