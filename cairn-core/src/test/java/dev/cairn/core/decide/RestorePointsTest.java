package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.status;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SavepointDisposed;
import org.junit.jupiter.api.Test;

/**
 * Points to restore from: the savepoint that stopped a job is its restore point (so a worker that dies after the stop
 * restores it, and a resumed job goes on from it); every savepoint is kept until disposed of; a stopped job is
 * restored from a savepoint or retained checkpoint a user names, in Flink's CLAIM or NO_CLAIM mode.
 */
class RestorePointsTest {

    private static final String SAVEPOINT_TARGET = "file:///savepoints/sp-2";

    /**
     * Checkpoint 1 at 1000, savepoint 2 (to {@link #SAVEPOINT_TARGET}) at 1200, checkpoint 3 at 2000, all
     * completed; then a stop-with-savepoint, savepoint 4, completed at 2300: the job is FINISHED.
     */
    private static Scenario stopped() {
        return Scenario.runningJob(spec(config().setBackupType(BackupType.INCREMENTAL)), 1000)
                .and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(savepointRequest("sp", SAVEPOINT_TARGET), 1200).ackAll(JOB, 2, 1300)
                .and(tick(), 2000).ackAll(JOB, 3, 2100)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 2200).ackAll(JOB, 4, 2300);
    }

    private static Command.Restore restore(String requestId, Long checkpointId, String path, RestoreMode mode) {
        return new Command.Restore(RestoreJob.newBuilder().setJobId(JOB).setRequestId(requestId)
                .setCheckpointId(checkpointId).setSavepointPath(path).setRestoreMode(mode).setRequester("test")
                .setTimestampMs(0).build(), 0.0);
    }

    private static Command.Dispose dispose(String requestId, Long checkpointId, String path) {
        return new Command.Dispose(DisposeSavepoint.newBuilder().setJobId(JOB).setRequestId(requestId)
                .setCheckpointId(checkpointId).setSavepointPath(path).setRequester("test").setTimestampMs(0).build());
    }

    private static long restorePointId(Then then) {
        return newest(then.state().retained(JOB).orElseThrow()).getCheckpointId();
    }

    private static CheckpointCompleted newest(RetainedCheckpoints retained) {
        return retained.getCheckpoints().get(retained.getCheckpoints().size() - 1);
    }

    @Test
    void shouldMakeTheStopsSavepointTheJobsRestorePointWithItsSubtaskStatesKept() {
        Scenario running = Scenario.runningJob(spec(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(stop("stop", PostCheckpointAction.TERMINATE), 1200);

        Then then = running.ackAll(JOB, 2, 1300).when(tick(), 1400);

        RetainedCheckpoints retained = then.state().retained(JOB).orElseThrow();
        assertThat(newest(retained).getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(newest(retained).getCheckpointId()).isEqualTo(2);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
        assertThat(then.state().acks(JOB, 2)).hasSize(3);
        assertThat(then.state().savepoints(JOB)).extracting(CheckpointCompleted::getCheckpointId).containsExactly(2L);
    }

    @Test
    void shouldNeverReportTheStopsSavepointSubsumedWhenTheResumedJobCheckpoints() {
        Scenario resumed = stopped().and(status(JobStatus.RUNNING), 3000);

        Then then = resumed.and(tick(), 3000).ackAll(JOB, 5, 3100).when(tick(), 3200);

        assertThat(restorePointId(then)).isEqualTo(5);
        CheckpointCompleted fifth = then.scenario().state().retained(JOB).orElseThrow().getCheckpoints().get(0);
        assertThat(fifth.getLastSubsumedId()).as("the savepoint belongs to the user").isEqualTo(-1);
        assertThat(then.state().acks(JOB, 4)).as("the savepoint stays a point to restore from").hasSize(3);
    }

    @Test
    void shouldGoOnFromTheStopsSavepointWithNewIdsWhenTheJobRunsAgain() {
        Then then = stopped().when(status(JobStatus.RUNNING), 3000);

        assertThat(restorePointId(then)).isEqualTo(4);
        assertThat(then.job(JOB).getNextCheckpointId()).isEqualTo(5);
        assertThat(then.has(PeriodicTriggerScheduled.class)).isTrue();
    }

    @Test
    void shouldRestoreFromAnOlderSavepointInNoClaimModeWithAFullFirstCheckpointAndNewIds() {
        Then then = stopped().when(restore("r1", null, SAVEPOINT_TARGET, RestoreMode.NO_CLAIM), 3000);

        then.thenTypes(RestoreJob.class, JobRestored.class, RequestOutcome.class, JobStatusChange.class,
                PeriodicTriggerScheduled.class);
        assertThat(then.single(JobRestored.class).getRestorePoint().getCheckpointId()).isEqualTo(2);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.COMPLETED);
        RetainedCheckpoints retained = then.state().retained(JOB).orElseThrow();
        assertThat(newest(retained).getCheckpointId()).isEqualTo(2);
        assertThat(retained.getChosenRestoreId()).isEqualTo(2);
        assertThat(retained.getRestoreMode()).isEqualTo(RestoreMode.NO_CLAIM);

        Then triggered = then.scenario().when(tick(), 3000);
        CheckpointTriggered next = triggered.single(CheckpointTriggered.class);
        assertThat(next.getCheckpointId()).as("ids go on above every id used").isEqualTo(5);
        assertThat(next.getOptions().getBackupType()).as("NO_CLAIM: the first checkpoint is full")
                .isEqualTo(BackupType.FULL);

        Then completed = triggered.scenario().ackAll(JOB, 5, 3100).when(tick(), 4000);
        assertThat(completed.single(CheckpointTriggered.class).getOptions().getBackupType())
                .as("after the first checkpoint, the job's own backup type").isEqualTo(BackupType.INCREMENTAL);
        RetainedCheckpoints after = completed.state().retained(JOB).orElseThrow();
        assertThat(newest(after).getCheckpointId()).isEqualTo(5);
        assertThat(newest(after).getLastSubsumedId()).as("a NO_CLAIM point is never reported subsumed").isEqualTo(-1);
        assertThat(completed.state().acks(JOB, 2)).as("the savepoint is still the user's").hasSize(3);
    }

    @Test
    void shouldRestoreFromARetainedCheckpointByIdAndClaimASavepointInClaimMode() {
        Then then = stopped().when(restore("r1", 2L, null, RestoreMode.CLAIM), 3000);

        assertThat(restorePointId(then)).isEqualTo(2);
        assertThat(then.state().savepoints(JOB)).as("claimed: the coordinator owns it now")
                .extracting(CheckpointCompleted::getCheckpointId).containsExactly(4L);

        Then completed = then.scenario().and(tick(), 3000).ackAll(JOB, 5, 3100).when(tick(), 4000);
        CheckpointCompleted fifth = newest(completed.state().retained(JOB).orElseThrow());
        assertThat(fifth.getLastSubsumedId()).as("a claimed point is subsumed like a checkpoint").isEqualTo(2);
    }

    @Test
    void shouldRefuseToRestoreARunningJob() {
        Then then = Scenario.runningJob(spec(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100)
                .when(restore("r1", 1L, null, RestoreMode.NO_CLAIM), 1200);

        then.thenTypes(RestoreJob.class, RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.INVALID_REQUEST);
        assertThat(outcome.getMessage()).contains("is RUNNING");
    }

    @Test
    void shouldTellTheRequesterWhenTheJobKeepsNoSuchPoint() {
        Then then = stopped().when(restore("r1", null, "file:///nowhere", RestoreMode.NO_CLAIM), 3000);

        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getMessage()).contains("keeps no restore point at file:///nowhere");
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
    }

    @Test
    void shouldChangeNothingWhenTheSameRestoreRequestComesAgain() {
        Then then = stopped().and(restore("r1", 2L, null, RestoreMode.NO_CLAIM), 3000)
                .when(restore("r1", 2L, null, RestoreMode.NO_CLAIM), 3001);

        then.thenNothing();
    }

    @Test
    void shouldDisposeOfASavepointSoThatNothingRestoresFromItAgain() {
        Then then = stopped().when(dispose("d1", null, SAVEPOINT_TARGET + "/"), 3000);

        then.thenTypes(DisposeSavepoint.class, SavepointDisposed.class, RequestOutcome.class);
        assertThat(then.single(SavepointDisposed.class).getCheckpointId()).isEqualTo(2);
        assertThat(then.state().savepoints(JOB)).extracting(CheckpointCompleted::getCheckpointId).containsExactly(4L);

        Then restore = then.scenario().when(restore("r1", 2L, null, RestoreMode.NO_CLAIM), 3100);
        assertThat(restore.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.FAILED);
    }

    @Test
    void shouldRefuseToDisposeOfTheSavepointTheJobRestoresFrom() {
        Then then = stopped().when(dispose("d1", 4L, null), 3000);

        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getMessage()).contains("is the restore point of job " + JOB);
        assertThat(then.state().savepoints(JOB)).hasSize(2);
    }
}
