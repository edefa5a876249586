package dev.cairn.kit.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestoredState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which new sink subtask resolves which old subtask's pending epochs after a rescale: each by exactly one. */
class SinkHandoverTest {

    private static final int MAX = 128;

    /** The states the coordinator hands new subtask {@code subtask}: every old keyed state overlapping its range. */
    private static List<RestoredState> handed(int subtask, int parallelism, int previous) {
        KeyGroupRange own = KeyGroupRange.forSubtask(MAX, parallelism, subtask);
        List<RestoredState> states = new ArrayList<>();
        for (int old = 0; old < previous; old++) {
            KeyGroupRange range = KeyGroupRange.forSubtask(MAX, previous, old);
            if (range.overlaps(own)) {
                states.add(new RestoredState(old, "file:///chk-9/operator-sink-" + old + ".state", 1, List.of(), range,
                        null));
            }
        }
        return states;
    }

    @Test
    void shouldResolveEveryOldSubtaskByExactlyOneNewSubtask() {
        for (int previous = 1; previous <= 6; previous++) {
            for (int parallelism = 1; parallelism <= 6; parallelism++) {
                List<Integer> all = new ArrayList<>();
                for (int subtask = 0; subtask < parallelism; subtask++) {
                    all.addAll(SinkHandover.resolvedBy(subtask, parallelism, previous, MAX,
                            handed(subtask, parallelism, previous)));
                }
                assertThat(all).as("%d to %d", previous, parallelism).hasSize(previous)
                        .doesNotHaveDuplicates();
            }
        }
    }

    @Test
    void shouldKeepAnIndexThatStillExistsWithTheSubtaskOfThatIndex() {
        assertThat(SinkHandover.resolvedBy(1, 3, 2, MAX, handed(1, 3, 2))).containsExactly(1);
        assertThat(SinkHandover.resolvedBy(2, 3, 2, MAX, handed(2, 3, 2))).isEmpty();
        assertThat(SinkHandover.resolvedBy(0, 2, 3, MAX, handed(0, 2, 3))).containsExactly(0);
    }

    @Test
    void shouldGiveAnIndexBeyondTheNewParallelismToTheOwnerOfItsFirstKeyGroup() {
        assertThat(SinkHandover.resolvedBy(0, 1, 2, MAX, handed(0, 1, 2))).containsExactly(0, 1);
        assertThat(SinkHandover.resolverOf(2, KeyGroupRange.forSubtask(MAX, 3, 2), 2, MAX)).isEqualTo(1);
        assertThat(SinkHandover.resolvedBy(1, 2, 3, MAX, handed(1, 2, 3))).containsExactly(1, 2);
        assertThat(SinkHandover.resolvedBy(0, 2, 5, MAX, handed(0, 2, 5))).containsExactly(0, 2);
        assertThat(SinkHandover.resolvedBy(1, 2, 5, MAX, handed(1, 2, 5))).containsExactly(1, 3, 4);
    }
}
