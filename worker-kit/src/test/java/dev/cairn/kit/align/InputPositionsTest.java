package dev.cairn.kit.align;

import static dev.cairn.kit.align.AlignerScenario.A;
import static dev.cairn.kit.align.AlignerScenario.B;
import static dev.cairn.kit.align.AlignerScenario.C;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The restart offset of each partition and the offset through which each channel is reflected. */
class InputPositionsTest {

    @Test
    void shouldRestartAPartitionOnePastItsEarliestBarrier() {
        InputPositions positions = InputPositions.afterBarriers(Map.of(A, 7L, B, 3L, C, 10L));

        assertThat(positions.restartOffset(A.partition())).hasValue(4);
        assertThat(positions.restartOffset(C.partition())).hasValue(11);
    }

    @Test
    void shouldReflectEachChannelThroughItsOwnBarrier() {
        InputPositions positions = InputPositions.afterBarriers(Map.of(A, 7L, B, 3L));

        assertThat(positions.reflectedThrough(A)).isEqualTo(7);
        assertThat(positions.reflectedThrough(B)).isEqualTo(3);
    }

    @Test
    void shouldKnowNothingOfAChannelOrPartitionOutsideTheSnapshot() {
        InputPositions positions = InputPositions.afterBarriers(Map.of(A, 7L));

        assertThat(positions.restartOffset(C.partition())).isEmpty();
        assertThat(positions.reflectedThrough(C)).isEqualTo(-1);
        assertThat(InputPositions.NONE.reflectedThrough(A)).isEqualTo(-1);
    }

    @Test
    void shouldBeEqualForTheSameBarriersWhateverTheirOrder() {
        assertThat(InputPositions.afterBarriers(Map.of(A, 1L, B, 2L)))
                .isEqualTo(new InputPositions(Map.of(A.partition(), 2L), Map.of(B, 2L, A, 1L)));
    }
}
