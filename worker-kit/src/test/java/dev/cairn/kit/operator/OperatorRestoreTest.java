package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a rescaled operator subtask takes of the states handed to it: the positions of every partition from whichever
 * state read it, the channels of upstream subtasks that are gone, and the checks of its configuration.
 */
class OperatorRestoreTest {

    private static final String TOPIC = "job.keyed";

    private static InputPositions positions(Map<Integer, Long> restart, Map<Channel, Long> reflected) {
        Map<InputPartition, Long> byPartition = new java.util.TreeMap<>();
        restart.forEach((partition, offset) -> byPartition.put(new InputPartition(TOPIC, partition), offset));
        return new InputPositions(byPartition, reflected);
    }

    private static Channel channel(int partition, int upstream) {
        return Channel.of(TOPIC, partition, upstream);
    }

    @Test
    void shouldTakeEachPartitionsPositionsFromWhicheverStateReadIt() {
        InputPositions first = positions(Map.of(0, 10L, 1, 20L),
                Map.of(channel(0, 0), 9L, channel(0, 1), 12L, channel(1, 0), 19L, channel(1, 1), 25L));
        InputPositions second = positions(Map.of(1, 20L, 2, 30L),
                Map.of(channel(1, 0), 19L, channel(1, 1), 25L, channel(2, 0), 29L, channel(2, 1), 31L));

        InputPositions merged = OperatorRestore.merge(List.of(first, second));

        assertThat(merged.restartOffsets()).containsOnlyKeys(new InputPartition(TOPIC, 0),
                new InputPartition(TOPIC, 1), new InputPartition(TOPIC, 2));
        assertThat(merged.restartOffset(new InputPartition(TOPIC, 2))).hasValue(30);
        assertThat(merged.reflectedThrough(channel(1, 1))).isEqualTo(25);
        assertThat(merged.reflectedThrough(channel(2, 1))).isEqualTo(31);
    }

    @Test
    void shouldRefuseStatesOfOneCheckpointThatDisagreeOnAPartition() {
        InputPositions first = positions(Map.of(1, 20L), Map.of(channel(1, 0), 19L));
        InputPositions second = positions(Map.of(1, 21L), Map.of(channel(1, 0), 19L));

        assertThatThrownBy(() -> OperatorRestore.merge(List.of(first, second)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("job.keyed-1")
                .hasMessageContaining("20").hasMessageContaining("21");
    }

    @Test
    void shouldRetireTheChannelsOfUpstreamSubtasksBeyondTheParallelismInThePartitionsRead() {
        InputPositions restored = positions(Map.of(0, 10L, 1, 20L), Map.of(channel(0, 0), 9L, channel(0, 1), 12L,
                channel(0, 2), 14L, channel(1, 2), 22L));

        assertThat(OperatorRestore.retired(restored, List.of(0), 2)).containsExactly(channel(0, 2));
        assertThat(OperatorRestore.retired(restored, List.of(0, 1), 1)).containsExactly(channel(0, 1),
                channel(0, 2), channel(1, 2));
        assertThat(OperatorRestore.retired(restored, List.of(0, 1), 3)).isEmpty();
    }

    @Test
    void shouldFailARestoreWhoseMaxParallelismParallelismOrKeyGroupsDifferFromTheConfiguration() {
        OperatorTaskConfig config = OperatorTaskConfig.of("count", 1, 3, 2, TOPIC, "unused:9");
        List<RestoredState> none = List.of(new RestoredState(0, "file:///x/operator-count-0.state", 1, List.of()));

        assertThatThrownBy(() -> OperatorRestore.check(config, new RestorePoint(4, null, 0, false, List.of(), 3, 2,
                256, KeyGroupRange.forSubtask(256, 3, 1), none)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("max parallelism 128")
                .hasMessageContaining("max parallelism 256");
        assertThatThrownBy(() -> OperatorRestore.check(config, new RestorePoint(4, null, 0, false, List.of(), 4, 2,
                128, null, none)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("4");
        assertThatThrownBy(() -> OperatorRestore.check(config, new RestorePoint(4, null, 0, false, List.of(), 3, 2,
                128, new KeyGroupRange(0, 5), none)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("[0, 5]");
        OperatorRestore.check(config, new RestorePoint(4, null, 0, false, List.of(), 3, 2, 128,
                KeyGroupRange.forSubtask(128, 3, 1), none));
        OperatorRestore.check(config, new RestorePoint(4, "file:///x/operator-count-1.state", 0));
    }

    @Test
    void shouldRefuseARescaledRestoreThatHandsNoState() {
        OperatorTaskConfig config = OperatorTaskConfig.of("count", 1, 3, 2, TOPIC, "unused:9");

        assertThatThrownBy(() -> OperatorRestore.read(config, new RestorePoint(4, null, 0, false, List.of(), 3, 2,
                128, KeyGroupRange.forSubtask(128, 3, 1), List.of())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("hands it no state");
    }
}
