package dev.cairn.kit.align;

import static dev.cairn.kit.align.AlignerScenario.A;
import static dev.cairn.kit.align.AlignerScenario.B;
import static dev.cairn.kit.align.AlignerScenario.C;
import static dev.cairn.kit.align.AlignerScenario.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AlignmentType;
import dev.cairn.kit.align.Step.AwaitBarriers;
import dev.cairn.kit.align.Step.Decline;
import dev.cairn.kit.align.Step.Deliver;
import dev.cairn.kit.align.Step.Drop;
import dev.cairn.kit.align.Step.DropReason;
import dev.cairn.kit.align.Step.Snapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** At-least-once checkpoints (no holding back), and which trigger alignments the kit maps to which mode. */
class BarrierAlignerAtLeastOnceTest {

    private static final Alignment AT_LEAST_ONCE = Alignment.AT_LEAST_ONCE;

    @Test
    void shouldNotHoldBackRecordsInAtLeastOnceMode() {
        AlignerScenario task = given(A, B).barrier(A, 1, AT_LEAST_ONCE);

        assertThat(task.whenData(A, "a1")).containsExactly(new Deliver<>(A, 1, "a1"));
        assertThat(task.aligner().heldBack()).isZero();
    }

    @Test
    void shouldSnapshotWhenTheLastBarrierArrivesInAtLeastOnceMode() {
        AlignerScenario task = given(A, B, C).barrier(A, 1, AT_LEAST_ONCE).data(A, "a1").barrier(C, 1, AT_LEAST_ONCE);

        assertThat(task.whenBarrier(B, 1, AT_LEAST_ONCE)).containsExactly(
                new Snapshot<>(1, AT_LEAST_ONCE, InputPositions.afterBarriers(Map.of(A, 0L, B, 2L, C, 0L))));
    }

    @Test
    void shouldIgnoreADuplicateBarrierInAtLeastOnceMode() {
        AlignerScenario task = given(A, B).barrier(A, 1, AT_LEAST_ONCE);

        assertThat(task.whenBarrier(A, 1, AT_LEAST_ONCE)).containsExactly(new Drop<>(A, 1, DropReason.STALE_BARRIER));
        assertThat(task.whenBarrier(B, 1, AT_LEAST_ONCE)).hasSize(1).first().isInstanceOf(Snapshot.class);
    }

    @Test
    void shouldCountTwoCheckpointsAtOnceWhenAChannelIsAheadInAtLeastOnceMode() {
        AlignerScenario task = given(A, B).barrier(A, 1, AT_LEAST_ONCE).data(A, "a1");

        assertThat(task.whenBarrier(A, 2, AT_LEAST_ONCE)).containsExactly(new AwaitBarriers<>(2, 1));
        assertThat(task.whenBarrier(B, 1, AT_LEAST_ONCE)).hasSize(1).first().isInstanceOfSatisfying(Snapshot.class,
                snapshot -> assertThat(snapshot.checkpointId()).isEqualTo(1));
        assertThat(task.whenBarrier(B, 2, AT_LEAST_ONCE)).hasSize(1).first().isInstanceOfSatisfying(Snapshot.class,
                snapshot -> assertThat(snapshot.checkpointId()).isEqualTo(2));
    }

    @Test
    void shouldDeclineAnOlderAtLeastOnceCheckpointAsSubsumedWhenANewerIsTaken() {
        AlignerScenario task = given(A, B).barrier(A, 1, AT_LEAST_ONCE).barrier(B, 2, AT_LEAST_ONCE);

        List<Step<String>> steps = task.whenBarrier(A, 2, AT_LEAST_ONCE);

        assertThat(steps).hasSize(2);
        assertThat(steps.get(0)).isInstanceOfSatisfying(Snapshot.class,
                snapshot -> assertThat(snapshot.checkpointId()).isEqualTo(2));
        assertThat(steps.get(1)).isEqualTo(new Decline<>(1, "subsumed by checkpoint 2"));
        assertThat(task.aligner().aligning()).isEqualTo(-1);
    }

    @Test
    void shouldAlignWhenTheTriggerAsksForAlignedOrUnalignedBarriers() {
        assertThat(Alignment.fromTrigger(AlignmentType.ALIGNED)).isEqualTo(Alignment.EXACTLY_ONCE);
        assertThat(Alignment.fromTrigger(AlignmentType.FORCED_ALIGNED)).isEqualTo(Alignment.EXACTLY_ONCE);
        assertThat(Alignment.fromTrigger(AlignmentType.UNALIGNED)).isEqualTo(Alignment.EXACTLY_ONCE);
        assertThat(Alignment.fromTrigger(null)).isEqualTo(Alignment.EXACTLY_ONCE);
    }

    @Test
    void shouldNotAlignWhenTheTriggerAsksForAtLeastOnce() {
        assertThat(Alignment.fromTrigger(AlignmentType.AT_LEAST_ONCE)).isEqualTo(AT_LEAST_ONCE);
    }
}
