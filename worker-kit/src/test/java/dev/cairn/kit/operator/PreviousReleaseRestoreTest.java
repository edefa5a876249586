package dev.cairn.kit.operator;

import static dev.cairn.kit.operator.TestKeys.KEYS;
import static dev.cairn.kit.operator.TestKeys.MAX;
import static dev.cairn.kit.operator.TestKeys.keysOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.task.Partitioning;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator of this release restoring in place, at the same parallelism, a checkpoint of the release before
 * key-group routing: 2 subtasks over 4 partitions, the old subtask {@code i} having read the partitions
 * {@code p % 2 == i} and held every key routed there, the new one owning half of the key groups and reading the
 * partitions overlapping them. Each restores from the format-1 files of both subtasks its own keys and the positions
 * of every partition it reads now.
 */
class PreviousReleaseRestoreTest {

    private static final int PARTITIONS = 4;
    private static final int PARALLELISM = 2;
    private static final String TOPIC = "job.keyed";

    @TempDir
    Path dir;

    private static OperatorTaskConfig config(int subtask) {
        return new OperatorTaskConfig("count", subtask, PARALLELISM, 2, TOPIC, Map.of("bootstrap.servers", "x:9"),
                Duration.ofMillis(50), new FileStorage());
    }

    /** The keys and counts that old subtask {@code subtask} held: those routed to the partitions it read. */
    private static Map<KeyedState.Key, byte[]> heldBefore(int subtask) {
        return TestKeys.keysWhere(key -> PreviousRelease.readBy(PreviousRelease.partitionOf(key, PARTITIONS),
                PARALLELISM, subtask));
    }

