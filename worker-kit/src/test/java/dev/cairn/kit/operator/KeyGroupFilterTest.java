package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.operator.KeyGroupFilter.Verdict;
import dev.cairn.kit.task.Partitioning;
import dev.cairn.sidecar.hook.KeyGroupRange;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which records of a shared partition an operator subtask keeps: those of its key groups, each by one subtask. */
class KeyGroupFilterTest {

    private static final int MAX = 128;
    private static final int PARTITIONS = 4;

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static KeyGroupFilter subtask(int index, int parallelism) {
        return new KeyGroupFilter(KeyGroupRange.forSubtask(MAX, parallelism, index), PARTITIONS, MAX);
    }

    @Test
    void shouldKeepEveryRoutedRecordInExactlyOneOfTheSubtasksAtAnyParallelism() {
        for (int parallelism = 1; parallelism <= 5; parallelism++) {
            for (int i = 0; i < 500; i++) {
                byte[] key = key(i);
                int partition = Partitioning.forKey(key, PARTITIONS, MAX, 0);
                int keeping = 0;
                for (int index = 0; index < parallelism; index++) {
                    boolean reads = Partitioning.readBy(PARTITIONS, MAX, KeyGroupRange.forSubtask(MAX, parallelism,
                            index)).contains(partition);
                    if (reads && subtask(index, parallelism).of(key, partition) == Verdict.KEEP) {
                        keeping++;
                    }
                }
                assertThat(keeping).as("key %d at parallelism %d", i, parallelism).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldDropTheNeighboursKeysOfASharedPartition() {
        KeyGroupFilter first = subtask(0, 3);
        KeyGroupFilter second = subtask(1, 3);
        int i = 0;
        while (Partitioning.keyGroup(key(i), MAX) < 43 || Partitioning.keyGroup(key(i), MAX) > 63) {
            i++;
        }
        assertThat(Partitioning.forKey(key(i), PARTITIONS, MAX, 0)).isEqualTo(1);
        assertThat(first.of(key(i), 1)).isEqualTo(Verdict.NEIGHBOURS);
        assertThat(second.of(key(i), 1)).isEqualTo(Verdict.KEEP);
    }

    @Test
    void shouldReportAMisroutedRecordOnceAndGiveAKeylessOneToThePartitionsFirstGroupOwner() {
        int i = 0;
        while (Partitioning.forKey(key(i), PARTITIONS, MAX, 0) == 1) {
            i++;
        }
        assertThat(subtask(0, 3).of(key(i), 1)).isEqualTo(Verdict.MISROUTED);
        assertThat(subtask(1, 3).of(key(i), 1)).isEqualTo(Verdict.NEIGHBOURS);
        assertThat(subtask(0, 3).misrouted(key(i), 1)).contains("not 1").contains("another max parallelism");

        assertThat(subtask(0, 3).of(null, 1)).isEqualTo(Verdict.KEEP);
        assertThat(subtask(1, 3).of(null, 1)).isEqualTo(Verdict.NEIGHBOURS);
    }
}
