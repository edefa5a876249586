package dev.cairn.core.views;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Scenario;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import org.junit.jupiter.api.Test;

/** {@code GET /jobs/{jobId}/savepoints}: the kept savepoints newest first, and which of them the job restores. */
class SavepointViewsTest {

    /** Savepoint 1 to sp-1 at 1000, then a stop-with-savepoint, savepoint 2, completed at 1300: the job is FINISHED. */
    private static Scenario stopped() {
        return Scenario.runningJob(spec(), 1000)
                .and(savepointRequest("sp", "file:///savepoints/sp-1"), 1000).ackAll(JOB, 1, 1100)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 1200).ackAll(JOB, 2, 1300);
    }

    @Test
    void shouldListTheSavepointsNewestFirstWithTheStopsSavepointAsTheRestorePoint() {
        SavepointViews.Savepoints view = SavepointViews.savepoints(stopped().state(), JOB);

        assertThat(view.savepoints()).extracting(SavepointViews.Savepoint::id,
                SavepointViews.Savepoint::postCheckpointAction, SavepointViews.Savepoint::stoppedJob,
                SavepointViews.Savepoint::restorePoint).containsExactly(
                        tuple(2L, "SUSPEND", true, true),
                        tuple(1L, "NONE", false, false));
        assertThat(view.savepoints().get(1).location()).isEqualTo("file:///savepoints/sp-1");
        assertThat(view.restorePoint().location()).isEqualTo(view.savepoints().get(0).location());
        assertThat(view.savepoints().get(0).completionTimestamp()).isEqualTo(1300);
        assertThat(view.savepoints().get(0).numSubtasks()).isPositive();
        assertThat(view.restorePoint().id()).isEqualTo(2);
        assertThat(view.restorePoint().checkpointType()).isEqualTo("SAVEPOINT");
        assertThat(view.restorePoint().chosen()).isFalse();
        assertThat(view.restorePoint().restoreMode()).isNull();
    }

    @Test
    void shouldNameTheSavepointAUserRestoredTheJobFromAndHowAsTheRestorePoint() {
        CoordinatorState state = stopped().and(new Command.Restore(RestoreJob.newBuilder().setJobId(JOB)
                .setRequestId("r1").setCheckpointId(1L).setRestoreMode(RestoreMode.NO_CLAIM).setRequester("test")
                .setTimestampMs(0).build(), 0.0), 2000).state();

        SavepointViews.Savepoints view = SavepointViews.savepoints(state, JOB);

        assertThat(view.restorePoint().id()).isEqualTo(1);
        assertThat(view.restorePoint().chosen()).isTrue();
        assertThat(view.restorePoint().restoreMode()).isEqualTo("NO_CLAIM");
        assertThat(view.savepoints()).extracting(SavepointViews.Savepoint::id, SavepointViews.Savepoint::restorePoint)
                .containsExactly(tuple(2L, false), tuple(1L, true));
    }

    @Test
    void shouldListNothingForAJobWithoutCompletions() {
        SavepointViews.Savepoints view = SavepointViews.savepoints(Scenario.runningJob(spec(), 1000)
                .and(tick(), 1000).state(), JOB);

        assertThat(view.savepoints()).isEmpty();
        assertThat(view.restorePoint()).isNull();
    }
}
