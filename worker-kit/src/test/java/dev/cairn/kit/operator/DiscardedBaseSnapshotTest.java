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
import dev.cairn.kit.storage.LocationNotFoundException;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot planned at its barrier on the newest completed checkpoint, whose objects the coordinator discards
 * before the snapshot is written: a later checkpoint completed in between and subsumed that base (the operator's
 * loop handled the barrier before the completion). Given checkpoint 10 completed and the barrier of 12 planned on it,
 * when checkpoint 11 completes and 10's objects are discarded, then 12 is still written whole, and 10's objects are
 * deleted once it is. (PipelineIT's stop-with-savepoint was declined so, the job failed and no worker stopped.)
 */
class DiscardedBaseSnapshotTest {

    private static final int KEYS = 500;

    @TempDir
    Path dir;

    private final KeyedState state = new KeyedState();
    private final IncrementalSnapshots incremental = new IncrementalSnapshots();
    private final ReusedObjects reused = new ReusedObjects();
    private final OperatorTaskConfig config = new OperatorTaskConfig("count", 0, 1, 1, "job.keyed",
            Map.of("bootstrap.servers", "unused:9"), Duration.ofMillis(50), new FileStorage());

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private PendingState plan(long id) {
        OperatorState header = new OperatorState("count", 0, id, 7, "job.keyed", InputPositions.NONE, Map.of());
        return new PendingState(header, reused.planned(id, () -> incremental.plan(id, state,
                (group, entries) -> KeyGroupCodec.encode("count", 0, group, entries), false)));
    }

    private SnapshotResult write(PendingState pending, CheckpointType type, BackupType backup) throws IOException {
        long id = pending.header().checkpointId();
        String location = dir.resolve(type == CheckpointType.SAVEPOINT ? "savepoints/sp-" + id : "job/chk-" + id)
                .toUri().toString();
        SnapshotRequest request = new SnapshotRequest(id, 0, type, location, "job", "count", 0,
                new CheckpointOptions(backup, SavepointFormat.CANONICAL, PostCheckpointAction.NONE,
                        AlignmentType.ALIGNED, -1), null);
        return SnapshotFiles.write(config, incremental, new SnapshotBook.Ready(
                new SnapshotBook.Aligned(id, pending, TaskOutput.Sealed.NOTHING),
                new SnapshotBook.Waiting(request, new CompletableFuture<>())), reused::discarded);
    }

    /** Checkpoint 10 taken and completed: the base of the next snapshots. Answers its group objects. */
    private List<String> completedBase() throws IOException {
        for (int i = 0; i < KEYS; i++) {
            state.put(bytes("key-" + i), bytes("value-" + i));
        }
        SnapshotResult base = write(plan(10), CheckpointType.CHECKPOINT, BackupType.INCREMENTAL);
        reused.release(Set.of());
        incremental.completed(10);
        return base.shared().stream().map(SharedObject::location).toList();
    }

    /** The coordinator discards {@code objects} (checkpoint 11 subsumed 10): deleted unless a plan reuses them. */
    private void discard(List<String> objects) throws IOException {
        for (String location : objects) {
            if (!reused.deferIfLeased(location)) {
                config.storage().delete(location);
            }
        }
    }

    private static boolean exists(String location) {
        return Files.exists(Path.of(URI.create(location)));
    }

    @Test
    void shouldWriteTheStopsSavepointWholeWhenTheCheckpointItWasPlannedOnIsDiscardedBeforeItIsWritten()
            throws IOException {
        List<String> base = completedBase();
        PendingState savepoint = plan(12);
        state.put(bytes("key-1"), bytes("after the barrier"));

        incremental.completed(11);
        discard(base);
        SnapshotResult written = write(savepoint, CheckpointType.SAVEPOINT, BackupType.FULL);

        assertThat(base).allMatch(DiscardedBaseSnapshotTest::exists);
        OperatorState restored = SnapshotFiles.read(config, written.location());
        assertThat(restored.entries()).hasSize(KEYS);
        assertThat(restored.entries().get(new KeyedState.Key(bytes("key-1")))).isEqualTo(bytes("value-1"));
        List<String> free = reused.release(Set.of());
        assertThat(free).containsExactlyInAnyOrderElementsOf(base);
        assertThat(reused.deferIfLeased(base.get(0))).as("no plan reuses it any more").isFalse();
    }

    @Test
    void shouldCopyTheDiscardedObjectsAnewIntoAnIncrementalCheckpointPlannedOnThem() throws IOException {
        List<String> base = completedBase();
        PendingState next = plan(12);

        discard(base);
        SnapshotResult written = write(next, CheckpointType.CHECKPOINT, BackupType.INCREMENTAL);
        for (String location : reused.release(Set.of())) {
            config.storage().delete(location);
        }

        assertThat(written.shared()).isNotEmpty().noneMatch(SharedObject::reused)
                .allSatisfy(o -> assertThat(o.location()).contains("-c12-"));
        assertThat(base).noneMatch(DiscardedBaseSnapshotTest::exists);
        assertThat(SnapshotFiles.read(config, written.location()).entries()).hasSize(KEYS);
    }

    @Test
    void shouldDeclineASnapshotWhoseBaseWasDeletedUnderItWithoutTheDeferral() throws IOException {
        List<String> base = completedBase();
        PendingState savepoint = plan(12);

        base.forEach(location -> {
            try {
                config.storage().delete(location);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });

        assertThatThrownBy(() -> write(savepoint, CheckpointType.SAVEPOINT, BackupType.FULL))
                .isInstanceOf(LocationNotFoundException.class).hasMessageContaining("does not exist");
    }
}
