package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.core.views.ApiViews;
import dev.cairn.events.CheckpointTriggered;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queries over stores that the real coordinator topology wrote (on a TopologyTestDriver): checkpoint 1
 * of a job with source x2 and sink x1 completed, checkpoint 2 pending with only source/0 acknowledged.
 */
class JobQueriesTest {

    private static final String JOB = "job-1";
    private static final String SINK_HOST = "worker-7.cluster.local";

    @TempDir
    Path stateDir;

    private CoordinatorDriver cairn;
    private CheckpointTriggered first;
    private CheckpointTriggered second;

    @BeforeEach
    void completeOneCheckpointAndLeaveTheNextPending() {
        cairn = CoordinatorDriver.start(stateDir);
        cairn.register(spec(JOB, task("source", 2), task("sink", 1)));
        cairn.startTask(JOB, "source", 0);
        cairn.startTask(JOB, "source", 1);
        cairn.startTask(JOB, "sink", 0, SINK_HOST);
        first = cairn.nextTrigger();
        cairn.advance(Duration.ofMillis(50));
        cairn.ack(JOB, first.getCheckpointId(), "source", 0, 100);
        cairn.ack(JOB, first.getCheckpointId(), "source", 1, 200);
        cairn.ack(JOB, first.getCheckpointId(), "sink", 0, 300);
        second = cairn.nextTrigger();
        cairn.advance(Duration.ofMillis(20));
        cairn.ack(JOB, second.getCheckpointId(), "source", 0, 400);
    }

    @AfterEach
    void closeDriver() {
        cairn.close();
    }

    @Test
    void shouldShowAPendingCheckpointWithItsAcksAndTheSubtasksStillMissing() {
        ApiViews.CheckpointDetail detail = JobQueries.checkpoint(cairn.reader(), JOB, second.getCheckpointId());

        assertThat(detail.checkpoint().identity().status()).isEqualTo("IN_PROGRESS");
        assertThat(detail.checkpoint().acks().numSubtasks()).isEqualTo(3);
        assertThat(detail.checkpoint().acks().numAcknowledgedSubtasks()).isEqualTo(1);
        assertThat(detail.checkpoint().acks().stateSize()).isEqualTo(400);
        assertThat(detail.checkpoint().timing().endToEndDuration()).isEqualTo(20L);
        assertThat(detail.missingSubtasks()).containsExactly(
                new ApiViews.SubtaskRef("source", 1, CoordinatorDriver.attempt("source", 1), null),
                new ApiViews.SubtaskRef("sink", 0, CoordinatorDriver.attempt("sink", 0), SINK_HOST));
        ApiViews.SubtaskStats acked = detail.tasks().get(0).subtasks().get(0);
        assertThat(acked.index()).isZero();
        assertThat(acked.attemptId()).isEqualTo(CoordinatorDriver.attempt("source", 0));
        assertThat(acked.snapshot().stateSize()).isEqualTo(400);
        assertThat(acked.endToEndDuration()).isEqualTo(20);
        assertThat(acked.snapshot().checkpoint()).isEqualTo(new ApiViews.SyncAsync(1, 2));
        assertThat(acked.snapshot().startDelay()).isEqualTo(4);
    }

    @Test
    void shouldNameTheHostOfEachPendingSubtaskInTheViewAndNullWhereItsSidecarNamedNone() {
        JsonNode missing = Json.MAPPER.valueToTree(JobQueries.checkpoint(cairn.reader(), JOB,
                second.getCheckpointId())).get("missing_subtasks");

        assertThat(missing).hasSize(2);
        assertThat(missing.get(0).get("task_id").asText()).isEqualTo("source");
        assertThat(missing.get(0).get("host").isNull()).as("a sidecar that named no host").isTrue();
        assertThat(missing.get(1).get("task_id").asText()).isEqualTo("sink");
        assertThat(missing.get(1).get("attempt_id").asText()).isEqualTo(CoordinatorDriver.attempt("sink", 0));
        assertThat(missing.get(1).get("host").asText()).isEqualTo(SINK_HOST);
    }

