package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.events.SidecarNotifications;
import dev.cairn.core.state.Retention;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobFailed;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.RetainedCheckpoints;
import org.junit.jupiter.api.Test;

/** Given-when-then: a restore point a subtask cannot restore, and the fall-back to the previous retained one. */
class RestoreFallbackTest {

    private static Command.FailRestore failed(long checkpointId) {
        return new Command.FailRestore(RestoreFailed.newBuilder().setJobId(JOB).setCheckpointId(checkpointId)
                .setTaskId(SOURCE).setSubtaskIndex(1).setAttemptId(attempt(SOURCE, 1, 1))
                .setMessage("the operator state file:///cp/job-1/chk-2/source-1.state is corrupt: its checksum is 0x1")
                .setTimestampMs(0).build());
    }

    /** Checkpoints 1 and 2 completed, retaining {@code retained}. */
    private static Scenario twoCompleted(int retained) {
        return Scenario.runningJob(spec(config().setRetained(retained)), 1000)
                .and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(tick(), 2000).ackAll(JOB, 2, 2100);
    }

    @Test
    void shouldFallBackToThePreviousRetainedCheckpointWhenTheNewestCannotBeRestored() {
        Then then = twoCompleted(2).when(failed(2), 2500);

        then.thenTypes(RestoreFailed.class, RestorePointRejected.class);
        RestorePointRejected rejected = then.single(RestorePointRejected.class);
        assertThat(rejected.getCheckpointId()).isEqualTo(2);
        assertThat(rejected.getFallback().getCheckpointId()).isEqualTo(1);
        assertThat(rejected.getMessage()).contains("checkpoint 2", "is corrupt", "falls back to checkpoint 1");
        assertThat(SidecarNotifications.isForSidecars(rejected)).isTrue();
        RetainedCheckpoints retained = then.state().retained(JOB).orElseThrow();
        assertThat(Retention.newest(then.state().retained(JOB)).orElseThrow().getCheckpointId()).isEqualTo(1);
        assertThat(retained.getChosenRestoreId()).isEqualTo(1);
        assertThat(retained.getRestoreMode()).isEqualTo(RestoreMode.CLAIM);
        assertThat(then.completedRecords()).extracting(CompletedTopicRecord::value)
                .filteredOn(RestorePart.class::isInstance).extracting(p -> ((RestorePart) p).getCheckpointId())
                .containsOnly(1L);
    }

    @Test
    void shouldAbortThePendingCheckpointsWhenTheJobFallsBack() {
        Scenario scenario = twoCompleted(2).and(tick(), 3000).and(acknowledge(3, SOURCE, 0), 3100);

        Then then = scenario.when(failed(2), 3200);

        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getCheckpointId()).isEqualTo(3);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.JOB_FAILOVER_REGION);
        assertThat(then.job(JOB).getPending()).isEmpty();
        assertThat(then.single(RestorePointRejected.class).getFallback().getCheckpointId()).isEqualTo(1);
    }

    @Test
    void shouldFailTheJobSayingWhyWhenNoOlderRetainedCheckpointIsLeft() {
        Then then = twoCompleted(1).when(failed(2), 2500);

        then.thenTypes(RestoreFailed.class, JobFailed.class);
        assertThat(then.single(JobFailed.class).getCause()).contains("checkpoint 2", "is corrupt",
                "no older retained checkpoint");
        assertThat(Retention.newest(then.state().retained(JOB)).orElseThrow().getCheckpointId()).isEqualTo(2);
    }

    @Test
    void shouldRefuseAReportAboutAPointThatIsNoLongerTheRestorePoint() {
        Scenario fellBack = twoCompleted(2).and(failed(2), 2500);

        Then then = fellBack.when(failed(2), 2600);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).isEqualTo("checkpoint 2 is not the restore point "
                + "of job " + JOB + " (1 is): a report about it changes nothing");
        assertThat(Retention.newest(then.state().retained(JOB)).orElseThrow().getCheckpointId()).isEqualTo(1);
    }

    @Test
    void shouldRefuseAReportOfAnAttemptThatIsNoLongerRunning() {
        Scenario restarted = twoCompleted(2).and(new Command.StartTask(Fixtures.started(JOB, SOURCE, 1,
                attempt(SOURCE, 1, 2))), 2400);

        Then then = restarted.when(failed(2), 2500);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).isEqualTo("attempt " + attempt(SOURCE, 1, 1)
                + " of task source subtask 1 is not the running one (" + attempt(SOURCE, 1, 2) + "): its report "
                + "about checkpoint 2 changes nothing");
        assertThat(Retention.newest(then.state().retained(JOB)).orElseThrow().getCheckpointId()).isEqualTo(2);
    }
}
