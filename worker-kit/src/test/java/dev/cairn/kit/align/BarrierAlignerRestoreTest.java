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
import dev.cairn.kit.align.Step.Resumed;
import dev.cairn.kit.align.Step.Snapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Generations, resume records, and what a restored task replays. */
class BarrierAlignerRestoreTest {

    @Test
    void shouldDropRecordsOfAnOlderGenerationAfterAResume() {
        AlignerScenario task = given(A, B).data(A, "old").resume(A, 4);

        assertThat(task.generation(-1).whenData(A, "late old")).containsExactly(
                new Drop<>(A, 2, DropReason.STALE_GENERATION));
        assertThat(task.generation(4).whenData(A, "new")).containsExactly(new Deliver<>(A, 3, "new"));
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
    void shouldDropRecordsUntilTheResumeAfterARestoreWithUpstream() {
        AlignerScenario task = given(A, B).barrier(A, 1).barrier(B, 1)
                .restored(BarrierAligner::restoredWithUpstream).data(A, "after the crash");

        List<Step<String>> beforeResume = task.whenBarrier(B, 2);
        task.resume(A, 1).resume(B, 1).generation(1);

        assertThat(beforeResume).containsExactly(new Drop<>(B, 3, DropReason.AWAITING_RESUME));
        assertThat(task.whenData(A, "again")).containsExactly(new Deliver<>(A, 6, "again"));
        assertThat(task.whenBarrier(B, 2)).containsExactly(new AwaitBarriers<>(2, 1));
    }

    @Test
    void shouldDropBarriersUpToTheRestoredCheckpoint() {
        AlignerScenario task = given(A).barrier(A, 3).restored(BarrierAligner::restoredAlone);

        assertThat(task.whenBarrier(A, 2)).containsExactly(new Drop<>(A, 1, DropReason.STALE_BARRIER));
    }

    @Test
    void shouldReplayExactlyTheHeldBackRecordsAfterARestoreAlone() {
        AlignerScenario task = given(A, B, C).data(A, "a1").data(B, "b1").barrier(A, 1).data(A, "a2")
                .data(B, "b2").data(C, "c1").barrier(C, 1).data(C, "c2");
        List<Step<String>> aligned = task.whenBarrier(B, 1);
        Snapshot<String> snapshot = (Snapshot<String>) aligned.get(0);
        task.data(A, "a3").data(B, "b3").data(C, "c3");

        List<Step<String>> replayed = task.restored(BarrierAligner::restoredAlone, snapshot)
                .whenReplayed(snapshot.positions());

        assertThat(delivered(aligned)).containsExactly("a2", "c2");
        assertThat(delivered(replayed)).containsExactly("a2", "c2", "a3", "b3", "c3");
        assertThat(replayed).contains(new Drop<>(B, 4, DropReason.REPLAYED), new Drop<>(B, 5, DropReason.REPLAYED));
    }

    @Test
    void shouldReplayOnlyTheRecordsOfTheRestoredUpstreamAfterARestoreWithUpstream() {
        AlignerScenario task = given(A, B).data(A, "a1").barrier(A, 1).data(A, "a2 (lost)").barrier(B, 1)
                .data(B, "b2 (lost)");
        Snapshot<String> snapshot = task.lastSnapshot();
        task.resume(A, 1).resume(B, 1).generation(1).data(A, "a2").data(B, "b2");

        List<Step<String>> replayed = task.restored(BarrierAligner::restoredWithUpstream, snapshot)
                .whenReplayed(snapshot.positions());

        assertThat(delivered(replayed)).containsExactly("a2", "b2");
    }
}
