package dev.cairn.kit.align;

import static dev.cairn.kit.align.AlignerScenario.A;
import static dev.cairn.kit.align.AlignerScenario.B;
import static dev.cairn.kit.align.AlignerScenario.C;
import static dev.cairn.kit.align.AlignerScenario.given;
import static dev.cairn.kit.align.KitLog.delivered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.align.Step.AwaitBarriers;
import dev.cairn.kit.align.Step.Deliver;
import dev.cairn.kit.align.Step.Drop;
import dev.cairn.kit.align.Step.DropReason;
import dev.cairn.kit.align.Step.HoldBack;
import dev.cairn.kit.align.Step.Snapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Exactly-once alignment: holding back, snapshotting, releasing, and barriers that come twice or too late. */
class BarrierAlignerTest {

    @Test
    void shouldDeliverDataWhileNoCheckpointIsAligning() {
        AlignerScenario task = given(A, B).data(A, "a1");

        assertThat(task.whenData(B, "b1")).containsExactly(new Deliver<>(B, 1, "b1"));
        assertThat(task.aligner().aligning()).isEqualTo(-1);
    }

    @Test
    void shouldHoldBackRecordsOfAChannelThatDeliveredTheBarrier() {
        AlignerScenario task = given(A, B).data(A, "a1").barrier(A, 1);

        assertThat(task.whenData(A, "a2")).containsExactly(new HoldBack<>(A, 2));
        assertThat(task.aligner().heldBack()).isEqualTo(1);
    }

    @Test
    void shouldDeliverRecordsOfAChannelThatHasNotDeliveredTheBarrierYet() {
        AlignerScenario task = given(A, B).barrier(A, 1);

        assertThat(task.whenData(B, "b1")).containsExactly(new Deliver<>(B, 1, "b1"));
    }

    @Test
    void shouldWaitForTheBarriersOfTheOtherChannels() {
        AlignerScenario task = given(A, B, C);

        assertThat(task.whenBarrier(A, 1)).containsExactly(new AwaitBarriers<>(1, 2));
        assertThat(task.aligner().aligning()).isEqualTo(1);
    }

    @Test
    void shouldSnapshotWhenTheLastChannelDeliversTheBarrier() {
        AlignerScenario task = given(A, B, C).data(A, "a1").barrier(A, 1).data(B, "b1").barrier(C, 1);

        List<Step<String>> steps = task.whenBarrier(B, 1);

        assertThat(steps).containsExactly(new Snapshot<>(1, Alignment.EXACTLY_ONCE,
                InputPositions.afterBarriers(Map.of(A, 1L, B, 3L, C, 0L))));
        assertThat(task.aligner().aligning()).isEqualTo(-1);
    }

    @Test
    void shouldReleaseHeldBackRecordsInOrder() {
        AlignerScenario task = given(A, B, C).barrier(A, 1).data(A, "a1").barrier(C, 1).data(C, "c1")
                .data(A, "a2").data(C, "c2");

        List<Step<String>> steps = task.whenBarrier(B, 1);

        assertThat(steps.get(0)).isInstanceOf(Snapshot.class);
        assertThat(steps.subList(1, steps.size())).containsExactly(new Deliver<>(A, 1, "a1"),
                new Deliver<>(C, 1, "c1"), new Deliver<>(A, 2, "a2"), new Deliver<>(C, 2, "c2"));
        assertThat(task.aligner().heldBack()).isZero();
    }

    @Test
    void shouldSnapshotAtOnceWithASingleChannel() {
        AlignerScenario task = given(A).data(A, "a1");

        assertThat(task.whenBarrier(A, 7)).containsExactly(
                new Snapshot<>(7, Alignment.EXACTLY_ONCE, InputPositions.afterBarriers(Map.of(A, 1L))));
    }

    @Test
    void shouldStartTheNextAlignmentFromTheReleasedRecords() {
        AlignerScenario task = given(A, B).barrier(A, 1).data(A, "a1").barrier(A, 2).data(A, "a2");

        List<Step<String>> steps = task.whenBarrier(B, 1);

        assertThat(steps).containsExactly(
                new Snapshot<>(1, Alignment.EXACTLY_ONCE, InputPositions.afterBarriers(Map.of(A, 0L, B, 4L))),
                new Deliver<>(A, 1, "a1"), new AwaitBarriers<>(2, 1), new HoldBack<>(A, 3));
        assertThat(task.aligner().aligning()).isEqualTo(2);
    }

    @Test
    void shouldTakeTwoSnapshotsWhenTheReleasedRecordsCompleteTheNextAlignment() {
        AlignerScenario task = given(A, C).barrier(A, 1).data(A, "a1").barrier(A, 2).data(A, "a2")
                .barrier(C, 1).data(C, "c1");

        List<Step<String>> steps = task.whenBarrier(C, 2);

        assertThat(steps).extracting(step -> step instanceof Snapshot<String> s ? "snapshot " + s.checkpointId()
                : step instanceof Deliver<String> d ? d.record() : step.getClass().getSimpleName())
                .containsExactly("snapshot 2", "a2");
        assertThat(delivered(task.whenData(C, "c2"))).containsExactly("c2");
    }

    @Test
    void shouldIgnoreADuplicateBarrierOnAChannel() {
        AlignerScenario task = given(A, B).barrier(A, 1).barrier(A, 1).data(A, "a1");

        List<Step<String>> steps = task.whenBarrier(B, 1);

        assertThat(steps).contains(new Drop<>(A, 1, DropReason.STALE_BARRIER), new Deliver<>(A, 2, "a1"));
        assertThat(steps).filteredOn(Snapshot.class::isInstance).hasSize(1);
    }

    @Test
    void shouldDropABarrierOfACheckpointAlreadyTaken() {
        AlignerScenario task = given(A).barrier(A, 3);

        assertThat(task.whenBarrier(A, 2)).containsExactly(new Drop<>(A, 1, DropReason.STALE_BARRIER));
        assertThat(task.whenBarrier(A, 3)).containsExactly(new Drop<>(A, 2, DropReason.STALE_BARRIER));
    }

    @Test
    void shouldDropARecordOfAnUnknownChannelAsBadInput() {
        Channel stranger = Channel.of("in", 0, 9);

        List<Step<String>> steps = given(A, B).whenData(stranger, "x");

        assertThat(steps).containsExactly(new Drop<>(stranger, 0, DropReason.UNKNOWN_CHANNEL));
        assertThat(DropReason.UNKNOWN_CHANNEL.badInput()).isTrue();
    }

    @Test
    void shouldDropARecordAtOrBeforeTheLastOffsetOfItsChannel() {
        AlignerScenario task = given(A, B).data(A, "a1", "a2");

        assertThat(task.whenDataAt(A, 1, "a2 again")).containsExactly(new Drop<>(A, 1, DropReason.REPLAYED));
        assertThat(DropReason.REPLAYED.badInput()).isFalse();
    }
}
