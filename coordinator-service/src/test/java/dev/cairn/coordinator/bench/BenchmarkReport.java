package dev.cairn.coordinator.bench;

import java.util.List;
import java.util.Locale;

/** The figures {@link CoordinatorBenchmark} measures, and how it prints them. */
final class BenchmarkReport {

    private BenchmarkReport() {}

    record Breakdown(long pickupMs, long processMs, long visibleMs, int discarded) {
    }

    record ThroughputResult(int tasks, List<Double> ackPhaseMs, List<Double> sendMs,
            List<Breakdown> breakdowns) {
        /** Median coordinator processing time per ack (first ack processed -> completion, over N - 1 acks). */
        double coordinatorMicrosPerAck() {
            if (breakdowns.isEmpty() || tasks < 2) {
                return Double.NaN;
            }
            return percentile(breakdowns.stream().map(b -> (double) b.processMs()).toList(), 50) * 1000 / (tasks - 1);
        }

        double medianMs() {
            return percentile(ackPhaseMs, 50);
        }

        double acksPerSecond() {
            return tasks / (medianMs() / 1000);
        }

        double microsPerAck() {
            return medianMs() * 1000 / tasks;
        }
    }

    record LatencyResult(int tasks, List<Double> completionMs, List<Double> triggerMs) {
        double completion(double p) {
            return percentile(completionMs, p);
        }

        double trigger(double p) {
            return percentile(triggerMs, p);
        }
    }

    static void printSummary(BenchmarkOptions options, List<ThroughputResult> throughput, LatencyResult latency,
            double seconds) {
        System.out.println();
        System.out.printf(Locale.ROOT, "Cairn coordinator benchmark: in-JVM KRaft broker, exactly_once_v2, commit %d ms,"
                + " 3 partitions, layout %s, ack producer linger %d ms, extra streams config %s, %d cores, %.0f s total%n",
                options.commitIntervalMs, options.layout.equals("vertex") ? "1 vertex x N subtasks" : "N vertices x 1",
                options.lingerMs, options.streamsConfig, Runtime.getRuntime().availableProcessors(), seconds);
        if (!throughput.isEmpty()) {
            System.out.println("| tasks/checkpoint | checkpoints | ack phase ms (median) | acks/s | us/ack | "
                    + "producer done ms | marginal us/ack vs previous | coordinator us/ack (journal) |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
            ThroughputResult previous = null;
            for (ThroughputResult r : throughput) {
                String marginal = previous == null ? "" : String.format(Locale.ROOT, "%.1f",
                        (r.medianMs() - previous.medianMs()) * 1000 / (r.tasks() - previous.tasks()));
                System.out.printf(Locale.ROOT, "| %d | %d | %.1f | %.0f | %.1f | %.1f | %s | %.1f |%n", r.tasks(),
                        r.ackPhaseMs().size(), r.medianMs(), r.acksPerSecond(), r.microsPerAck(),
                        percentile(r.sendMs(), 50), marginal, r.coordinatorMicrosPerAck());
                previous = r;
            }
        }
        if (latency != null) {
            System.out.printf(Locale.ROOT, "completion latency (last ack produced -> CheckpointCompleted consumed),"
                    + " %d tasks, %d checkpoints: p50 %.1f ms, p99 %.1f ms, max %.1f ms;"
                    + " trigger latency p50 %.1f ms, p99 %.1f ms%n", latency.tasks(), latency.completionMs().size(),
                    latency.completion(50), latency.completion(99), latency.completion(100), latency.trigger(50),
                    latency.trigger(99));
        }
        for (ThroughputResult r : throughput) {
            System.out.printf(Locale.ROOT, "RESULT throughput layout=%s tasks=%d ackPhaseMs=%.2f acksPerSec=%.1f "
                    + "usPerAck=%.2f sendMs=%.2f coordinatorUsPerAck=%.2f%n", options.layout, r.tasks(), r.medianMs(),
                    r.acksPerSecond(), r.microsPerAck(), percentile(r.sendMs(), 50), r.coordinatorMicrosPerAck());
        }
        if (latency != null) {
            System.out.printf(Locale.ROOT, "RESULT latency tasks=%d p50Ms=%.2f p99Ms=%.2f maxMs=%.2f triggerP50Ms=%.2f%n",
                    latency.tasks(), latency.completion(50), latency.completion(99), latency.completion(100),
                    latency.trigger(50));
        }
    }

    /** Nearest-rank percentile; p = 100 is the maximum. */
    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
    }

    static String format(List<Double> values) {
        StringBuilder text = new StringBuilder("[");
        for (double v : values) {
            text.append(text.length() > 1 ? ", " : "").append(String.format(Locale.ROOT, "%.0f", v));
        }
        return text.append(']').toString();
    }
}
