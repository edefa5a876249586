package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.JOB;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.PARTICIPANT;
import static dev.cairn.sidecar.core.ControlEvents.aborted;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.participantsTriggered;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.StateHandle;
import dev.cairn.sidecar.core.SidecarAction.CancelSnapshot;
import dev.cairn.sidecar.core.SidecarAction.NotifyAborted;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantAck;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantDecline;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A sidecar in the participant role: Flink's master hooks and operator coordinators. */
class SidecarCoreParticipantTest {

    private final SidecarCore core = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));

    @Test
    void shouldSnapshotWithTheCheckpointsDetailsWhenParticipantsTriggeredNamesIt() {
        // when
        List<SidecarAction> actions = core.onControl(participantsTriggered(7, 1_000, "source-enumerator", PARTICIPANT),
                1_010);

        // then
        assertThat(actions).containsExactly(new StartSnapshot(SnapshotRequest.forParticipant(7, 1_000,
                CheckpointType.CHECKPOINT, "file:///cp/orders/chk-7", JOB, PARTICIPANT, CheckpointOptions.DEFAULTS),
                1_010 + 5_000));
    }

    @Test
    void shouldIgnoreParticipantsTriggeredWhenItDoesNotNameItOrIsForAnotherJob() {
        // given
        ParticipantsTriggered otherJob = participantsTriggered(8, 1_000, PARTICIPANT);
        otherJob.setJobId("payments");

        // then
        assertThat(core.onParticipantsTriggered(participantsTriggered(7, 1_000, "source-enumerator"), 1_000)).isEmpty();
        assertThat(core.onParticipantsTriggered(otherJob, 1_000)).isEmpty();
    }

    @Test
    void shouldIgnoreTheTasksTriggerWhenTheSidecarIsAParticipant() {
        // given the participant snapshotted checkpoint 7 and the tasks are now triggered for it
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);
        core.onSnapshotSucceeded(7, SnapshotResult.of("file:///p/7", 3), 1_100);

        // then
        assertThat(core.onTrigger(trigger(7, 1_200), 1_200)).isEmpty();
        assertThat(core.onTrigger(trigger(8, 1_300), 1_300)).isEmpty();
    }

    @Test
    void shouldIgnoreParticipantsTriggeredWhenTheSidecarIsATask() {
        SidecarCore task = new SidecarCore(ME, Duration.ofSeconds(5));

        assertThat(task.onControl(participantsTriggered(7, 1_000, PARTICIPANT, ME.taskId()), 1_000)).isEmpty();
    }

    @Test
    void shouldPublishParticipantAcknowledgedWithItsStateWhenTheSnapshotSucceeds() {
        // given
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(7, SnapshotResult.of("file:///p/7", 3), 1_100);

        // then
        ParticipantAcknowledged ack = ((PublishParticipantAck) actions.get(0)).ack();
        assertThat(ack.getJobId()).isEqualTo(JOB);
        assertThat(ack.getCheckpointId()).isEqualTo(7);
        assertThat(ack.getParticipant()).isEqualTo(PARTICIPANT);
        assertThat(ack.getState())
                .isEqualTo(StateHandle.newBuilder().setLocation("file:///p/7").setSizeBytes(3L).build());
        assertThat(ack.getTimestampMs()).isEqualTo(1_100);
    }

    @Test
    void shouldPublishParticipantAcknowledgedWithoutStateWhenTheHookHasNothingToKeep() {
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(7, SnapshotResult.none(), 1_100);

        assertThat(((PublishParticipantAck) actions.get(0)).ack().getState()).isNull();
    }

    @Test
    void shouldDeclineWithCheckpointDeclinedWhenTheHookFails() {
        // given
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);

        // when
        List<SidecarAction> actions = core.onSnapshotFailed(7, new IOException("enumerator gone"), 1_100);

        // then
        ParticipantDeclined decline = ((PublishParticipantDecline) actions.get(0)).decline();
        assertThat(decline.getParticipant()).isEqualTo(PARTICIPANT);
        assertThat(decline.getCheckpointId()).isEqualTo(7);
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(decline.getMessage()).contains("java.io.IOException", "enumerator gone");
    }

    @Test
    void shouldDeclineWithTheWorkersReasonWhenTheHookDeclinesWithOne() {
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);

        List<SidecarAction> actions = core.onSnapshotFailed(7, new SnapshotDeclinedException(
                CheckpointFailureReason.IO_EXCEPTION, "disk full"), 1_100);

        ParticipantDeclined decline = ((PublishParticipantDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.IO_EXCEPTION);
        assertThat(decline.getMessage()).isEqualTo("disk full");
    }

    @Test
    void shouldDeclineAndCancelWhenTheSnapshotTimesOut() {
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);

        List<SidecarAction> actions = core.onSnapshotTimedOut(7, 6_000);

        assertThat(actions).hasSize(2);
        ParticipantDeclined decline = ((PublishParticipantDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(decline.getMessage()).contains("5000 ms");
        assertThat(actions.get(1)).isEqualTo(new CancelSnapshot(7));
    }

    @Test
    void shouldDeclineWhenTheParticipantsHookAnswersThatItFinished() {
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(7, SnapshotResult.finishedWithoutState(), 1_100);

        assertThat(((PublishParticipantDecline) actions.get(0)).decline().getMessage()).contains("only tasks finish");
    }

    @Test
    void shouldTellTheParticipantHowTheCheckpointEndedWhenItSnapshottedIt() {
        // given
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, PARTICIPANT), 1_000);
        core.onSnapshotSucceeded(7, SnapshotResult.none(), 1_100);
        core.onParticipantsTriggered(participantsTriggered(8, 2_000, PARTICIPANT), 2_000);

        // when
        List<SidecarAction> onComplete = core.onCompleted(completed(7, 6));
        List<SidecarAction> onAbort = core.onAborted(aborted(8, 7));

        // then
        assertThat(onComplete).containsExactly(new NotifyComplete(7, 6));
        assertThat(onAbort).containsExactly(new NotifyAborted(8, 7));
    }

    @Test
    void shouldNotTellTheParticipantOfCheckpointsItDidNotSnapshot() {
        core.onParticipantsTriggered(participantsTriggered(7, 1_000, "source-enumerator"), 1_000);

        assertThat(core.onCompleted(completed(7, 6))).isEmpty();
        assertThat(core.onAborted(aborted(9, 6))).isEmpty();
    }
}
