package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.aborted;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.sidecar.core.SidecarAction.CancelSnapshot;
import dev.cairn.sidecar.core.SidecarAction.NotifyAborted;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishDecline;
import dev.cairn.sidecar.core.SidecarAction.SnapshotSkipped;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Declines, time-outs, notifications and the at-most-one-answer rule. */
class SidecarCoreAnswerTest {

    private static final SnapshotResult RESULT = SnapshotResult.of("file:///s", 100);

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @Test
    void shouldDeclineWithTheWorkersReasonAndMessageWhenTheHookDeclines() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotFailed(1, new SnapshotDeclinedException(
                CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_NOT_READY, "still warming up"), 1_100);

        CheckpointDeclined decline = ((PublishDecline) actions.get(0)).decline();
        assertThat(decline.getCheckpointId()).isEqualTo(1);
        assertThat(decline.getAttemptId()).isEqualTo(ME.attemptId());
        assertThat(decline.getSubtaskIndex()).isEqualTo(1);
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_NOT_READY);
        assertThat(decline.getMessage()).isEqualTo("still warming up");
        assertThat(decline.getTimestampMs()).isEqualTo(1_100);
    }

    @Test
    void shouldDeclineAsAnAsyncExceptionNamingTheCauseWhenTheHookFails() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotFailed(1,
                new CompletionException(new IOException("disk full")), 1_100);

        CheckpointDeclined decline = ((PublishDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);
        assertThat(decline.getMessage()).contains("java.io.IOException", "disk full");
    }

    @Test
    void shouldDeclineWhenTheResultHasNoStateHandleLocation() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of(" ", 0), 1_100);

        assertThat(((PublishDecline) actions.get(0)).decline().getMessage()).contains("no state handle");
    }

    @Test
    void shouldDeclineAndCancelWhenASnapshotOutlivesTheSidecarsTimeout() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotTimedOut(1, 6_000);

        assertThat(actions).hasSize(2);
        CheckpointDeclined decline = ((PublishDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(decline.getMessage()).contains("5000 ms");
        assertThat(actions.get(1)).isEqualTo(new CancelSnapshot(1));
    }

    @Test
    void shouldNotAckAndStartTheNextSnapshotOnlyThenWhenAResultArrivesAfterATimeout() {
        // given checkpoint 1 timed out while checkpoint 2 waits
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onTrigger(trigger(2, 2_000), 2_000);
        core.onSnapshotTimedOut(1, 6_000);

        // then the hook is still busy with checkpoint 1: checkpoint 2 has not started (and no answer of it counts)
        assertThat(core.onSnapshotSucceeded(2, RESULT, 6_500)).isEmpty();

        // when the hook finally returns a result for checkpoint 1
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, RESULT, 7_000);

        // then nothing is published for it, and checkpoint 2 starts
        assertThat(actions).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(((StartSnapshot) actions.get(0)).request().checkpointId()).isEqualTo(2);
    }

    @Test
    void shouldNotDeclineAgainWhenAFailureFollowsATimeoutDecline() {
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onSnapshotTimedOut(1, 6_000);

        assertThat(core.onSnapshotFailed(1, new IllegalStateException("interrupted"), 6_010)).isEmpty();
        assertThat(core.onSnapshotTimedOut(1, 6_020)).isEmpty();
    }

    @Test
    void shouldSkipTheSnapshotAndTellTheWorkerWhenAQueuedCheckpointIsAborted() {
        // given checkpoint 2 waits behind checkpoint 1
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onTrigger(trigger(2, 2_000), 2_000);

        // when checkpoint 2 is aborted before its snapshot started
        List<SidecarAction> onAbort = core.onAborted(aborted(2, 0));

        // then it is skipped: no hook call, no ack; the worker learns of the abort
        assertThat(onAbort).hasSize(2);
        assertThat(onAbort.get(0)).isInstanceOf(SnapshotSkipped.class);
        assertThat(onAbort.get(1)).isEqualTo(new NotifyAborted(2, 0));
        assertThat(core.onSnapshotSucceeded(1, RESULT, 3_000)).singleElement().isInstanceOf(PublishAck.class);
        assertThat(core.onSnapshotSucceeded(2, RESULT, 3_100)).as("2 never runs").isEmpty();
    }

    @Test
    void shouldSkipTheSnapshotWhenAQueuedCheckpointCompletes() {
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onTrigger(trigger(2, 2_000), 2_000);

        List<SidecarAction> onComplete = core.onCompleted(completed(2, 1));

        assertThat(onComplete.get(0)).isInstanceOf(SnapshotSkipped.class);
        assertThat(onComplete.get(1)).isEqualTo(new NotifyComplete(2, 1));
        assertThat(core.onSnapshotSucceeded(1, RESULT, 3_000)).singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldPassNotificationsOnAtOnceWhenASnapshotRuns() {
        // given checkpoint 1 acked, checkpoint 2 running
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onSnapshotSucceeded(1, RESULT, 1_100);
        core.onTrigger(trigger(2, 2_000), 2_000);

        // when checkpoint 1 completes while 2's snapshot runs
        List<SidecarAction> actions = core.onCompleted(completed(1, -1));

        // then
        assertThat(actions).containsExactly(new NotifyComplete(1, -1));
        assertThat(core.onSnapshotSucceeded(2, RESULT, 2_100)).as("2 still runs")
                .singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldStillAckForCleanUpWhenASnapshotFinishesAfterItsCheckpointWasAborted() {
        // given checkpoint 1 expires at the coordinator while its snapshot runs
        core.onTrigger(trigger(1, 1_000), 1_000);
        List<SidecarAction> onAbort = core.onAborted(aborted(1, -1));

        // when the snapshot finishes
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, RESULT, 12_000);

        // then the worker was told at once, and the late ack is still published (the coordinator discards it
        // and reports its state handle for clean-up)
        assertThat(onAbort).containsExactly(new NotifyAborted(1, -1));
        assertThat(actions).singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldNotDeclineWhenASnapshotFailsAfterItsCheckpointWasAborted() {
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onAborted(aborted(1, -1));

        assertThat(core.onSnapshotFailed(1, new IOException("gone"), 2_000)).isEmpty();
    }

    @Test
    void shouldCancelWithoutDecliningWhenATimeoutFollowsAnAbort() {
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onAborted(aborted(1, -1));

        assertThat(core.onSnapshotTimedOut(1, 6_000)).containsExactly(new CancelSnapshot(1));
    }

    @Test
    void shouldPassEachOutcomeOnOnceWhenRepeated() {
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onSnapshotSucceeded(1, RESULT, 1_100);

        assertThat(core.onCompleted(completed(1, -1))).hasSize(1);
        assertThat(core.onCompleted(completed(1, -1))).isEmpty();
        assertThat(core.onAborted(aborted(1, -1))).isEmpty();
    }

    @Test
    void shouldNotPassTheEndOnWhenTheCheckpointWasNotPlannedForThisAttempt() {
        // a checkpoint triggered before this attempt registered ends: the worker never saw it
        assertThat(core.onAborted(aborted(3, 2))).isEmpty();
        assertThat(core.onCompleted(completed(4, 2))).isEmpty();
    }

    @Test
    void shouldChangeNothingWhenTheSnapshotIsNotRunning() {
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onTrigger(trigger(2, 2_000), 2_000);

        assertThat(core.onSnapshotSucceeded(2, RESULT, 2_100)).isEmpty();
        assertThat(core.onSnapshotFailed(7, new IOException("?"), 2_100)).isEmpty();
        assertThat(core.onSnapshotTimedOut(2, 2_100)).isEmpty();
        List<SidecarAction> afterFirst = core.onSnapshotSucceeded(1, RESULT, 2_200);
        assertThat(afterFirst).as("1 still runs, 2 still waits").hasSize(2);
        assertThat(afterFirst.get(0)).isInstanceOf(PublishAck.class);
        assertThat(((StartSnapshot) afterFirst.get(1)).request().checkpointId()).isEqualTo(2);
    }

    @Test
    void shouldDispatchControlEventsWhenTheyArriveByType() {
        assertThat(core.onControl(trigger(1, 1_000), 1_000)).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(core.onControl(aborted(1, -1), 1_100)).containsExactly(new NotifyAborted(1, -1));
        assertThat(core.onControl("not an event", 1_200)).isEmpty();
    }
}
