package dev.cairn.kit.align;

import static dev.cairn.kit.align.AlignerScenario.A;
import static dev.cairn.kit.align.AlignerScenario.B;
import static dev.cairn.kit.align.AlignerScenario.C;
import static dev.cairn.kit.align.AlignerScenario.given;
import static dev.cairn.kit.align.KitLog.delivered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.align.Step.AwaitBarriers;
import dev.cairn.kit.align.Step.Decline;
import dev.cairn.kit.align.Step.Deliver;
import dev.cairn.kit.align.Step.Drop;
import dev.cairn.kit.align.Step.DropReason;
import dev.cairn.kit.align.Step.HoldBack;
import dev.cairn.kit.align.Step.Snapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Alignments that end without a snapshot: overtaken by a newer barrier, or aborted. */
class BarrierAlignerCancelTest {

    @Test
    void shouldCancelAnOlderAlignmentWhenANewerBarrierArrives() {
        AlignerScenario task = given(A, B, C).barrier(A, 1).data(A, "a1");

        List<Step<String>> steps = task.whenBarrier(B, 2);

        assertThat(steps).hasSize(3);
        assertThat(steps.get(0)).isInstanceOfSatisfying(Decline.class, decline -> {
            assertThat(decline.checkpointId()).isEqualTo(1);
            assertThat(decline.reason()).contains("barrier 2", "before barrier 1 arrived on every channel");
        });
        assertThat(steps.subList(1, 3)).containsExactly(new AwaitBarriers<>(2, 2), new Deliver<>(A, 1, "a1"));
        assertThat(task.aligner().aligning()).isEqualTo(2);
    }

    @Test
    void shouldAlignTheNewerCheckpointAfterCancellingTheOlder() {
        AlignerScenario task = given(A, B).barrier(A, 1).data(A, "a1").barrier(B, 2).data(B, "b1");

        List<Step<String>> steps = task.whenBarrier(A, 2);

        assertThat(steps).hasSize(2);
        assertThat(steps.get(0)).isInstanceOfSatisfying(Snapshot.class,
                snapshot -> assertThat(snapshot.checkpointId()).isEqualTo(2));
        assertThat(delivered(steps)).containsExactly("b1");
    }

    @Test
    void shouldDropTheOlderBarrierThatArrivesAfterANewerAlignmentStarted() {
        AlignerScenario task = given(A, B, C).barrier(A, 1).barrier(B, 2);

        assertThat(task.whenBarrier(C, 1)).containsExactly(new Drop<>(C, 0, DropReason.STALE_BARRIER));
    }

    @Test
    void shouldReleaseHeldBackRecordsWhenTheAlignedCheckpointIsAborted() {
        AlignerScenario task = given(A, B).barrier(A, 1).data(A, "a1", "a2");

        List<Step<String>> steps = task.whenCancelled(1);

        assertThat(steps).containsExactly(new Deliver<>(A, 1, "a1"), new Deliver<>(A, 2, "a2"));
        assertThat(task.aligner().aligning()).isEqualTo(-1);
        assertThat(task.whenData(A, "a3")).containsExactly(new Deliver<>(A, 3, "a3"));
    }

    @Test
    void shouldDropTheLateBarriersOfAnAbortedAlignment() {
        AlignerScenario task = given(A, B).barrier(A, 1).cancel(1);

        assertThat(task.whenBarrier(B, 1)).containsExactly(new Drop<>(B, 1, DropReason.STALE_BARRIER));
    }

    @Test
    void shouldDropBarriersOfACheckpointAbortedBeforeTheyArrive() {
        AlignerScenario task = given(A, B).cancel(4);

        assertThat(task.whenBarrier(A, 4)).containsExactly(new Drop<>(A, 0, DropReason.STALE_BARRIER));
        assertThat(task.whenData(A, "a1")).containsExactly(new Deliver<>(A, 1, "a1"));
        assertThat(task.whenBarrier(A, 5)).containsExactly(new AwaitBarriers<>(5, 1));
    }

    @Test
    void shouldKeepAligningWhenAnotherCheckpointIsAborted() {
        AlignerScenario task = given(A, B).barrier(A, 2).data(A, "a1");

        assertThat(task.whenCancelled(1)).isEmpty();
        assertThat(task.whenCancelled(3)).isEmpty();
        assertThat(task.whenData(A, "a2")).containsExactly(new HoldBack<>(A, 2));
        assertThat(task.aligner().aligning()).isEqualTo(2);
    }

    @Test
    void shouldKeepAligningWhenAnUpstreamRestartsBeforeItsBarrierAndSnapshotOnTheNewIncarnationsBarrier() {
        // given checkpoint 5 aligning, A's record held back, and B's upstream restarting before its barrier 5
        AlignerScenario task = given(A, B).barrier(A, 5).data(A, "a1");

        // when B's new incarnation (registered before it wrote its resume record) delivers barrier 5
        assertThat(task.whenResume(B, 3)).containsExactly(new Step.Resumed<>(B, 3));
        List<Step<String>> steps = task.generation(3).whenBarrier(B, 5);

        // then the alignment ends with the snapshot, and the held-back record follows it
        assertThat(steps.get(0)).isInstanceOfSatisfying(Snapshot.class,
                snapshot -> assertThat(snapshot.checkpointId()).isEqualTo(5));
        assertThat(delivered(steps)).containsExactly("a1");
    }

    @Test
    void shouldReleaseTheHeldBackRecordsWhenTheCheckpointTheRestartedUpstreamNeverGotIsAborted() {
        // given checkpoint 5 aligning when B's upstream restarted, planned with its predecessor
        AlignerScenario task = given(A, B).barrier(A, 5).data(A, "a1");
        task.whenResume(B, 3);

        // when the coordinator aborts it (the new attempt registered before acknowledging it)
        List<Step<String>> steps = task.whenCancelled(5);

        // then
        assertThat(delivered(steps)).containsExactly("a1");
        assertThat(steps).noneMatch(Snapshot.class::isInstance);
    }
}
