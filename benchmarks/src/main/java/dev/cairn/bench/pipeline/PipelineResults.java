package dev.cairn.bench.pipeline;

import dev.cairn.bench.pipeline.PipelineRun.Mode;
import java.util.List;

/**
 * What one run of {@link PipelineBenchmark} measured.
 *
 * @param machine the header line: cores, JVM, date, commit
 * @param settings the flags, described
 * @param throughput every throughput run, in the order run
 * @param latency the latency runs (none when skipped)
 */
record PipelineResults(String machine, List<String> settings, List<Throughput> throughput, List<Latency> latency) {

    /**
     * One throughput run: {@code events} drained, from the first event produced to the last result visible.
     *
     * @param repetition 1, 2, ...
     * @param mode with or without checkpoints
     * @param events input events
     * @param elapsedNanos first event produced -> last result visible
     * @param completed checkpoints of the run's job completed by the time the last result was visible
     * @param aborted checkpoints of the run's job aborted by then
     * @param unexpected results that matched no event or came twice (0 expected)
     */
    record Throughput(int repetition, Mode mode, int events, long elapsedNanos, int completed, int aborted,
            long unexpected) {

        double eventsPerSecond() {
            return events * 1e9 / elapsedNanos;
        }
    }

    /**
     * One latency run: input produced at {@code rate} events/s, every event's result visible -> its latency.
     *
     * @param mode with or without checkpoints
     * @param rate input events/s
     * @param samples results matched to their events
     * @param p50Ms median latency
     * @param p99Ms 99th percentile
     * @param maxMs the largest
     * @param completed checkpoints of the run's job completed by the time the last result was visible
     * @param aborted checkpoints aborted by then
     */
    record Latency(Mode mode, int rate, int samples, double p50Ms, double p99Ms, double maxMs, int completed,
            int aborted) {
    }

    /** The median events/s of the throughput runs of {@code mode}. */
    double medianEventsPerSecond(Mode mode) {
        return Latencies.median(throughput.stream().filter(t -> t.mode() == mode)
                .mapToDouble(Throughput::eventsPerSecond).toArray());
    }

    /** The cost of exactly-once: median events/s with checkpoints / median without. */
    double ratio() {
        return medianEventsPerSecond(Mode.ON) / medianEventsPerSecond(Mode.OFF);
    }
}
