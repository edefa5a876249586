package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A rescaled source subtask keeps, of every old subtask's state, the positions of the partitions it reads now. */
class SourceRescaleTest {

    private static SourceTaskConfig subtask(int index, int parallelism) {
        return SourceTaskConfig.of("source", index, parallelism, "job.events", "job.keyed", "unused:9");
    }

    private static final List<SourceState> TWO = List.of(
            new SourceState("source", 0, 7, 40, "job.events", Map.of(0, 100L, 2, 200L)),
            new SourceState("source", 1, 7, 41, "job.events", Map.of(1, 110L, 3, 210L)));

    @Test
    void shouldTakeThePositionsOfThePartitionsItReadsNowFromEveryOldState() {
        SourceState first = SourceRescale.merge(subtask(0, 3), 7, TWO);
        SourceState third = SourceRescale.merge(subtask(2, 3), 7, TWO);
        SourceState only = SourceRescale.merge(subtask(0, 1), 7, TWO);

        assertThat(first.positions()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 100L, 3, 210L));
        assertThat(third.positions()).containsExactlyInAnyOrderEntriesOf(Map.of(2, 200L));
        assertThat(only.positions()).hasSize(4);
        assertThat(only.generation()).isEqualTo(41);
        assertThat(only.checkpointId()).isEqualTo(7);
        assertThat(only.subtask()).isZero();
        assertThat(only.ended()).isFalse();
    }

    @Test
    void shouldKeepTheInputEndedWhenTheOldStatesEndedIt() {
        List<SourceState> drained = List.of(
                new SourceState("source", 0, 7, 40, "job.events", Map.of(0, 100L), true),
                new SourceState("source", 1, 7, 41, "job.events", Map.of(1, 110L), true));

        assertThat(SourceRescale.merge(subtask(1, 3), 7, drained).ended()).isTrue();
    }

    @Test
    void shouldRefuseTwoOldStatesHoldingOnePartitionAtDifferentOffsets() {
        List<SourceState> clash = List.of(
                new SourceState("source", 0, 7, 40, "job.events", Map.of(0, 100L)),
                new SourceState("source", 1, 7, 41, "job.events", Map.of(0, 101L)));

        assertThatThrownBy(() -> SourceRescale.merge(subtask(0, 1), 7, clash))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("partition 0");
    }
}
