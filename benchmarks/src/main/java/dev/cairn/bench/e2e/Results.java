package dev.cairn.bench.e2e;

import java.util.List;
import java.util.Map;

/**
 * Everything one run of {@link EndToEndBenchmark} measured, row by row, the machine it ran on, and whether the
 * sidecar records were signed and its main coordinator verified them ({@code signed}; false with
 * {@code --unsigned}).
 */
record Results(String machine, String settings, boolean signed, List<ShapeRow> shapes, LatencyRow latency,
        List<SizeRow> sizes, List<ReviewRow> review) {

    /**
     * Items (acks or records) per round and the wall time of every round; the rate counts the steady-state rounds
     * only (those after the first {@code steadyAfter}), as total items / total time.
     */
    record Rate(long perRound, List<Double> roundMs, int steadyAfter) {
        List<Double> steadyMs() {
            return roundMs.size() > steadyAfter ? roundMs.subList(steadyAfter, roundMs.size()) : roundMs;
        }

        double perSecond() {
            List<Double> steady = steadyMs();
            return steady.isEmpty() ? Double.NaN
                    : perRound * steady.size() / (steady.stream().mapToDouble(Double::doubleValue).sum() / 1000);
        }

        /** The rate over every round, warm-up included. */
        double allRoundsPerSecond() {
            return roundMs.isEmpty() ? Double.NaN
                    : perRound * roundMs.size() / (roundMs.stream().mapToDouble(Double::doubleValue).sum() / 1000);
        }

        double medianRoundMs() {
            return percentile(steadyMs(), 50);
        }
    }

    /**
     * One throughput shape: the coordinator (or why it failed), the trivial app and the raw consumer.
     *
     * @param triggered checkpoints triggered (one per job and round)
     * @param completed completions read from {@code control}
     */
    /**
     * @param steadyWrites what the coordinator wrote over the steady-state rounds, by output topic or store
     *     changelog ({@link CoordinatorWrites}); {@code null} when the run failed
     */
    record ShapeRow(Shape shape, Rate cairn, String failure, Rate trivial, double rawPerSecond, long triggered,
            long completed, Map<String, Long> steadyWrites) {
        double ratio() {
            return cairn == null ? Double.NaN : cairn.perSecond() / trivial.perSecond();
        }
    }

    /** Completion latency of the coordinator next to the trivial app's record latency, in ms per sample. */
    record LatencyRow(int subtasks, List<Double> cairnMs, String failure, List<Double> trivialMs) {
    }

    /**
     * One checkpoint of one job of {@code subtasks} subtasks: what a sidecar reads from {@code control} for it and
     * the largest record the coordinator wrote to any of its topics meanwhile.
     */
    record SizeRow(int subtasks, long controlBytes, long largestBytes, String largestTopic, String failure) {
    }

    /**
     * The review shape under one set of Kafka Streams overrides: the rate over all repeats, and each repeat's.
     */
    record ReviewRow(String variant, Rate cairn, List<Rate> repeats, String failure) {
    }

    /** Nearest-rank percentile; p = 100 is the maximum, NaN for no values. */
    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
    }
}
