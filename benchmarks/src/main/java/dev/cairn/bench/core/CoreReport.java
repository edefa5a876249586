package dev.cairn.bench.core;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The Markdown table of a core benchmark run: one row per operation and N, with Cairn's score, Flink's score
 * and their ratio Cairn/Flink (each score with its 99.9% JMH error margin). With JMH's GC profiler, two more
 * columns give the bytes each side allocates per operation.
 */
public final class CoreReport {

    /** The reported operations, in row order: JMH method, label, unit, and how many operations it measures. */
    enum Operation {
        NON_FINAL_ACK("nonFinalAcks", "non-final ack", "ns"),
        COMPLETING_ACK("completingAck", "completing ack", "ns"),
        TRIGGER("trigger", "trigger", "ns"),
        CYCLE("cycle", "full cycle (trigger + N acks)", "cycles/s");

        final String method;
        final String label;
        final String unit;

        Operation(String method, String label, String unit) {
            this.method = method;
            this.label = label;
            this.unit = unit;
        }

        /** How many operations of this row one JMH invocation performs. */
        int perInvocation(int subtasks) {
            return this == NON_FINAL_ACK ? subtasks - 1 : 1;
        }
    }

    private static final String ALLOCATION = "gc.alloc.rate.norm";

    private CoreReport() {
    }

    /**
     * The table of {@code results} for every operation and every N of {@code subtasks}; a missing result
     * shows as "n/a".
     */
    public static String markdown(Collection<RunResult> results, List<Integer> subtasks, boolean allocation) {
        Map<String, RunResult> byKey = new HashMap<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            byKey.put(key(method, Integer.parseInt(result.getParams().getParam("subtasks")),
                    result.getParams().getParam("impl")), result);
        }
        StringBuilder table = new StringBuilder();
        table.append("| Operation | N | Cairn | Flink | Cairn/Flink |");
        table.append(allocation ? " Cairn B/op | Flink B/op |\n" : "\n");
        table.append("|---|---:|---:|---:|---:|").append(allocation ? "---:|---:|\n" : "\n");
        for (Operation operation : Operation.values()) {
            for (int n : subtasks) {
                RunResult cairn = byKey.get(key(operation.method, n, "cairn"));
                RunResult flink = byKey.get(key(operation.method, n, "flink"));
                int per = operation.perInvocation(n);
                table.append("| ").append(operation.label).append(" (").append(operation.unit).append(") | ")
                        .append(String.format(Locale.ROOT, "%,d", n)).append(" | ")
                        .append(score(cairn, per)).append(" | ").append(score(flink, per)).append(" | ")
                        .append(ratio(cairn, flink)).append(" |");
                if (allocation) {
                    table.append(' ').append(allocated(cairn, per)).append(" | ").append(allocated(flink, per))
                            .append(" |");
                }
                table.append('\n');
            }
        }
        table.append("\nTimes in ns per operation (lower is better), cycles per second (higher is better); ")
                .append("a non-final ack is one of the N-1 acks of a checkpoint timed together. ")
                .append("Scores are JMH means ± their 99.9% error.\n");
        return table.toString();
    }

    private static String key(String method, int subtasks, String impl) {
        return method + '/' + subtasks + '/' + impl;
    }

    private static String score(RunResult result, int per) {
        if (result == null) {
            return "n/a";
        }
        Result<?> primary = result.getPrimaryResult();
        double error = primary.getScoreError();
        String score = number(primary.getScore() / per);
        return Double.isNaN(error) ? score : score + " ± " + number(error / per);
    }

    private static String ratio(RunResult cairn, RunResult flink) {
        if (cairn == null || flink == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f",
                cairn.getPrimaryResult().getScore() / flink.getPrimaryResult().getScore());
    }

    private static String allocated(RunResult result, int per) {
        if (result == null) {
            return "n/a";
        }
        Result<?> bytes = result.getSecondaryResults().get(ALLOCATION);
        return bytes == null ? "n/a" : number(bytes.getScore() / per);
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%,.0f" : "%,.1f", value);
    }
}