    @Test
    void shouldShowACompletedCheckpointWithEverySubtaskAndNoneMissing() {
        ApiViews.CheckpointDetail detail = JobQueries.checkpoint(cairn.reader(), JOB, first.getCheckpointId());

        assertThat(detail.checkpoint().identity().status()).isEqualTo("COMPLETED");
        assertThat(detail.checkpoint().acks().stateSize()).isEqualTo(600);
        assertThat(detail.checkpoint().timing().endToEndDuration()).isEqualTo(50L);
        assertThat(detail.missingSubtasks()).isEmpty();
        assertThat(detail.tasks()).extracting(ApiViews.TaskStats::taskId).containsExactly("source", "sink");
        assertThat(detail.tasks()).extracting(ApiViews.TaskStats::numAcknowledgedSubtasks).containsExactly(2, 1);
        assertThat(detail.tasks().get(0).stateSize()).isEqualTo(300);
    }

    @Test
    void shouldCountAndListTheCheckpointsOfTheJob() {
        ApiViews.CheckpointStats stats = JobQueries.checkpoints(cairn.reader(), JOB);

        assertThat(stats.counts()).isEqualTo(new ApiViews.Counts(0, 2, 2, 1, 1, 0));
        assertThat(stats.latest().restored()).isNull();
        assertThat(stats.pending()).extracting(c -> c.identity().id()).containsExactly(second.getCheckpointId());
        assertThat(stats.history()).extracting(c -> c.identity().id()).containsExactly(first.getCheckpointId());
        assertThat(stats.latest().completed().identity().id()).isEqualTo(first.getCheckpointId());
        assertThat(stats.summary().endToEndDuration().p50()).isEqualTo(50);
        assertThat(stats.summary().stateSize().max()).isEqualTo(600);
    }

    @Test
    void shouldOfferTheNewestRetainedCheckpointToRestoreFrom() {
        ApiViews.Restore restore = JobQueries.latestCompleted(cairn.reader(), JOB);

        assertThat(restore.checkpoint().id()).isEqualTo(first.getCheckpointId());
        assertThat(restore.checkpoint().externalPath()).isEqualTo("file:///cp/job-1/chk-1");
        assertThat(restore.checkpoint().stateSize()).isEqualTo(600);
        assertThat(restore.retainedCheckpoints()).isEqualTo(1);
        assertThat(restore.subtaskStates()).extracting(ApiViews.SubtaskState::location).containsExactlyInAnyOrder(
                "file:///cp/job-1/chk-1/source-0", "file:///cp/job-1/chk-1/source-1", "file:///cp/job-1/chk-1/sink-0");
    }

    @Test
    void shouldShowTheJobAsRegistered() {
        ApiViews.Job job = JobQueries.job(cairn.reader(), JOB);

        assertThat(job.state()).isEqualTo("RUNNING");
        assertThat(job.spec().tasks()).extracting(ApiViews.Task::taskId).containsExactly("source", "sink");
        assertThat(job.spec().tasks()).extracting(ApiViews.Task::maxParallelism).as("fixed when registered")
                .containsExactly(128, 128);
        assertThat(job.schedule().latestCompletedId()).isEqualTo(first.getCheckpointId());
        assertThat(job.schedule().nextCheckpointId()).isEqualTo(second.getCheckpointId() + 1);
    }

    @Test
    void shouldSayThatAJobWasNeverRegistered() {
        assertThatThrownBy(() -> JobQueries.checkpoints(cairn.reader(), "nobody"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404))
                .hasMessage("job 'nobody' does not exist (never registered)");
    }

    @Test
    void shouldSayThatACheckpointWasNeverTriggered() {
        assertThatThrownBy(() -> JobQueries.checkpoint(cairn.reader(), JOB, 99))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404))
                .hasMessage("checkpoint 99 of job 'job-1' was never triggered (ids so far: 1..2)");
    }

    @Test
    void shouldSayThatAJobHasNoCompletedCheckpointYet() {
        cairn.register(spec("job-2", task("source", 1)));

        assertThatThrownBy(() -> JobQueries.latestCompleted(cairn.reader(), "job-2"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404))
                .hasMessage("job 'job-2' has no completed checkpoint yet");
    }
}
