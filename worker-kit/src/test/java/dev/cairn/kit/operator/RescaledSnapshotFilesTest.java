package dev.cairn.kit.operator;

import static dev.cairn.kit.operator.TestKeys.KEYS;
import static dev.cairn.kit.operator.TestKeys.MAX;
import static dev.cairn.kit.operator.TestKeys.bytes;
import static dev.cairn.kit.operator.TestKeys.keysOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's snapshots on real files restored with another parallelism: a subtask reads, of the states handed to
 * it, only the key group objects of its own range, and of a file that holds its entries itself (format 1) only the
 * keys of its range; its positions come from whichever state read each partition. And a discarded state of another
 * index goes with that index's parts.
 */
class RescaledSnapshotFilesTest {

    private static final String TOPIC = "job.keyed";

    @TempDir
    Path dir;

    private static OperatorTaskConfig config(int subtask, int parallelism) {
        return new OperatorTaskConfig("count", subtask, parallelism, 2, TOPIC, Map.of("bootstrap.servers", "x:9"),
                Duration.ofMillis(50), new FileStorage());
    }

    /** Subtask {@code subtask} of 2 reads partitions 2 x subtask and 2 x subtask + 1, their barriers at 10 + p. */
    private static InputPositions positions(int subtask) {
        Map<Channel, Long> barriers = new TreeMap<>();
        for (int partition = 2 * subtask; partition <= 2 * subtask + 1; partition++) {
            barriers.put(Channel.of(TOPIC, partition, 0), 10L + partition);
            barriers.put(Channel.of(TOPIC, partition, 1), 20L + partition);
        }
        return InputPositions.afterBarriers(barriers);
    }

    /** Subtask {@code subtask} of 2's savepoint 5, as the operator writes it. */
    private SnapshotResult savepoint(int subtask) throws IOException {
        OperatorTaskConfig config = config(subtask, 2);
        KeyedState state = new KeyedState(MAX);
        keysOf(config.keyGroups()).forEach((key, value) -> state.put(key.bytes(), value));
        OperatorState header = new OperatorState("count", subtask, 5, 40 + subtask, TOPIC, positions(subtask),
                Map.of());
        IncrementalSnapshots incremental = new IncrementalSnapshots();
        PendingState pending = new PendingState(header, incremental.plan(5, state,
                (group, entries) -> KeyGroupCodec.encode("count", subtask, group, entries), true));
        SnapshotRequest request = new SnapshotRequest(5, 0, CheckpointType.SAVEPOINT,
                dir.resolve("sp-5").toUri().toString(), "job", "count", subtask, new CheckpointOptions(
                        BackupType.FULL, SavepointFormat.CANONICAL, PostCheckpointAction.SUSPEND,
                        AlignmentType.ALIGNED, -1), null);
        return SnapshotFiles.write(config, incremental, new SnapshotBook.Ready(
                new SnapshotBook.Aligned(5, pending, TaskOutput.Sealed.NOTHING),
                new SnapshotBook.Waiting(request, new CompletableFuture<>())));
    }

    private static RestorePoint rescaled(int subtask, int parallelism, List<SnapshotResult> olds) {
        KeyGroupRange range = KeyGroupRange.forSubtask(MAX, parallelism, subtask);
        List<RestoredState> states = new ArrayList<>();
        for (int old = 0; old < olds.size(); old++) {
            if (olds.get(old).keyGroups().overlaps(range)) {
                states.add(new RestoredState(old, olds.get(old).location(), 1, List.of(), olds.get(old).keyGroups(),
                        null));
            }
        }
        return new RestorePoint(5, null, 0, false, List.of(), parallelism, olds.size(), MAX, range, states);
    }

    @Test
    void shouldDeclareTheSubtasksKeyGroupsAndRestoreOnlyThoseOfTheNewRange() throws IOException {
        List<SnapshotResult> olds = List.of(savepoint(0), savepoint(1));
        assertThat(olds).extracting(SnapshotResult::keyGroups).containsExactly(new KeyGroupRange(0, 63),
                new KeyGroupRange(64, 127));
        KeyGroupRange middle = KeyGroupRange.forSubtask(MAX, 3, 1);
        try (Stream<Path> files = Files.list(dir.resolve("sp-5"))) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                int at = name.indexOf(".kg");
                if (at >= 0 && !middle.contains(Integer.parseInt(name.substring(at + 3)))) {
                    Files.delete(file);
                }
            }
        }

        OperatorState restored = OperatorRestore.read(config(1, 3), rescaled(1, 3, olds));

        assertThat(restored.entries()).containsOnlyKeys(keysOf(middle).keySet());
        assertThat(restored.generation()).isEqualTo(41);
        assertThat(restored.positions().restartOffsets()).hasSize(4);
        assertThat(restored.positions().reflectedThrough(Channel.of(TOPIC, 3, 1))).isEqualTo(23);
    }

    @Test
    void shouldRestoreEveryKeyInOneSubtaskWhenScaledToOne() throws IOException {
        List<SnapshotResult> olds = List.of(savepoint(0), savepoint(1));

        OperatorState restored = OperatorRestore.read(config(0, 1), rescaled(0, 1, olds));

        assertThat(restored.entries()).hasSize(KEYS);
        assertThat(restored.positions()).isEqualTo(OperatorRestore.merge(List.of(positions(0), positions(1))));
    }

    @Test
    void shouldKeepOnlyTheKeysOfItsRangeOfAFormatOneFile() throws IOException {
        Map<KeyedState.Key, byte[]> all = keysOf(new KeyGroupRange(0, MAX - 1));
        List<SnapshotResult> olds = new ArrayList<>();
        for (int old = 0; old < 2; old++) {
            Path file = dir.resolve("chk-5").resolve("operator-count-" + old + ".state");
            Files.createDirectories(file.getParent());
            Files.write(file, PreviousRelease.stateFile("count", old, 5, 40 + old, TOPIC, positions(old),
                    old == 0 ? all : Map.of()));
            olds.add(SnapshotResult.of(file.toUri().toString(), 1)
                    .withKeyGroups(KeyGroupRange.forSubtask(MAX, 2, old)));
        }

        OperatorState own = SnapshotFiles.read(config(0, 2), olds.get(0).location());
        OperatorState rescaled = OperatorRestore.read(config(2, 3), rescaled(2, 3, olds));

        assertThat(own.entries()).containsOnlyKeys(keysOf(new KeyGroupRange(0, 63)).keySet());
        assertThat(rescaled.entries()).isEmpty();
    }

    @Test
    void shouldDeleteAnotherIndexsStateFileWithThatIndexsPartsWhenDiscarded() throws IOException {
        Path checkpoint = Files.createDirectories(dir.resolve("chk-9"));
        Path state = Files.write(checkpoint.resolve("operator-count-3.state"), bytes("s"));
        Path part = Files.write(checkpoint.resolve("sink-out-3.state"), bytes("p"));
        Path own = Files.write(checkpoint.resolve("sink-out-0.state"), bytes("p"));

        SnapshotFiles.discard(config(0, 2), index -> List.of("sink-out-" + index + ".state"),
                state.toUri().toString());

        assertThat(state).doesNotExist();
        assertThat(part).doesNotExist();
        assertThat(own).exists();
    }
}
