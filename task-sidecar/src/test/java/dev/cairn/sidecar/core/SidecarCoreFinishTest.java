package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.ATTEMPT;
import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.JOB;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.TASK;
import static dev.cairn.sidecar.core.ControlEvents.aborted;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.roles;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.sidecar.core.SidecarAction.NotifyAborted;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishFinished;
import dev.cairn.sidecar.core.SidecarAction.SnapshotSkipped;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A subtask whose input is bounded finishes: TaskFinished once, then no snapshots. */
class SidecarCoreFinishTest {

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @Test
    void shouldPublishTaskFinishedWithTheFinalStateWhenTheWorkerFinishes() {
        // when
        List<SidecarAction> actions = core.onFinish(Optional.of(handle("file:///final", 12)), 3_000);

        // then
        TaskFinished finished = ((PublishFinished) actions.get(0)).finished();
        assertThat(actions).hasSize(1);
        assertThat(finished.getJobId()).isEqualTo(JOB);
        assertThat(finished.getTaskId()).isEqualTo(TASK);
        assertThat(finished.getSubtaskIndex()).isEqualTo(1);
        assertThat(finished.getAttemptId()).isEqualTo(ATTEMPT);
        assertThat(finished.getFinalState()).isEqualTo(handle("file:///final", 12));
        assertThat(finished.getTimestampMs()).isEqualTo(3_000);
        assertThat(core.isFinished()).isTrue();
    }

    @Test
    void shouldPublishTaskFinishedWithoutStateWhenTheWorkerFinishesWithNothing() {
        // when
        List<SidecarAction> actions = core.onFinish(Optional.empty(), 3_000);

        // then
        assertThat(((PublishFinished) actions.get(0)).finished().getFinalState()).isNull();
    }

    @Test
    void shouldPublishTaskFinishedOnceWhenTheWorkerFinishesTwice() {
        // given
        core.onFinish(Optional.empty(), 3_000);

        // when
        List<SidecarAction> again = core.onFinish(Optional.of(handle("file:///other", 1)), 3_100);

        // then
        assertThat(again).isEmpty();
    }

    @Test
    void shouldStartNoSnapshotWhenTriggeredAfterFinishing() {
        // given
        core.onFinish(Optional.empty(), 3_000);

        // when
        List<SidecarAction> actions = core.onTrigger(trigger(4, 4_000), 4_000);

        // then
        assertThat(actions).isEmpty();
        assertThat(core.onSnapshotSucceeded(4, SnapshotResult.of("file:///s/4", 1), 4_100)).as("4 never runs")
                .isEmpty();
    }

    @Test
    void shouldStillTellANotifiedWorkerHowLaterCheckpointsEndWhenFinished() {
        // given a finished subtask, then checkpoints 4 and 5 (the first to hold its final state)
        core.onFinish(Optional.of(handle("file:///final", 12)), 3_000);
        core.onTrigger(trigger(4, 4_000), 4_000);
        core.onTrigger(trigger(5, 5_000), 5_000);

        // when
        List<SidecarAction> onAbort = core.onAborted(aborted(4, 3));
        List<SidecarAction> onComplete = core.onCompleted(completed(5, 3));

        // then a two-phase-commit sink can commit its last transaction
        assertThat(onAbort).containsExactly(new NotifyAborted(4, 3));
        assertThat(onComplete).containsExactly(new NotifyComplete(5, 3));
    }

    @Test
    void shouldNotTellAWorkerThatIsNotNotifiedWhenFinished() {
        core.onFinish(Optional.empty(), 3_000);
        core.onTrigger(trigger(4, 4_000, List.of(roles(TASK, true, true, false))), 4_000);

        assertThat(core.onCompleted(completed(4, 3))).isEmpty();
    }

    @Test
    void shouldSkipQueuedSnapshotsWithoutAnswerWhenTheWorkerFinishes() {
        // given checkpoint 2 waits behind checkpoint 1
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onTrigger(trigger(2, 1_100), 1_100);

        // when
        List<SidecarAction> actions = core.onFinish(Optional.empty(), 1_200);

        // then
        assertThat(actions).hasSize(2);
        assertThat(actions.get(0)).isInstanceOf(PublishFinished.class);
        assertThat(actions.get(1)).isInstanceOfSatisfying(SnapshotSkipped.class,
                skipped -> assertThat(skipped.checkpointId()).isEqualTo(2));
        assertThat(core.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/1", 1), 1_300)).as("2 does not start")
                .singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldStillAnswerTheRunningSnapshotWhenTheWorkerFinishesDuringIt() {
        // given
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onFinish(Optional.empty(), 1_050);

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/1", 5), 1_100);

        // then
        assertThat(actions).singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldPublishTaskFinishedInsteadOfAnAckWhenTheSnapshotAnswersFinished() {
        // given checkpoint 2 waits behind checkpoint 1
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onTrigger(trigger(2, 1_100), 1_100);

        // when the worker answers checkpoint 1: input exhausted, this is my final state
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.finishedWith("file:///final", 9),
                1_200);

        // then
        assertThat(actions).hasSize(2);
        TaskFinished finished = ((PublishFinished) actions.get(0)).finished();
        assertThat(finished.getFinalState()).isEqualTo(handle("file:///final", 9));
        assertThat(finished.getTimestampMs()).isEqualTo(1_200);
        assertThat(actions.get(1)).isInstanceOf(SnapshotSkipped.class);
        assertThat(core.isFinished()).isTrue();
        assertThat(core.onSnapshotSucceeded(2, SnapshotResult.of("file:///s/2", 1), 1_300)).as("2 never runs")
                .isEmpty();
        assertThat(core.onCompleted(completed(1, -1))).containsExactly(new NotifyComplete(1, -1));
    }

    @Test
    void shouldPublishTaskFinishedWithoutStateWhenTheSnapshotAnswersFinishedWithoutState() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.finishedWithoutState(), 1_200);

        assertThat(((PublishFinished) actions.get(0)).finished().getFinalState()).isNull();
    }

    @Test
    void shouldPublishTaskFinishedWhenTheFinishedAnswerComesAfterATimeoutDecline() {
        // given
        core.onTrigger(trigger(1, 1_000), 1_000);
        core.onSnapshotTimedOut(1, 6_000);

        // when the worker's late answer says it finished
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.finishedWithoutState(), 6_100);

        // then the checkpoint is not answered twice, but the subtask's end is not lost
        assertThat(actions).singleElement().isInstanceOf(PublishFinished.class);
    }

    @Test
    void shouldRefuseToFinishWhenTheSidecarIsAParticipant() {
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));

        assertThatThrownBy(() -> participant.onFinish(Optional.empty(), 1_000))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("participant");
    }

    @Test
    void shouldStartSnapshotsAsBeforeWhenNotFinished() {
        assertThat(core.onTrigger(trigger(1, 1_000), 1_000)).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(core.isFinished()).isFalse();
    }

    private static StateHandle handle(String location, long sizeBytes) {
        return StateHandle.newBuilder().setLocation(location).setSizeBytes(sizeBytes).build();
    }
}
