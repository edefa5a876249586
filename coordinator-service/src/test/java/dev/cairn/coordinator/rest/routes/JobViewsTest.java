package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.state.CheckpointCounts;
import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CompletedTotals;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.events.CairnRecords;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.testing.Events;
import dev.cairn.core.views.ApiViews;
import dev.cairn.core.views.JobViews;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The JSON the REST API writes for the stores' values: Flink's names and shapes. */
class JobViewsTest {

    @BeforeAll
    static void trustCairnRecordsBeforeBuildingAny() {
        CairnRecords.trustGeneratedClasses();
    }

    private static final long T0 = 1_767_225_600_000L;

    @Test
    void shouldWriteTheJobSpecStatusAndScheduleInSnakeCase() {
        JsonNode json = json(JobViews.job(job(), spec()));

        assertThat(json.get("jid").asText()).isEqualTo("job-1");
        assertThat(json.get("state").asText()).isEqualTo("RUNNING");
        assertThat(json.get("registered_at").asLong()).isEqualTo(T0);
        assertThat(json.get("tasks")).hasSize(3);
        assertThat(json.get("tasks").get(0).get("task_id").asText()).isEqualTo("source");
        assertThat(json.get("tasks").get(0).get("parallelism").asInt()).isEqualTo(2);
        assertThat(json.get("tasks").get(2).get("acknowledges").asBoolean()).isFalse();
        JsonNode config = json.get("config");
        assertThat(config.get("interval").asLong()).isEqualTo(1_000);
        assertThat(config.get("min_pause").asLong()).isEqualTo(100);
        assertThat(config.get("max_concurrent").asInt()).isEqualTo(2);
        assertThat(config.get("tolerable_failed_checkpoints").asInt()).isEqualTo(3);
        assertThat(config.get("storage_base_location").asText()).isEqualTo("file:///cp");
        assertThat(json.get("next_checkpoint_id").asLong()).isEqualTo(5);
        assertThat(json.get("latest_completed_id").asLong()).isEqualTo(3);
        assertThat(json.get("pending_checkpoints").asInt()).isEqualTo(1);
        assertThat(json.get("queued_requests").get(0).get("request_id").asText()).isEqualTo("sp-1");
        assertThat(json.get("queued_requests").get(0).get("checkpoint_type").asText()).isEqualTo("SAVEPOINT");
    }

    @Test
    void shouldWriteEachTasksMaxParallelismAsItsSpecSetsItElseFlinksDefault() {
        JobSpec spec = JobSpec.newBuilder(spec()).setTasks(List.of(
                TaskVertex.newBuilder(vertex("source", 2, true)).setMaxParallelism(4).build(),
                vertex("sink", 200, true))).build();

        JsonNode tasks = json(JobViews.job(job(), spec)).get("tasks");

        assertThat(tasks.get(0).get("max_parallelism").asInt()).isEqualTo(4);
        assertThat(tasks.get(1).get("max_parallelism").asInt()).as("1.5 x 200 rounded up to a power of two")
                .isEqualTo(512);
    }

    @Test
    void shouldWriteAbsentValuesAsNull() {
        JobState fresh = job();
        fresh.setLatestCompletedId(-1L);
        fresh.setHistoryIds(new ArrayList<>());
        fresh.setNextPeriodicDueMs(null);

        JsonNode job = json(JobViews.job(fresh, spec()));
        JsonNode stats = json(JobViews.checkpoints(fresh, List.of(), id -> CheckpointProgress.NONE));

        assertThat(job.get("latest_completed_id").isNull()).isTrue();
        assertThat(job.get("next_periodic_trigger").isNull()).isTrue();
        assertThat(stats.get("latest").get("completed").isNull()).isTrue();
        assertThat(stats.get("latest").get("failed").isNull()).isTrue();
        assertThat(stats.get("summary").get("end_to_end_duration").get("count").asLong()).isZero();
    }

    @Test
    void shouldCountSummarizeAndListCheckpointsNewestFirst() {
        JsonNode json = json(JobViews.checkpoints(job(), history(), progress()));

        JsonNode counts = json.get("counts");
        assertThat(counts.get("triggered").asLong()).isEqualTo(4);
        assertThat(counts.get("in_progress").asLong()).isEqualTo(1);
        assertThat(counts.get("completed").asLong()).isEqualTo(2);
        assertThat(counts.get("failed").asLong()).isEqualTo(1);
        assertThat(ids(json.get("history"))).containsExactly(3L, 2L, 1L);
        assertThat(ids(json.get("pending"))).containsExactly(4L);
        assertThat(json.get("latest").get("completed").get("id").asLong()).isEqualTo(3);
        assertThat(json.get("latest").get("failed").get("id").asLong()).isEqualTo(2);
        assertThat(json.get("latest").get("failed").get("failure_reason").asText()).isEqualTo("CHECKPOINT_EXPIRED");
        assertThat(json.get("latest").get("savepoint").isNull()).isTrue();
    }

