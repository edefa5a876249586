package dev.cairn.kit.align;

import static dev.cairn.kit.align.AlignerScenario.A;
import static dev.cairn.kit.align.AlignerScenario.B;
import static dev.cairn.kit.align.AlignerScenario.C;
import static dev.cairn.kit.align.AlignerScenario.D;
import static dev.cairn.kit.align.AlignerScenario.given;
import static dev.cairn.kit.align.KitLog.delivered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.cairn.kit.align.Step.Decline;
import dev.cairn.kit.align.Step.Deliver;
import dev.cairn.kit.align.Step.Drop;
import dev.cairn.kit.align.Step.DropReason;
import dev.cairn.kit.align.Step.Resumed;
import dev.cairn.kit.align.Step.Rollback;
import dev.cairn.kit.align.Step.Snapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Generations, resume records, rollbacks, and what a restored task replays. */
class BarrierAlignerRestoreTest {

    @Test
    void shouldDropRecordsOfAnOlderGenerationAfterAResume() {
        AlignerScenario task = given(A, B).resume(A, 4);

        assertThat(task.generation(-1).whenData(A, "late old")).containsExactly(
                new Drop<>(A, 1, DropReason.STALE_GENERATION));
        assertThat(task.generation(4).whenData(A, "new")).containsExactly(new Deliver<>(A, 2, "new"));
    }

    @Test
    void shouldDropABarrierOfAnOlderGeneration() {
        AlignerScenario task = given(A, B).resume(A, 4).generation(2);

        assertThat(task.whenBarrier(A, 6)).containsExactly(new Drop<>(A, 1, DropReason.STALE_GENERATION));
        assertThat(task.aligner().aligning()).isEqualTo(-1);
    }

    @Test
    void shouldDropAResumeOfAnOlderGeneration() {
        AlignerScenario task = given(A, B).resume(A, 4);

        assertThat(task.whenResume(A, 3)).containsExactly(new Drop<>(A, 1, DropReason.STALE_GENERATION));
        assertThat(task.whenResume(A, 4)).containsExactly(new Resumed<>(A, 4));
    }

    @Test
    void shouldTakeANewerGenerationWithoutAResumeAsAnnounced() {
        AlignerScenario task = given(A, B).generation(7).data(A, "restarted");

        assertThat(task.generation(-1).whenData(A, "older")).containsExactly(
                new Drop<>(A, 1, DropReason.STALE_GENERATION));
    }

    @Test
    void shouldRollBackToTheUpstreamsRestorePointWhenItRestartsAfterItsRecordsWereTaken() {
        AlignerScenario task = given(A, B).data(A, "a1").barrier(A, 1).barrier(B, 1).data(A, "a2 (lost)");

        List<Step<String>> steps = task.whenResume(A, 9, 1);

        assertThat(steps).singleElement().isInstanceOfSatisfying(Rollback.class, rollback -> {
            assertThat(rollback.toCheckpoint()).isEqualTo(1);
            assertThat(rollback.channel()).isEqualTo(A);
            assertThat(rollback.minimumGeneration()).isEqualTo(9);
            assertThat(rollback.reason()).contains("restarted from checkpoint 1");
        });
        assertThat(task.aligner().rolledBack()).isTrue();
        assertThatIllegalStateException().isThrownBy(() -> task.whenData(B, "b"));
    }

    @Test
    void shouldDeclineWhatItWasAligningWhenItRollsBack() {
        AlignerScenario task = given(A, B).barrier(A, 1).barrier(B, 1).barrier(B, 2).data(B, "b (held back)");

        List<Step<String>> steps = task.whenResume(B, 9, 1);

        assertThat(steps).hasSize(2);
        assertThat(steps.get(0)).isInstanceOfSatisfying(Decline.class,
                decline -> assertThat(decline.checkpointId()).isEqualTo(2));
        assertThat(steps.get(1)).isInstanceOf(Rollback.class);
    }

    @Test
    void shouldReplayTheOtherChannelsAndOnlyTheNewIncarnationOfTheRestartedOneAfterARollback() {
        AlignerScenario task = given(A, B).data(A, "a1").barrier(A, 1).data(A, "a2 (lost)").barrier(B, 1)
                .data(B, "b2");
        Snapshot<String> snapshot = task.lastSnapshot();
        Rollback<String> rollback = (Rollback<String>) task.whenResume(A, 9, 1).get(0);

        List<Step<String>> replayed = task.rolledBack(rollback, snapshot).whenReplayed(snapshot.positions());

        assertThat(delivered(replayed)).containsExactly("b2");
        assertThat(replayed).contains(new Drop<>(A, 2, DropReason.STALE_GENERATION), new Resumed<>(A, 9));
        assertThat(task.generation(9).whenData(A, "a2")).containsExactly(new Deliver<>(A, 6, "a2"));
    }

    @Test
    void shouldTakeTheRestartedUpstreamsResumeInItsOtherPartitionsAsAnnouncedAfterARollback() {
        AlignerScenario task = given(A, B, C, D).barrier(A, 1).barrier(B, 1).barrier(C, 1).barrier(D, 1)
                .data(B, "b2 (lost)").data(D, "d2 (lost)");
        Snapshot<String> snapshot = task.lastSnapshot();
        Rollback<String> rollback = (Rollback<String>) task.whenResume(B, 9, 1).get(0);

        List<Step<String>> replayed = task.rolledBack(rollback, snapshot).whenReplayed(snapshot.positions());

        assertThat(delivered(replayed)).isEmpty();
        assertThat(replayed).contains(new Drop<>(D, 2, DropReason.STALE_GENERATION));
        assertThat(task.whenResume(D, 9, 1)).containsExactly(new Resumed<>(D, 9));
        assertThat(task.generation(9).whenData(D, "d2")).containsExactly(new Deliver<>(D, 4, "d2"));
        assertThat(task.aligner().rolledBack()).isFalse();
    }

