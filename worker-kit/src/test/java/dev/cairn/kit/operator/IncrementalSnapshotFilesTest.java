package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's snapshots on real files: an incremental checkpoint writes only the key groups that changed since the
 * last completed one and names the others as reused shared objects, so its size follows what changed; a FULL
 * checkpoint and a savepoint share nothing; a restore reads every group back and refuses a corrupt one.
 */
class IncrementalSnapshotFilesTest {

    private static final int KEYS = 2_000;

    @TempDir
    Path dir;

    private final KeyedState state = new KeyedState();
    private final IncrementalSnapshots incremental = new IncrementalSnapshots();
    private OperatorTaskConfig config;

    private OperatorTaskConfig config() {
        if (config == null) {
            config = new OperatorTaskConfig("count", 0, 1, 1, "job.keyed", Map.of("bootstrap.servers", "unused:9"),
                    Duration.ofMillis(50), new FileStorage());
        }
        return config;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void fill() {
        for (int i = 0; i < KEYS; i++) {
            state.put(bytes("key-" + i), bytes("value-" + i + "-".repeat(40)));
        }
    }

    /** Takes the snapshot of checkpoint {@code id} as the operator does: planned at the barrier, written on request. */
    private SnapshotResult snapshot(long id, CheckpointType type, BackupType backup) throws IOException {
        OperatorState header = new OperatorState("count", 0, id, 7, "job.keyed", InputPositions.NONE, Map.of());
        PendingState pending = new PendingState(header, incremental.plan(id, state,
                (group, entries) -> KeyGroupCodec.encode("count", 0, group, entries), false));
        String location = dir.resolve(type == CheckpointType.SAVEPOINT ? "savepoints/sp-" + id : "job/chk-" + id)
                .toUri().toString();
        SnapshotRequest request = new SnapshotRequest(id, 0, type, location, "job", "count", 0,
                new CheckpointOptions(backup, SavepointFormat.CANONICAL, PostCheckpointAction.NONE,
                        AlignmentType.ALIGNED, -1), null);
        return SnapshotFiles.write(config(), incremental, new SnapshotBook.Ready(
                new SnapshotBook.Aligned(id, pending, TaskOutput.Sealed.NOTHING),
                new SnapshotBook.Waiting(request, new CompletableFuture<>())));
    }

    @Test
    void shouldWriteOnlyTheChangedKeyGroupAndReuseTheOthersOfTheLastCompletedCheckpoint() throws IOException {
        fill();
        SnapshotResult first = snapshot(1, CheckpointType.CHECKPOINT, BackupType.INCREMENTAL);
        incremental.completed(1);
        state.put(bytes("key-7"), bytes("changed"));

        SnapshotResult second = snapshot(2, CheckpointType.CHECKPOINT, BackupType.INCREMENTAL);

        assertThat(first.shared()).hasSize(KeyGroups.COUNT).noneMatch(SharedObject::reused);
        assertThat(second.shared()).filteredOn(o -> !o.reused()).singleElement()
                .satisfies(o -> assertThat(o.location())
                        .contains("/job/shared/count-0/kg" + KeyGroups.of(bytes("key-7")) + "-c2-"));
        assertThat(second.shared()).filteredOn(SharedObject::reused).hasSize(KeyGroups.COUNT - 1);
        long newGroup = second.shared().stream().filter(o -> !o.reused()).mapToLong(SharedObject::sizeBytes).sum();
        assertThat(newGroup).as("one group's bytes").isLessThan(first.sizeBytes() / 100);
        assertThat(second.sizeBytes()).as("checkpoint 2 wrote one group of %d and the state file naming them all",
                KeyGroups.COUNT).isLessThan(first.sizeBytes() / 10);
        OperatorState restored = SnapshotFiles.read(config(), second.location());
        assertThat(restored.entries()).hasSize(KEYS);
        assertThat(new String(restored.entries().get(new KeyedState.Key(bytes("key-7"))), StandardCharsets.UTF_8))
                .isEqualTo("changed");
        assertThat(restored.groupsShared()).isTrue();
    }

    @Test
    void shouldWriteEveryGroupAnewForAFullCheckpoint() throws IOException {
        fill();
        snapshot(1, CheckpointType.CHECKPOINT, BackupType.INCREMENTAL);
        incremental.completed(1);

        SnapshotResult full = snapshot(2, CheckpointType.CHECKPOINT, BackupType.FULL);

        assertThat(full.shared()).hasSize(KeyGroups.COUNT).noneMatch(SharedObject::reused)
                .allSatisfy(o -> assertThat(o.location()).contains("-c2-"));
        assertThat(SnapshotFiles.read(config(), full.location()).entries()).hasSize(KEYS);
    }

    @Test
    void shouldKeepASavepointSelfContainedInItsOwnDirectory() throws IOException {
        fill();
        snapshot(1, CheckpointType.CHECKPOINT, BackupType.INCREMENTAL);
        incremental.completed(1);

        SnapshotResult savepoint = snapshot(2, CheckpointType.SAVEPOINT, BackupType.INCREMENTAL);

        assertThat(savepoint.shared()).isEmpty();
        try (var files = Files.list(dir.resolve("savepoints/sp-2"))) {
            assertThat(files.count()).isEqualTo(KeyGroups.COUNT + 1);
        }
        OperatorState restored = SnapshotFiles.read(config(), savepoint.location());
        assertThat(restored.entries()).hasSize(KEYS);
        assertThat(restored.groupsShared()).isFalse();
    }

    @Test
    void shouldRefuseARestoreWhoseKeyGroupObjectIsCorruptNamingIt() throws IOException {
        fill();
        SnapshotResult first = snapshot(1, CheckpointType.CHECKPOINT, BackupType.INCREMENTAL);
        String victim = first.shared().get(0).location();
        Path file = Path.of(java.net.URI.create(victim));
        byte[] content = Files.readAllBytes(file);
        content[content.length / 2] ^= 0x5a;
        Files.write(file, content);

        assertThatThrownBy(() -> SnapshotFiles.read(config(), first.location()))
                .isInstanceOf(StateUnreadableException.class).hasMessageContaining(victim)
                .hasMessageContaining("corrupt");
        Files.delete(file);
        assertThatThrownBy(() -> SnapshotFiles.read(config(), first.location()))
                .isInstanceOf(StateUnreadableException.class).hasMessageContaining(victim)
                .hasMessageContaining("does not exist");
    }
}
