package dev.cairn.coordinator.metrics;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CompletedTotals;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RetainedCheckpoints;
import java.util.Optional;

/**
 * What the stores say of one job at one moment: its checkpoint counts and totals, exactly as the coordinator
 * keeps them (so they survive restarts and moves), and its latest completed checkpoint or savepoint.
 * Durations are in seconds and times in seconds since the epoch, as Prometheus wants them; a figure the job
 * does not have yet (nothing completed) is {@code NaN}.
 *
 * @param triggered checkpoints triggered, ever
 * @param completed checkpoints completed, ever
 * @param failed checkpoints failed (or not triggered), ever
 * @param inProgress checkpoints pending now
 * @param queued trigger requests waiting in the job's queue now
 * @param consecutiveFailures failures counted since the last success
 * @param completedDurationSeconds the sum of every completed checkpoint's end-to-end duration
 * @param completedSizeBytes the sum of every completed checkpoint's state size
 * @param lastDurationSeconds the latest completed checkpoint's end-to-end duration
 * @param lastSizeBytes the latest completed checkpoint's state size
 * @param lastCompletionSeconds when the latest checkpoint completed
 * @param status the job's status now
 * @param lastCompletedId the id of the latest completed checkpoint or savepoint, -1 before the first (as Flink's
 *     {@code lastCompletedCheckpointId})
 * @param intervalSeconds the job's periodic checkpoint interval
 */
record JobFigures(long triggered, long completed, long failed, int inProgress, int queued,
        int consecutiveFailures, double completedDurationSeconds, double completedSizeBytes,
        double lastDurationSeconds, double lastSizeBytes, double lastCompletionSeconds, JobStatus status,
        long lastCompletedId, double intervalSeconds) {

    /** The job's figures: its state, and one point read of its latest completed checkpoint's summary. */
    static JobFigures of(JobState job, CoordinatorState reader) {
        CompletedTotals totals = job.getTotals();
        Optional<Last> last = last(job, reader);
        return new JobFigures(job.getCounts().getTriggered(), job.getCounts().getCompleted(),
                job.getCounts().getFailed(), job.getPending().size(), job.getQueue().size(),
                job.getConsecutiveFailures(), totals.getSumDurationMs() / 1000.0, totals.getSumSizeBytes(),
                last.map(Last::durationSeconds).orElse(Double.NaN), last.map(Last::sizeBytes).orElse(Double.NaN),
                job.getLastCompletionMs() == null ? Double.NaN : job.getLastCompletionMs() / 1000.0,
                job.getStatus(), job.getLastSucceededId(), job.getConfig().getIntervalMs() / 1000.0);
    }

    /**
     * Duration (s) and size (bytes) of the job's latest completed checkpoint or savepoint: from its summary in
     * the history, or, when failures have pushed it out of the bounded history, from the retained checkpoints
     * (which keep the latest completed checkpoint, not savepoints).
     */
    private static Optional<Last> last(JobState job, CoordinatorState reader) {
        long id = job.getLastSucceededId();
        if (id < 0) {
            return Optional.empty();
        }
        Optional<CheckpointSummary> summary = reader.summary(job.getJobId(), id)
                .filter(s -> s.getStatus() == CheckpointStatus.COMPLETED);
        if (summary.isPresent()) {
            return Optional.of(new Last(summary.get().getEndToEndDurationMs() / 1000.0,
                    summary.get().getStateSizeBytes()));
        }
        return reader.retained(job.getJobId()).map(RetainedCheckpoints::getCheckpoints)
                .filter(list -> !list.isEmpty())
                .map(list -> list.get(list.size() - 1))
                .filter(newest -> newest.getCheckpointId() == id)
                .map(JobFigures::durationAndSize);
    }

    private static Last durationAndSize(CheckpointCompleted completed) {
        return new Last(Math.max(0, completed.getCompletionTimestampMs() - completed.getTriggerTimestampMs()) / 1000.0,
                completed.getTotalSizeBytes());
    }

    private record Last(double durationSeconds, double sizeBytes) {
    }
}
