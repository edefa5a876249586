package dev.cairn.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.state.StateKeys.AckKey;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StateKeysTest {

    @Test
    void shouldGiveNeighbouringCheckpointsOfNeighbouringJobsDistinctHashes() {
        Set<Integer> hashes = new HashSet<>();
        for (int job = 0; job < 100; job++) {
            for (long checkpoint = 1; checkpoint <= 100; checkpoint++) {
                hashes.add(new CheckpointKey("job-" + job, checkpoint).hashCode());
            }
        }

        assertThat(hashes).hasSize(10_000);
    }

    @Test
    void shouldGiveTheSubtasksOfNeighbouringTasksDistinctHashes() {
        CheckpointKey checkpoint = new CheckpointKey("job", 7);
        Set<Integer> hashes = new HashSet<>();
        for (int task = 0; task < 10; task++) {
            for (int subtask = 0; subtask < 1_000; subtask++) {
                hashes.add(new AckKey(checkpoint, "t" + task, subtask).hashCode());
            }
        }

        assertThat(hashes).hasSize(10_000);
    }

    @Test
    void shouldKeepEqualKeysEqualInHash() {
        assertThat(new AckKey("job", 3, "task", 2)).isEqualTo(new AckKey(new CheckpointKey("job", 3), "task", 2))
                .hasSameHashCodeAs(new AckKey(new CheckpointKey("job", 3), "task", 2));
    }
}