    @Test
    void shouldKeepTheGenerationsOfTheOtherUpstreamsChannelsAfterARollback() {
        AlignerScenario task = given(A, B, C, D).resume(A, 5).resume(C, 5).data(B, "b1 (taken)");
        Rollback<String> rollback = (Rollback<String>) task.whenResume(B, 9, 0).get(0);

        assertThat(task.aligner().generationsAfter(rollback)).containsEntry(A, 5L).containsEntry(C, 5L)
                .containsEntry(B, 9L).containsEntry(D, 9L);
    }

    @Test
    void shouldNotAlignAgainTheCheckpointsWhoseBarriersItReadBeforeARollback() {
        AlignerScenario task = given(A, B).barrier(A, 1).barrier(B, 1).barrier(B, 2).data(B, "b2");
        Snapshot<String> snapshot = task.lastSnapshot();
        Rollback<String> rollback = (Rollback<String>) task.whenResume(A, 9, 1).get(1);
        long seen = task.aligner().newestBarrier();

        task.rolledBack(rollback, snapshot).aligner().skipThrough(seen);
        List<Step<String>> replayed = task.whenReplayed(snapshot.positions());

        assertThat(seen).isEqualTo(2);
        assertThat(replayed).contains(new Drop<>(B, 2, DropReason.STALE_BARRIER), new Deliver<>(B, 3, "b2"));
        assertThat(task.aligner().aligning()).isEqualTo(-1);
    }

    @Test
    void shouldRollBackWhenTheUpstreamRestoredFromANewerCheckpointThanItsOwn() {
        AlignerScenario task = given(A, B);

        assertThat(task.whenResume(A, 9, 4)).singleElement().isInstanceOfSatisfying(Rollback.class,
                rollback -> assertThat(rollback.toCheckpoint()).isEqualTo(4));
    }

    @Test
    void shouldAdoptARestartedUpstreamOfItsOwnCheckpointWhenItTookNothingOfItsPredecessor() {
        AlignerScenario task = given(A, B).barrier(A, 3).barrier(B, 3).restored();

        assertThat(task.whenResume(A, 9, 3)).containsExactly(new Resumed<>(A, 9));
        assertThat(task.generation(9).whenData(A, "a")).containsExactly(new Deliver<>(A, 3, "a"));
    }

    @Test
    void shouldSkipAnUpstreamRestoredFromAnOlderCheckpointUntilItRestartsAgain() {
        AlignerScenario task = given(A, B).barrier(A, 3).barrier(B, 3).restored();

        assertThat(task.whenResume(A, 9, 2)).containsExactly(new Drop<>(A, 2, DropReason.UPSTREAM_BEHIND));
        assertThat(task.generation(9).whenData(A, "behind")).containsExactly(
                new Drop<>(A, 3, DropReason.STALE_GENERATION));
        assertThat(task.whenResume(A, 11, 3)).containsExactly(new Resumed<>(A, 11));
        assertThat(task.generation(11).whenData(A, "caught up")).containsExactly(new Deliver<>(A, 5, "caught up"));
    }

    @Test
    void shouldRollBackToItsOwnCheckpointWhenAnUpstreamItTookRecordsFromRestartsBehind() {
        AlignerScenario task = given(A, B).barrier(A, 3).barrier(B, 3).restored()
                .data(A, "a");

        assertThat(task.whenResume(A, 9, 2)).singleElement().isInstanceOfSatisfying(Rollback.class, rollback -> {
            assertThat(rollback.toCheckpoint()).isEqualTo(3);
            assertThat(rollback.minimumGeneration()).isEqualTo(10);
            assertThat(rollback.reason()).contains("older than checkpoint 3");
        });
    }

    @Test
    void shouldDropBarriersUpToTheRestoredCheckpoint() {
        AlignerScenario task = given(A).barrier(A, 3).restored();

        assertThat(task.whenBarrier(A, 2)).containsExactly(new Drop<>(A, 1, DropReason.STALE_BARRIER));
    }

    @Test
    void shouldReplayExactlyTheHeldBackRecordsAfterARestoreAlone() {
        AlignerScenario task = given(A, B, C).data(A, "a1").data(B, "b1").barrier(A, 1).data(A, "a2")
                .data(B, "b2").data(C, "c1").barrier(C, 1).data(C, "c2");
        List<Step<String>> aligned = task.whenBarrier(B, 1);
        Snapshot<String> snapshot = (Snapshot<String>) aligned.get(0);
        task.data(A, "a3").data(B, "b3").data(C, "c3");

        List<Step<String>> replayed = task.restored(snapshot)
                .whenReplayed(snapshot.positions());

        assertThat(delivered(aligned)).containsExactly("a2", "c2");
        assertThat(delivered(replayed)).containsExactly("a2", "c2", "a3", "b3", "c3");
        assertThat(replayed).contains(new Drop<>(B, 4, DropReason.REPLAYED), new Drop<>(B, 5, DropReason.REPLAYED));
    }
}
