package dev.cairn.core.views;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Scenario;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The restores of Flink's checkpoint statistics ({@code counts.restored}, {@code latest.restored}) and the counts
 * Flink adds up ({@code total}), from the journaled restores the job's state folds.
 */
class RestoreStatsTest {

    @Test
    void shouldCountEveryRestoreAndNameTheLatestWhenAUserRestoresTheJobTwice() {
        Scenario scenario = Scenario.runningJob(spec(), 1000)
                .and(savepointRequest("sp", "file:///savepoints/sp-1"), 1000).ackAll(JOB, 1, 1100)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 1200).ackAll(JOB, 2, 1300)
                .and(restore("r1", 1L), 2000)
                .and(stop("stop-2", PostCheckpointAction.SUSPEND), 2100);
        CoordinatorState once = scenario.state();
        ApiViews.CheckpointStats first = stats(once);

        assertThat(first.counts().restored()).isEqualTo(1);
        assertThat(first.latest().restored()).isEqualTo(new ApiViews.Restored(1, 2000, true,
                "file:///savepoints/sp-1"));

        ApiViews.CheckpointStats twice = stats(scenario.ackAll(JOB, 3, 2200).and(restore("r2", null), 3000).state());

        assertThat(twice.counts().restored()).isEqualTo(2);
        assertThat(twice.latest().restored().id()).isEqualTo(3);
        assertThat(twice.latest().restored().restoreTimestamp()).isEqualTo(3000);
        assertThat(twice.counts().total()).isEqualTo(twice.counts().inProgress() + twice.counts().completed()
                + twice.counts().failed());
    }

    @Test
    void shouldCountTheFallBackAsARestoreWhenASubtaskCannotRestoreTheNewestCheckpoint() {
        CoordinatorState state = Scenario.runningJob(spec(config().setRetained(2)), 1000)
                .and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(tick(), 2000).ackAll(JOB, 2, 2100)
                .and(new Command.FailRestore(RestoreFailed.newBuilder().setJobId(JOB).setCheckpointId(2)
                        .setTaskId(SOURCE).setSubtaskIndex(1).setAttemptId(attempt(SOURCE, 1, 1))
                        .setMessage("corrupt").setTimestampMs(0).build()), 2500)
                .state();

        ApiViews.CheckpointStats stats = stats(state);

        assertThat(stats.counts().restored()).isEqualTo(1);
        assertThat(stats.latest().restored().id()).isEqualTo(1);
        assertThat(stats.latest().restored().isSavepoint()).isFalse();
        assertThat(stats.latest().restored().externalPath()).isEqualTo("file:///checkpoints/job-1/chk-1");
    }

    @Test
    void shouldShowNoRestoreWhenTheJobNeverRestored() {
        ApiViews.CheckpointStats stats = stats(Scenario.runningJob(spec(), 1000).and(tick(), 1000)
                .ackAll(JOB, 1, 1100).state());

        assertThat(stats.counts().restored()).isZero();
        assertThat(stats.counts().total()).isEqualTo(1);
        assertThat(stats.latest().restored()).isNull();
    }

    @Test
    void shouldGiveP95AndP999ByNearestRankWhenTheHistoryHoldsManyValues() {
        List<Long> values = java.util.stream.LongStream.rangeClosed(1, 1000).boxed().toList();

        CheckpointStatsSummary.Figures figures = CheckpointStatsSummary.Figures.of(values);

        assertThat(figures.p50()).isEqualTo(500);
        assertThat(figures.p95()).isEqualTo(950);
        assertThat(figures.p99()).isEqualTo(990);
        assertThat(figures.p999()).isEqualTo(999);
    }

    private static Command.Restore restore(String requestId, Long checkpointId) {
        return new Command.Restore(RestoreJob.newBuilder().setJobId(JOB).setRequestId(requestId)
                .setCheckpointId(checkpointId).setRestoreMode(RestoreMode.NO_CLAIM).setRequester("test")
                .setTimestampMs(0).build(), 0.0);
    }

    private static ApiViews.CheckpointStats stats(CoordinatorState state) {
        return JobViews.checkpoints(state.job(JOB).orElseThrow(), state.history(state.job(JOB).orElseThrow()),
                id -> state.progress(JOB, id));
    }
}
