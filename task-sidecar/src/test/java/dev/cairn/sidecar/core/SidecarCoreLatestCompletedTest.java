package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.PARTICIPANT;
import static dev.cairn.sidecar.core.ControlEvents.TASK;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.participantsTriggered;
import static dev.cairn.sidecar.core.ControlEvents.roles;
import static dev.cairn.sidecar.core.ControlEvents.savepoint;
import static dev.cairn.sidecar.core.ControlEvents.savepointCompleted;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The newest completed checkpoint every snapshot request carries, so that a worker restored from an older one
 * (its previous attempt's last ack was in flight when the sidecar read the restore point) knows it is behind.
 */
class SidecarCoreLatestCompletedTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static SidecarCore restoredFrom(SidecarIdentity identity, long checkpointId) {
        return new SidecarCore(identity, TIMEOUT, Optional.of(new RestorePoint(checkpointId, "file:///s/"
                + checkpointId, 64)));
    }

    private static SnapshotRequest started(List<SidecarAction> actions) {
        return actions.stream().filter(StartSnapshot.class::isInstance).map(StartSnapshot.class::cast)
                .map(StartSnapshot::request).findFirst()
                .orElseThrow(() -> new AssertionError("no snapshot started: " + actions));
    }

    @Test
    void shouldStampTheRestorePointsCheckpointWhenTheFirstRequestIsBuilt() {
        // given a worker restored from checkpoint 4
        SidecarCore core = restoredFrom(ME, 4);

        // when
        SnapshotRequest request = started(core.onControl(trigger(5, 1_000), 1_010));

        // then
        assertThat(request.latestCompletedId()).isEqualTo(4);
    }

    @Test
    void shouldStampNoCompletedCheckpointWhenTheWorkerRestoredFromNothingAndNoCompletionWasRead() {
        // given
        SidecarCore core = new SidecarCore(ME, TIMEOUT, Optional.empty());

        // when
        SnapshotRequest request = started(core.onControl(trigger(1, 1_000), 1_010));

        // then
        assertThat(request.latestCompletedId()).isEqualTo(SnapshotRequest.NO_COMPLETED_CHECKPOINT).isEqualTo(-1);
    }

    @Test
    void shouldStampACompletionReadBeforeTheTriggerWhenItIsNewerThanTheRestorePoint() {
        // given a worker restored from 4, and the completion of 5 (its previous attempt's ack was in flight)
        SidecarCore core = restoredFrom(ME, 4);
        core.onControl(completed(5, 4), 1_000);

        // when
        SnapshotRequest request = started(core.onControl(trigger(6, 1_100), 1_110));

        // then the worker, restored from 4, learns that it is behind
        assertThat(request.latestCompletedId()).isEqualTo(5);
        assertThat(core.latestCompletedId()).isEqualTo(5);
    }

    @Test
    void shouldNeverLowerItWhenAnOlderCompletionIsReadLater() {
        // given
        SidecarCore core = restoredFrom(ME, 4);
        core.onControl(completed(6, 5), 1_000);

        // when an older completion (a replay, or one written late) is read after it
        core.onControl(completed(5, 4), 1_050);
        SnapshotRequest request = started(core.onControl(trigger(7, 1_100), 1_110));

        // then
        assertThat(request.latestCompletedId()).isEqualTo(6);
    }

    @Test
    void shouldNeverLowerTheRestorePointsCheckpointWhenAnOlderCompletionIsRead() {
        // given
        SidecarCore core = restoredFrom(ME, 4);

        // when
        core.onControl(completed(3, 2), 1_000);

        // then
        assertThat(started(core.onControl(trigger(5, 1_100), 1_110)).latestCompletedId()).isEqualTo(4);
    }

    @Test
    void shouldCountACompletionWhenThisAttemptHadNoPartInItsCheckpoint() {
        // given a checkpoint in which this task has no role, and one this sidecar never saw triggered
        SidecarCore core = new SidecarCore(ME, TIMEOUT, Optional.empty());
        assertThat(core.onControl(trigger(3, 900, List.of(roles(TASK, false, false, false))), 900)).isEmpty();
        core.onControl(completed(3, -1), 1_000);
        assertThat(core.latestCompletedId()).isEqualTo(3);

        // when
        core.onControl(completed(4, 3), 1_050);
        SnapshotRequest request = started(core.onControl(trigger(5, 1_100), 1_110));

        // then
        assertThat(request.latestCompletedId()).isEqualTo(4);
    }

    @Test
    void shouldStampACompletionReadWhileTheSnapshotWaitedWhenTheSnapshotStartsLater() {
        // given checkpoint 5 snapshotting and 6 queued behind it
        SidecarCore core = restoredFrom(ME, 2);
        assertThat(started(core.onControl(trigger(5, 1_000), 1_000)).latestCompletedId()).isEqualTo(2);
        core.onControl(trigger(6, 1_100), 1_100);

        // when a completion this attempt had no part in is read before 6 starts
        core.onControl(completed(3, 2), 1_150);
        SnapshotRequest request = started(core.onSnapshotSucceeded(5, SnapshotResult.of("file:///s/5", 8), 1_200));

        // then 6 is asked with what the sidecar knew when it asked
        assertThat(request.checkpointId()).isEqualTo(6);
        assertThat(request.latestCompletedId()).isEqualTo(3);
    }

    @Test
    void shouldCountAStopWithSavepointWhenItCompletes() {
        // given
        SidecarCore core = restoredFrom(ME, 4);
        core.onControl(savepoint(5, 1_000, PostCheckpointAction.SUSPEND), 1_000);

        // when
        core.onControl(savepointCompleted(5, PostCheckpointAction.SUSPEND), 1_100);

        // then
        assertThat(core.isStopping()).isTrue();
        assertThat(core.latestCompletedId()).isEqualTo(5);
    }

    @Test
    void shouldIgnoreACompletionWhenItIsOfAnotherJob() {
        // given
        SidecarCore core = restoredFrom(ME, 4);
        CheckpointCompleted otherJob = completed(9, 8);
        otherJob.setJobId("payments");

        // when
        core.onControl(otherJob, 1_000);

        // then
        assertThat(started(core.onControl(trigger(5, 1_100), 1_110)).latestCompletedId()).isEqualTo(4);
    }

    @Test
    void shouldStampItOnAParticipantsRequestWhenAParticipantSnapshots() {
        // given a participant restored from 4 that read the completion of 5
        SidecarCore core = restoredFrom(COORDINATOR_SIDE, 4);
        core.onControl(completed(5, 4), 1_000);

        // when
        SnapshotRequest request = started(core.onControl(participantsTriggered(6, 1_100, PARTICIPANT), 1_110));

        // then
        assertThat(request.participant()).isEqualTo(PARTICIPANT);
        assertThat(request.latestCompletedId()).isEqualTo(5);
    }

    @Test
    void shouldStampTheCompletionSeenBeforeStartWhenItIsNewerThanTheRestorePoint() {
        // given a worker restored from 4 while control already showed 5 completed, before the sidecar's position
        SidecarCore core = restoredFrom(ME, 4);
        core.completedBeforeStart(5);

        // when
        SnapshotRequest request = started(core.onControl(trigger(6, 1_100), 1_110));

        // then
        assertThat(request.latestCompletedId()).isEqualTo(5);
    }

    @Test
    void shouldNeverLowerTheRestorePointsCheckpointWhenNoCompletionWasSeenBeforeStart() {
        // given
        SidecarCore core = restoredFrom(ME, 4);

        // when
        core.completedBeforeStart(SnapshotRequest.NO_COMPLETED_CHECKPOINT);
        core.completedBeforeStart(3);

        // then
        assertThat(core.latestCompletedId()).isEqualTo(4);
    }

    @Test
    void shouldNeitherNotifyNorStopWhenAStopWithSavepointWasSeenBeforeStart() {
        // given a stop-with-savepoint 5 completed before this attempt started (the job was restarted since)
        SidecarCore core = restoredFrom(ME, 5);
        core.completedBeforeStart(5);

        // when
        List<SidecarAction> actions = core.onControl(trigger(6, 1_100), 1_110);

        // then
        assertThat(core.isStopping()).isFalse();
        assertThat(started(actions).latestCompletedId()).isEqualTo(5);
    }
}