    @Test
    void shouldSummarizeEndToEndDurationAndStateSizeOfCompletedCheckpoints() {
        JsonNode summary = json(JobViews.checkpoints(job(), history(), progress())).get("summary");

        assertThat(summary.get("completed_in_history").asInt()).isEqualTo(2);
        JsonNode duration = summary.get("end_to_end_duration");
        assertThat(duration.get("min").asLong()).isEqualTo(100);
        assertThat(duration.get("max").asLong()).isEqualTo(300);
        assertThat(duration.get("avg").asDouble()).isEqualTo(200.0);
        assertThat(duration.get("p50").asLong()).isEqualTo(100);
        assertThat(duration.get("p99").asLong()).isEqualTo(300);
        assertThat(summary.get("state_size").get("max").asLong()).isEqualTo(3_000);
        assertThat(summary.get("all_time").get("end_to_end_duration").get("count").asLong()).isEqualTo(7);
        assertThat(summary.get("all_time").get("state_size").get("avg").asDouble()).isEqualTo(1_000.0);
    }

    @Test
    void shouldShowAPendingCheckpointWithItsTimeoutAndDurationToTheLatestAck() {
        JsonNode pending = json(JobViews.checkpoints(job(), history(), progress())).get("pending").get(0);

        assertThat(pending.get("status").asText()).isEqualTo("IN_PROGRESS");
        assertThat(pending.get("checkpoint_type").asText()).isEqualTo("CHECKPOINT");
        assertThat(pending.get("trigger_timestamp").asLong()).isEqualTo(T0 + 4_000);
        assertThat(pending.get("latest_ack_timestamp").asLong()).isEqualTo(T0 + 4_040);
        assertThat(pending.get("end_to_end_duration").asLong()).isEqualTo(40);
        assertThat(pending.get("expires_at").asLong()).isEqualTo(T0 + 64_000);
        assertThat(pending.get("num_subtasks").asInt()).isEqualTo(3);
        assertThat(pending.get("num_acknowledged_subtasks").asInt()).isEqualTo(1);
        assertThat(pending.get("external_path").asText()).isEqualTo("file:///cp/job-1/chk-4");
        assertThat(pending.get("end_timestamp").isNull()).isTrue();
    }

    @Test
    void shouldInlineTheCheckpointInItsDetailAndGroupAcksByTaskInSpecOrder() {
        JobState job = job();
        List<CheckpointAcknowledged> acks = List.of(ack("source", 1, T0 + 4_040, 700));
        List<ApiViews.SubtaskRef> missing = JobViews.unacknowledged(spec(), acks);
        ApiViews.Checkpoint pending = JobViews.pending(job.getPending().get(0), progress().apply(4L));

        JsonNode detail = json(JobViews.detail(pending, spec(), acks, missing));

        assertThat(detail.get("id").asLong()).isEqualTo(4);
        assertThat(detail.get("status").asText()).isEqualTo("IN_PROGRESS");
        assertThat(detail.has("checkpoint")).isFalse();
        JsonNode tasks = detail.get("tasks");
        assertThat(tasks).hasSize(2);
        assertThat(tasks.get(0).get("task_id").asText()).isEqualTo("source");
        assertThat(tasks.get(0).get("num_subtasks").asInt()).isEqualTo(2);
        assertThat(tasks.get(0).get("num_acknowledged_subtasks").asInt()).isEqualTo(1);
        assertThat(tasks.get(1).get("task_id").asText()).isEqualTo("sink");
        assertThat(tasks.get(1).get("subtasks")).isEmpty();
        JsonNode subtask = tasks.get(0).get("subtasks").get(0);
        assertThat(subtask.get("index").asInt()).isEqualTo(1);
        assertThat(subtask.get("ack_timestamp").asLong()).isEqualTo(T0 + 4_040);
        assertThat(subtask.get("end_to_end_duration").asLong()).isEqualTo(40);
        assertThat(subtask.get("state_size").asLong()).isEqualTo(700);
        assertThat(subtask.get("checkpoint").get("sync").asLong()).isEqualTo(1);
        assertThat(subtask.get("checkpoint").get("async").asLong()).isEqualTo(2);
        assertThat(subtask.get("alignment").get("duration").asLong()).isEqualTo(3);
        assertThat(subtask.get("start_delay").asLong()).isEqualTo(4);
        assertThat(detail.get("missing_subtasks")).hasSize(2);
        assertThat(detail.get("missing_subtasks").get(0).get("task_id").asText()).isEqualTo("source");
        assertThat(detail.get("missing_subtasks").get(0).get("index").asInt()).isZero();
    }

    @Test
    void shouldExpectAcksOnlyFromAcknowledgingTasksTimesTheirParallelism() {
        List<ApiViews.SubtaskRef> missing = JobViews.unacknowledged(spec(),
                List.of(ack("source", 0, T0, 1), ack("sink", 0, T0, 1)));

        assertThat(missing).containsExactly(new ApiViews.SubtaskRef("source", 1, null));
    }

