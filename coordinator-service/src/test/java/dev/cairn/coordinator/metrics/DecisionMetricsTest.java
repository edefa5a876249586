package dev.cairn.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.Events;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TriggerFailed;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final DecisionMetrics metrics = new DecisionMetrics(registry);

    @Test
    void shouldCountAcceptedAndDiscardedAcksPerJobWhenAcksAreDecided() {
        metrics.decided("orders", List.of(ack("orders", 0), ack("orders", 1)), 1_000);
        metrics.decided("billing", List.of(ack("billing", 0)), 1_000);
        metrics.decided("orders", List.of(discarded("orders", AckDiscardStatus.LATE)), 1_000);

        String scrape = registry.scrape();
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_acks_total{job=\"orders\"}")).isEqualTo(2.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_acks_total{job=\"billing\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_acks_discarded_total{job=\"orders\",status=\"LATE\"}"))
                .isEqualTo(1.0);
    }

    @Test
    void shouldCountTheDiscardedObjectsAndBytesByReason() {
        StateDiscarded discarded = StateDiscarded.newBuilder().setJobId("orders").setCheckpointId(4)
                .setType(CheckpointType.CHECKPOINT).setReason(DiscardReason.SUBSUMED).setMessage("subsumed by 5")
                .setPart(0).setParts(1).setTimestampMs(1_000).setObjects(List.of(
                        DiscardedObject.newBuilder().setTaskId("map").setSubtaskIndex(0).setLocation("s3://b/1")
                                .setSizeBytes(100).build(),
                        DiscardedObject.newBuilder().setTaskId("map").setSubtaskIndex(0).setLocation("s3://b/2")
                                .setSizeBytes(50).setShared(true).build())).build();

        metrics.decided("orders", List.of(discarded), 1_000);

        String scrape = registry.scrape();
        assertThat(Scrapes.value(scrape, "cairn_state_discarded_objects_total{job=\"orders\",reason=\"SUBSUMED\"}"))
                .isEqualTo(2.0);
        assertThat(Scrapes.value(scrape, "cairn_state_discarded_bytes_total{job=\"orders\",reason=\"SUBSUMED\"}"))
                .isEqualTo(150.0);
    }

    @Test
    void shouldRemoveTheSeriesOfARemovedJobAndKeepTheOthers() {
        metrics.decided("orders", List.of(ack("orders", 0), rejectedStart("orders")), 1_000);
        metrics.decided("billing", List.of(ack("billing", 0)), 1_000);

        metrics.decided("orders", List.of(JobRemoved.newBuilder().setJobId("orders").setRequestId("rm-1")
                .setStatus(JobStatus.FINISHED).setNextCheckpointId(5).setTimestampMs(2_000).build()), 2_000);
        metrics.decided("orders", List.of(ack("orders", 0)), 3_000);

        String scrape = registry.scrape();
        assertThat(scrape).doesNotContain("cairn_task_starts_rejected_total{job=\"orders\"}");
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_acks_total{job=\"orders\"}"))
                .as("a job registered again under the id counts from zero").isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_acks_total{job=\"billing\"}")).isEqualTo(1.0);
    }

    @Test
    void shouldCountRestoresPerJobAndForgetThemWhenTheJobIsRemoved() {
        metrics.decided("orders", List.of(restored("orders", 3), restored("orders", 7)), 1_000);
        metrics.decided("billing", List.of(restored("billing", 2)), 1_000);

        assertThat(Scrapes.value(registry.scrape(), "cairn_restores_total{job=\"orders\"}")).isEqualTo(2.0);

        metrics.decided("orders", List.of(JobRemoved.newBuilder().setJobId("orders").setRequestId("rm-1")
                .setStatus(JobStatus.CANCELED).setNextCheckpointId(8).setTimestampMs(2_000).build()), 2_000);

        String scrape = registry.scrape();
        assertThat(scrape).doesNotContain("cairn_restores_total{job=\"orders\"}");
        assertThat(Scrapes.value(scrape, "cairn_restores_total{job=\"billing\"}")).isEqualTo(1.0);
    }

    @Test
    void shouldCountRejectedTaskStartsPerJob() {
        metrics.decided("orders", List.of(rejectedStart("orders"), rejectedStart("orders")), 1_000);

        assertThat(Scrapes.value(registry.scrape(), "cairn_task_starts_rejected_total{job=\"orders\"}"))
                .isEqualTo(2.0);
    }

    @Test
    void shouldCountFailuresByReasonWhenCheckpointsAbortOrCannotBeTriggered() {
        metrics.decided("orders", List.of(aborted("orders", 3, CheckpointFailureReason.CHECKPOINT_EXPIRED),
                aborted("orders", 4, CheckpointFailureReason.CHECKPOINT_EXPIRED)), 1_000);
        metrics.decided("orders", List.of(TriggerFailed.newBuilder().setJobId("orders")
                .setType(CheckpointType.CHECKPOINT)
                .setPeriodic(true).setReason(CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING)
                .setMessage("not running").setTimestampMs(1_000).build()), 1_000);

        String scrape = registry.scrape();
        assertThat(Scrapes.value(scrape,
                "cairn_checkpoint_failures_total{job=\"orders\",reason=\"CHECKPOINT_EXPIRED\"}")).isEqualTo(2.0);
        assertThat(Scrapes.value(scrape,
                "cairn_checkpoint_failures_total{job=\"orders\",reason=\"NOT_ALL_REQUIRED_TASKS_RUNNING\"}"))
                .isEqualTo(1.0);
    }

    @Test
    void shouldRecordEndToEndDurationInBucketsWhenACheckpointCompletes() {
        metrics.decided("orders", List.of(completed("orders", 1, 10_000, 10_300)), 10_300);
        metrics.decided("orders", List.of(completed("orders", 2, 20_000, 27_000)), 27_000);

        String scrape = registry.scrape();
        String series = "cairn_checkpoint_duration_seconds";
        String labels = "job=\"orders\",type=\"CHECKPOINT\"";
        assertThat(Scrapes.value(scrape, series + "_count{" + labels + "}")).isEqualTo(2.0);
        assertThat(Scrapes.value(scrape, series + "_sum{" + labels + "}")).isEqualTo(7.3);
        assertThat(Scrapes.value(scrape, series + "_bucket{" + labels + ",le=\"0.25\"}")).isEqualTo(0.0);
        assertThat(Scrapes.value(scrape, series + "_bucket{" + labels + ",le=\"0.5\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, series + "_bucket{" + labels + ",le=\"10.0\"}")).isEqualTo(2.0);
        assertThat(Scrapes.value(scrape, series + "_bucket{" + labels + ",le=\"+Inf\"}")).isEqualTo(2.0);
    }

    static CheckpointAcknowledged ack(String jobId, int subtask) {
        return Events.ack(jobId, 1, "map", subtask, "a").setTimestampMs(1_000)
                .setStateHandle(Events.state("file:///s", 1)).setMetrics(SubtaskMetrics.newBuilder()
                        .setAlignmentDurationMs(0).setStartDelayMs(0).setBytesPersisted(0).build())
                .build();
    }

    static AckDiscarded discarded(String jobId, AckDiscardStatus status) {
        return AckDiscarded.newBuilder().setJobId(jobId).setCheckpointId(1).setTaskId("map").setSubtaskIndex(0)
                .setAttemptId("a").setStatus(status).setMessage("late").setTimestampMs(1_000).build();
    }

    static TaskStartRejected rejectedStart(String jobId) {
        return TaskStartRejected.newBuilder().setJobId(jobId).setTaskId("map").setSubtaskIndex(0).setAttemptId("old")
                .setStartedAtMs(1).setCurrentAttemptId("live").setCurrentStartedAtMs(2).setReason("not after")
                .setTimestampMs(1_000).build();
    }

    private static CheckpointAborted aborted(String jobId, long checkpointId, CheckpointFailureReason reason) {
        return CheckpointAborted.newBuilder().setJobId(jobId).setCheckpointId(checkpointId)
                .setType(CheckpointType.CHECKPOINT).setReason(reason).setMessage("failed").setTimestampMs(1_000)
                .build();
    }

    static JobRestored restored(String jobId, long checkpointId) {
        return JobRestored.newBuilder().setJobId(jobId).setRequestId("restore-" + checkpointId)
                .setRestorePoint(completed(jobId, checkpointId, 1, 2)).setRestoreMode(RestoreMode.NO_CLAIM)
                .setTimestampMs(1_000).build();
    }

    static CheckpointCompleted completed(String jobId, long checkpointId, long triggerMs, long completionMs) {
        return CheckpointCompleted.newBuilder().setJobId(jobId).setCheckpointId(checkpointId)
                .setType(CheckpointType.CHECKPOINT).setTriggerTimestampMs(triggerMs)
                .setCompletionTimestampMs(completionMs).setStorageLocation("file:///cp").setTotalSizeBytes(10)
                .build();
    }
}