    /** Old subtask {@code subtask}'s positions: of the partitions it read, channels 0 and 1 at 10 + p and 20 + p. */
    private static InputPositions positionsBefore(int subtask) {
        Map<Channel, Long> barriers = new TreeMap<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            if (PreviousRelease.readBy(partition, PARALLELISM, subtask)) {
                barriers.put(Channel.of(TOPIC, partition, 0), 10L + partition);
                barriers.put(Channel.of(TOPIC, partition, 1), 20L + partition);
            }
        }
        return InputPositions.afterBarriers(barriers);
    }

    /** Writes the checkpoint 5 of the previous release, every subtask's file; answers subtask 0's location. */
    private Path previousCheckpoint() throws IOException {
        Path checkpoint = Files.createDirectories(dir.resolve("chk-5"));
        for (int subtask = 0; subtask < PARALLELISM; subtask++) {
            Files.write(checkpoint.resolve("operator-count-" + subtask + ".state"), PreviousRelease.stateFile("count",
                    subtask, 5, 40 + subtask, TOPIC, positionsBefore(subtask), heldBefore(subtask)));
        }
        return checkpoint;
    }

    private static RestorePoint inPlace(Path checkpoint, int subtask) {
        return new RestorePoint(5, checkpoint.resolve("operator-count-" + subtask + ".state").toUri().toString(), 1);
    }

    @Test
    void shouldRestoreItsKeyGroupsAndThePositionsOfEveryPartitionItReadsNowFromAllSubtasksFiles()
            throws IOException {
        Path checkpoint = previousCheckpoint();

        for (int subtask = 0; subtask < PARALLELISM; subtask++) {
            OperatorState restored = OperatorRestore.read(config(subtask), inPlace(checkpoint, subtask));

            assertRestoresItsKeysAndEveryPartitionItReads(subtask, restored);
        }
    }

    private static void assertRestoresItsKeysAndEveryPartitionItReads(int subtask, OperatorState restored) {
        OperatorTaskConfig config = config(subtask);
        List<Integer> reads = Partitioning.readBy(PARTITIONS, MAX, config.keyGroups());
        assertThat(reads).as("subtask %d reads a partition the old subtask %d did not", subtask, subtask)
                .anyMatch(partition -> !PreviousRelease.readBy(partition, PARALLELISM, subtask));
        Map<KeyedState.Key, byte[]> expected = keysOf(config.keyGroups());
        assertThat(restored.entries()).containsOnlyKeys(expected.keySet());
        restored.entries().forEach((key, value) -> assertThat(value).isEqualTo(expected.get(key)));
        for (int partition : reads) {
            assertThat(restored.positions().restartOffset(new InputPartition(TOPIC, partition)))
                    .hasValue(10L + partition + 1);
            assertThat(restored.positions().reflectedThrough(Channel.of(TOPIC, partition, 0)))
                    .isEqualTo(10L + partition);
            assertThat(restored.positions().reflectedThrough(Channel.of(TOPIC, partition, 1)))
                    .isEqualTo(20L + partition);
        }
        OperatorRestore.requireEveryPartition(config, restored.positions(), reads, 5);
        assertThat(restored.subtask()).isEqualTo(subtask);
        assertThat(restored.checkpointId()).isEqualTo(5);
        assertThat(restored.generation()).isEqualTo(41);
    }

    @Test
    void shouldRestoreEveryKeyOfTheCheckpointOnceAcrossItsSubtasks() throws IOException {
        Path checkpoint = previousCheckpoint();

        OperatorState first = OperatorRestore.read(config(0), inPlace(checkpoint, 0));
        OperatorState second = OperatorRestore.read(config(1), inPlace(checkpoint, 1));

        assertThat(first.entries().keySet()).doesNotContainAnyElementsOf(second.entries().keySet());
        assertThat(first.entries().size() + second.entries().size()).isEqualTo(KEYS);
    }

    @Test
    void shouldRollBackToThePreviousReleasesCheckpointFromAllSubtasksFilesAgain() throws IOException {
        Path checkpoint = previousCheckpoint();
        String own = inPlace(checkpoint, 1).location();

        OperatorState rolledBack = OperatorRestore.readOwn(config(1), own);

        assertThat(rolledBack).usingRecursiveComparison()
                .isEqualTo(OperatorRestore.read(config(1), inPlace(checkpoint, 1)));
        assertThat(rolledBack.entries()).containsOnlyKeys(keysOf(config(1).keyGroups()).keySet());
    }

    @Test
    void shouldRefuseNamingTheMissingFileOfAnotherSubtask() throws IOException {
        Path checkpoint = previousCheckpoint();
        Path missing = checkpoint.resolve("operator-count-1.state");
        Files.delete(missing);

        assertThatThrownBy(() -> OperatorRestore.read(config(0), inPlace(checkpoint, 0)))
                .isInstanceOf(StateUnreadableException.class)
                .hasMessageContaining("checkpoint 5 of the release before key-group routing")
                .hasMessageContaining("the file of subtask 1")
                .hasMessageContaining(missing.toUri().toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void shouldRefuseNamingTheCorruptFileOfAnotherSubtask() throws IOException {
        Path checkpoint = previousCheckpoint();
        Path corrupt = checkpoint.resolve("operator-count-1.state");
        byte[] content = Files.readAllBytes(corrupt);
        content[content.length / 2] ^= 1;
        Files.write(corrupt, content);

        assertThatThrownBy(() -> OperatorRestore.read(config(0), inPlace(checkpoint, 0)))
                .isInstanceOf(StateUnreadableException.class)
                .hasMessageContaining("the file of subtask 1")
                .hasMessageContaining(corrupt.toUri().toString());
    }

    @Test
    void shouldRefuseACheckpointWhoseSubtasksWroteFilesOfBothReleases() throws IOException {
        Path checkpoint = previousCheckpoint();
        OperatorState current = new OperatorState("count", 1, 5, 41, TOPIC, positionsBefore(1), Map.of());
        Files.write(checkpoint.resolve("operator-count-1.state"), OperatorStateCodec.encode(current));

        assertThatThrownBy(() -> OperatorRestore.read(config(0), inPlace(checkpoint, 0)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is of format 2")
                .hasMessageContaining("rolling upgrade");
    }

    @Test
    void shouldReadOnlyItsOwnFileOfThisReleasesFormat() throws IOException {
        Path checkpoint = Files.createDirectories(dir.resolve("chk-6"));
        OperatorState own = new OperatorState("count", 0, 6, 50, TOPIC, positionsBefore(0), Map.of());
        Files.write(checkpoint.resolve("operator-count-0.state"), OperatorStateCodec.encode(own));

        OperatorState restored = OperatorRestore.read(config(0), new RestorePoint(6,
                checkpoint.resolve("operator-count-0.state").toUri().toString(), 1));

        assertThat(restored.positions()).isEqualTo(positionsBefore(0));
        assertThat(restored.generation()).isEqualTo(50);
    }
}