    @Test
    void shouldAnswerATriggerWithFlinksRequestIdField() {
        JsonNode json = json(new ApiViews.Triggered("r-1"));

        assertThat(json.get("request-id").asText()).isEqualTo("r-1");
        assertThat(json.size()).isEqualTo(1);
    }

    private static JsonNode json(Object view) {
        return Json.MAPPER.valueToTree(view);
    }

    private static List<Long> ids(JsonNode checkpoints) {
        List<Long> ids = new ArrayList<>();
        checkpoints.forEach(c -> ids.add(c.get("id").asLong()));
        return ids;
    }

    /** source x2 and sink x1 acknowledge, monitor x1 does not. */
    static JobSpec spec() {
        return Events.jobSpec("job-1")
                .setTasks(List.of(vertex("source", 2, true), vertex("sink", 1, true), vertex("monitor", 1, false)))
                .setConfig(Events.config(1_000, 60_000).setMinPauseMs(100).setMaxConcurrent(2).setTolerableFailures(3)
                        .setStorageBaseLocation("file:///cp").build())
                .setTimestampMs(T0).build();
    }

    /** The history of {@link #job()}: 1 and 3 completed, 2 expired. */
    static List<CheckpointSummary> history() {
        return List.of(ended(1, CheckpointStatus.COMPLETED, 100, 1_000), ended(2, CheckpointStatus.FAILED, 60_000, 0),
                ended(3, CheckpointStatus.COMPLETED, 300, 3_000));
    }

    /** The progress of {@link #job()}'s pending checkpoint 4: one ack of 700 bytes. */
    static LongFunction<CheckpointProgress> progress() {
        return id -> id == 4L ? new CheckpointProgress(1, 700L, T0 + 4_040L) : CheckpointProgress.NONE;
    }

    /** The state of the job of {@link #spec()}: 1 and 3 completed, 2 expired, 4 pending. */
    static JobState job() {
        PendingCheckpoint pending = PendingCheckpoint.newBuilder().setCheckpointId(4).setType(CheckpointType.CHECKPOINT)
                .setPeriodic(true).setForce(false).setTriggerTimestampMs(T0 + 4_000).setTimeoutAtMs(T0 + 64_000)
                .setStorageLocation("file:///cp/job-1/chk-4").setAcksExpected(3).build();
        QueuedRequest queued = QueuedRequest.newBuilder().setSequence(7).setRequestId("sp-1")
                .setType(CheckpointType.SAVEPOINT).setForce(false).setPeriodic(false).setTimestampMs(T0 + 4_050)
                .build();
        return JobState.newBuilder().setJobId("job-1").setConfig(spec().getConfig()).setStatus(JobStatus.RUNNING)
                .setNextCheckpointId(5).setLatestCompletedId(3).setLastSucceededId(3).setNextPeriodicDueMs(T0 + 5_000)
                .setQueue(List.of(queued)).setPending(List.of(pending)).setCountedFailureIds(List.of())
                .setRecentlyEndedIds(List.of(1L, 2L, 3L))
                .setCounts(CheckpointCounts.newBuilder().setTriggered(4).setInProgress(1).setCompleted(2).setFailed(1)
                        .build())
                .setHistoryIds(List.of(1L, 2L, 3L)).setHistoryRequestIds(List.of())
                .setTotals(CompletedTotals.newBuilder().setCount(7).setMinDurationMs(50).setMaxDurationMs(300)
                        .setSumDurationMs(1_050).setMinSizeBytes(500).setMaxSizeBytes(3_000).setSumSizeBytes(7_000)
                        .build())
                .build();
    }

    private static TaskVertex vertex(String taskId, int parallelism, boolean acknowledges) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism).setTriggered(acknowledges)
                .setAcknowledges(acknowledges).build();
    }

    private static CheckpointSummary ended(long id, CheckpointStatus status, long durationMs, long sizeBytes) {
        long trigger = T0 + id * 1_000;
        return CheckpointSummary.newBuilder().setCheckpointId(id).setType(CheckpointType.CHECKPOINT).setPeriodic(true)
                .setStatus(status).setTriggerTimestampMs(trigger).setEndTimestampMs(trigger + durationMs)
                .setEndToEndDurationMs(durationMs).setStateSizeBytes(sizeBytes).setAcksExpected(3)
                .setAcksReceived(status == CheckpointStatus.COMPLETED ? 3 : 1)
                .setStorageLocation("file:///cp/job-1/chk-" + id)
                .setFailureReason(status == CheckpointStatus.FAILED ? CheckpointFailureReason.CHECKPOINT_EXPIRED : null)
                .setFailureMessage(status == CheckpointStatus.FAILED ? "expired" : null)
                .build();
    }

    private static CheckpointAcknowledged ack(String taskId, int subtask, long atMs, long sizeBytes) {
        return Events.ack("job-1", 4, taskId, subtask, taskId + "-" + subtask)
                .setStateHandle(Events.state("file:///s", sizeBytes))
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2)
                        .setAlignmentDurationMs(3).setStartDelayMs(4).build())
                .setTimestampMs(atMs).build();
    }
}
