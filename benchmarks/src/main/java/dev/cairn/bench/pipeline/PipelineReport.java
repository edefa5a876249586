package dev.cairn.bench.pipeline;

import dev.cairn.bench.pipeline.PipelineResults.Latency;
import dev.cairn.bench.pipeline.PipelineResults.Throughput;
import dev.cairn.bench.pipeline.PipelineRun.Mode;
import java.util.Locale;

/** Renders {@link PipelineResults} as the markdown report {@link PipelineBenchmark} prints and writes. */
final class PipelineReport {

    /** The target: checkpointing costs at most 20 % of the throughput. */
    static final double TARGET_RATIO = 0.8;

    private PipelineReport() {
    }

    static String render(PipelineResults results) {
        StringBuilder out = new StringBuilder("# The cost of exactly-once: the sample pipeline\n\n");
        out.append(results.machine()).append("\n\n");
        out.append("Settings: ").append(String.join("; ", results.settings())).append(".\n\n");
        out.append("## Throughput\n\n");
        out.append("| repetition | checkpoints | events | ms (first event produced -> last result visible) "
                + "| events/s | checkpoints completed / aborted | unexpected results |\n");
        out.append("|---:|---|---:|---:|---:|---:|---:|\n");
        for (Throughput t : results.throughput()) {
            out.append(String.format(Locale.ROOT, "| %d | %s | %,d | %,.0f | %,.0f | %d / %d | %d |%n",
                    t.repetition(), label(t.mode()), t.events(), t.elapsedNanos() / 1e6, t.eventsPerSecond(),
                    t.completed(), t.aborted(), t.unexpected()));
        }
        double ratio = results.ratio();
        out.append(String.format(Locale.ROOT, "%nMedian events/s: %,.0f with checkpoints, %,.0f without; "
                + "ratio on / off = **%.2f** (target at least %.2f: %s).%n", results.medianEventsPerSecond(Mode.ON),
                results.medianEventsPerSecond(Mode.OFF), ratio, TARGET_RATIO, ratio >= TARGET_RATIO ? "met"
                        : "missed"));
        if (!results.latency().isEmpty()) {
            out.append("\n## Latency of a result (event produced -> its result visible)\n\n");
            out.append("| checkpoints | input events/s | samples | p50 ms | p99 ms | max ms "
                    + "| checkpoints completed / aborted |\n");
            out.append("|---|---:|---:|---:|---:|---:|---:|\n");
            for (Latency l : results.latency()) {
                out.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %.1f | %.1f | %.1f | %d / %d |%n",
                        label(l.mode()), l.rate(), l.samples(), l.p50Ms(), l.p99Ms(), l.maxMs(), l.completed(),
                        l.aborted()));
            }
        }
        return out.toString();
    }

    private static String label(Mode mode) {
        return mode == Mode.ON ? "on (exactly-once sink)" : "off (kit topic output)";
    }
}
