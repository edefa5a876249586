package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.JOB;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.savepointCompleted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.sidecar.core.RestoreCheck.AwaitCompleted;
import dev.cairn.sidecar.core.RestoreCheck.Restore;
import dev.cairn.sidecar.hook.SnapshotRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A starting sidecar never restores a point older than a completion already visible on the control topic (Kafka
 * shows one transaction's completion on control and its restore point on the completed topic partition by
 * partition), and knows the newest completion it saw there.
 */
class RestoreCheckTest {

    @Test
    void shouldWaitForTheCompletedTopicWhenControlShowsANewerCompletion() {
        // given the completed topic shows 4, control already shows 5 completed
        List<CheckpointCompleted> onControl = List.of(completed(4, 3), completed(5, 4));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 4, -1, onControl);

        // then
        assertThat(verdict).isEqualTo(new AwaitCompleted(5, 5));
    }

    @Test
    void shouldRestoreWhenTheCompletedTopicShowsTheNewestCompletionOnControl() {
        // given
        List<CheckpointCompleted> onControl = List.of(completed(4, 3), completed(5, 4));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 5, -1, onControl);

        // then
        assertThat(verdict).isEqualTo(new Restore(5));
    }

    @Test
    void shouldRestoreKnowingNothingNewerWhenControlShowsNoCompletion() {
        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 4, -1, List.of());

        // then
        assertThat(verdict).isEqualTo(new Restore(SnapshotRequest.NO_COMPLETED_CHECKPOINT));
    }

    @Test
    void shouldWaitWhenNothingIsRetainedYetButControlShowsACompletedCheckpoint() {
        // when a first checkpoint's completion is visible on control only
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, SnapshotRequest.NO_COMPLETED_CHECKPOINT, -1,
                List.of(completed(1, -1)));

        // then
        assertThat(verdict).isEqualTo(new AwaitCompleted(1, 1));
    }

    @Test
    void shouldRestoreButKnowTheSavepointWhenControlShowsANewerPlainSavepoint() {
        // given a plain savepoint (the user's, not a restore point) completed after the restore point 4
        List<CheckpointCompleted> onControl = List.of(completed(4, 3),
                savepointCompleted(5, PostCheckpointAction.NONE));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 4, -1, onControl);

        // then the worker restores from 4, and its first request knows that 5 completed
        assertThat(verdict).isEqualTo(new Restore(5));
    }

    @Test
    void shouldWaitForTheCompletedTopicWhenControlShowsANewerStopWithSavepoint() {
        // given a stop-with-savepoint, which becomes the job's restore point
        List<CheckpointCompleted> onControl = List.of(savepointCompleted(5, PostCheckpointAction.SUSPEND));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 4, -1, onControl);

        // then
        assertThat(verdict).isEqualTo(new AwaitCompleted(5, 5));
    }

    @Test
    void shouldAwaitTheNewestRestorePointButKnowANewerSavepointWhenBothAreOnControl() {
        // given
        List<CheckpointCompleted> onControl = List.of(completed(5, 4), savepointCompleted(6,
                PostCheckpointAction.NONE));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 4, -1, onControl);

        // then
        assertThat(verdict).isEqualTo(new AwaitCompleted(5, 6));
    }

    @Test
    void shouldIgnoreACompletionWhenItIsOfAnotherJob() {
        // given
        CheckpointCompleted otherJob = completed(9, 8);
        otherJob.setJobId("payments");

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 4, -1, List.of(otherJob));

        // then
        assertThat(verdict).isEqualTo(new Restore(SnapshotRequest.NO_COMPLETED_CHECKPOINT));
    }

    @Test
    void shouldRestoreWhenControlShowsOnlyOlderCompletions() {
        // when the completed topic is ahead of what the look-back saw (or equal to it)
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, 7, -1, List.of(completed(6, 5), completed(5, 4)));

        // then
        assertThat(verdict).isEqualTo(new Restore(6));
    }

    @Test
    void shouldTakeTheLastRetainedCheckpointWhenTheNewestRetainedIsAsked() {
        // given
        RetainedCheckpoints retained = RetainedCheckpoints.newBuilder().setJobId(JOB)
                .setCheckpoints(List.of(completed(3, 2), completed(4, 3))).build();

        // then
        assertThat(RestoreCheck.newestRetained(Optional.of(retained))).isEqualTo(4);
        assertThat(RestoreCheck.newestRetained(Optional.empty())).isEqualTo(SnapshotRequest.NO_COMPLETED_CHECKPOINT);
    }

    @Test
    void shouldRestoreAChosenOlderPointIgnoringTheCompletionsThatCameBeforeTheRestore() {
        // given a user restored the job from savepoint 2 after checkpoint 6 completed; control still shows 5 and 6
        RetainedCheckpoints retained = RetainedCheckpoints.newBuilder().setJobId(JOB)
                .setCheckpoints(List.of(savepointCompleted(2, PostCheckpointAction.NONE))).setChosenRestoreId(2)
                .setChosenAfterId(6).build();
        List<CheckpointCompleted> onControl = List.of(completed(5, 4), completed(6, 5));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, Optional.of(retained), onControl);

        // then the chosen point is restored, and the worker is not told of completions older than the restore
        assertThat(verdict).isEqualTo(new Restore(SnapshotRequest.NO_COMPLETED_CHECKPOINT));
    }

    @Test
    void shouldStillWaitForACompletionThatCameAfterTheRestoreOfAChosenPoint() {
        // given the restore from savepoint 2 came after checkpoint 6, and checkpoint 7 already completed since
        RetainedCheckpoints retained = RetainedCheckpoints.newBuilder().setJobId(JOB)
                .setCheckpoints(List.of(savepointCompleted(2, PostCheckpointAction.NONE))).setChosenRestoreId(2)
                .setChosenAfterId(6).build();
        List<CheckpointCompleted> onControl = List.of(completed(6, 5), completed(7, -1));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, Optional.of(retained), onControl);

        // then
        assertThat(verdict).isEqualTo(new AwaitCompleted(7, 7));
    }

    @Test
    void shouldRestoreNothingIgnoringTheCompletionsOfAJobRemovedUnderTheSameId() {
        // given job-1 was removed after its ids up to 4 (its stop's savepoint, 4, is still on control); the id is
        // registered again, and the completed topic shows no checkpoint and the ids the removed job used
        RetainedCheckpoints removed = RetainedCheckpoints.newBuilder().setJobId(JOB).setCheckpoints(List.of())
                .setChosenAfterId(4).build();
        List<CheckpointCompleted> onControl = List.of(completed(3, 2), savepointCompleted(4,
                PostCheckpointAction.SUSPEND));

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, Optional.of(removed), onControl);

        // then the worker starts afresh at once, and is told of no completion of the removed job
        assertThat(verdict).isEqualTo(new Restore(SnapshotRequest.NO_COMPLETED_CHECKPOINT));
        assertThat(RestorePoints.latest(Optional.of(removed), List.of(), "source", 0)).isEmpty();
    }

    @Test
    void shouldStillWaitForACompletionOfTheJobRegisteredAgainAfterARemoval() {
        // given the job registered again completed checkpoint 5 on control, the completed topic still shows the removal
        RetainedCheckpoints removed = RetainedCheckpoints.newBuilder().setJobId(JOB).setCheckpoints(List.of())
                .setChosenAfterId(4).build();

        // when
        RestoreCheck.Verdict verdict = RestoreCheck.check(JOB, Optional.of(removed), List.of(completed(5, -1)));

        // then
        assertThat(verdict).isEqualTo(new AwaitCompleted(5, 5));
    }
}
