package dev.cairn.core.views;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CompletedTotals;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.state.CoordinatorState;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Summary statistics of a job's completed checkpoints, as Flink's web UI shows them: over the
 * completed checkpoints in the bounded history, min/avg/max and the p50/p90/p95/p99/p99.9 percentiles
 * (nearest rank) of end-to-end duration and state size; and all-time min/avg/max from the totals.
 *
 * @param completedInHistory how many completed checkpoints the percentiles are computed over
 */
public record CheckpointStatsSummary(int completedInHistory, Figures endToEndDurationMs, Figures stateSizeBytes,
        AllTime allTimeEndToEndDurationMs, AllTime allTimeStateSizeBytes) {

    /** Count, min, average and max over every completed checkpoint of the job; all zero when none. */
    public record AllTime(long count, long min, double avg, long max) {
    }

    /** Min, average, max and percentiles of one measure; all zero when nothing was measured. */
    public record Figures(long count, long min, double avg, long max, long p50, long p90, long p95, long p99,
            long p999) {

        static final Figures NONE = new Figures(0, 0, 0, 0, 0, 0, 0, 0, 0);

        static Figures of(List<Long> values) {
            if (values.isEmpty()) {
                return NONE;
            }
            long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
            double avg = values.stream().mapToLong(Long::longValue).average().orElse(0);
            return new Figures(sorted.length, sorted[0], avg, sorted[sorted.length - 1], percentile(sorted, 500),
                    percentile(sorted, 900), percentile(sorted, 950), percentile(sorted, 990), percentile(sorted, 999));
        }

        /** The nearest-rank percentile, {@code permille} in thousandths (999: p99.9), in whole numbers. */
        private static long percentile(long[] sorted, int permille) {
            long rank = ((long) permille * sorted.length + 999) / 1000;
            return sorted[(int) Math.max(0, rank - 1)];
        }
    }

    /** The summary of one job, from its record and its history ({@link CoordinatorState#history}). */
    public static CheckpointStatsSummary of(JobState job, List<CheckpointSummary> history) {
        List<CheckpointSummary> completed = history.stream()
                .filter(s -> s.getStatus() == CheckpointStatus.COMPLETED)
                .toList();
        CompletedTotals t = job.getTotals();
        return new CheckpointStatsSummary(completed.size(),
                Figures.of(values(completed, CheckpointSummary::getEndToEndDurationMs)),
                Figures.of(values(completed, CheckpointSummary::getStateSizeBytes)),
                allTime(t.getCount(), t.getMinDurationMs(), t.getSumDurationMs(), t.getMaxDurationMs()),
                allTime(t.getCount(), t.getMinSizeBytes(), t.getSumSizeBytes(), t.getMaxSizeBytes()));
    }

    private static List<Long> values(List<CheckpointSummary> summaries, ToLongFunction<CheckpointSummary> measure) {
        return summaries.stream().map(s -> measure.applyAsLong(s)).toList();
    }

    private static AllTime allTime(long count, long min, long sum, long max) {
        return count == 0 ? new AllTime(0, 0, 0, 0) : new AllTime(count, min, (double) sum / count, max);
    }
}
