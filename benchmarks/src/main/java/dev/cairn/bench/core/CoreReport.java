package dev.cairn.bench.core;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The Markdown tables of a core benchmark run, one row per operation and N, with Cairn's score, Flink's score
 * with a state handle per ack and their ratio Cairn/Flink, then Flink's score without state and Cairn's ratio
 * to it: first JMH's wall-clock scores (with their 99.9% error margins), then the same rows in CPU time of the
 * benchmark thread, which other processes on the machine do not inflate, with the bytes it allocated per
 * operation ({@link CoreBenchmarks.InvocationMeter}). A paragraph before the tables says how the messages are
 * built.
 */
public final class CoreReport {

    /** The reported operations, in row order: JMH method, label and unit. */
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

    private static final String HEADER = "| Operation | N | Cairn | Flink | Cairn/Flink | Flink stateless "
            + "| Cairn/Flink stateless |";
    private static final String ALIGNMENT = "|---|---:|---:|---:|---:|---:|---:|";
    private static final String METHOD = "Messages are built before the measured call on both sides, in JMH's "
            + "per-invocation setup (a decoded `CheckpointAcknowledged` or `TriggerRequest` for Cairn, an "
            + "`AcknowledgeCheckpoint` for Flink, whose trigger is a call without a message), and the run fails "
            + "if a measured call builds one; only the full cycle builds its trigger and N acks inside. The "
            + "headline column Flink acks with a state handle (a `TaskStateSnapshot` of one operator state "
            + "named by a ~100-character location, as Cairn's acks carry one); Flink stateless acks with metrics "
            + "and no `TaskStateSnapshot`. Both ratios are Cairn's over that Flink column.";
    private static final String LEGEND = "Times in ns per operation (lower is better), cycles per second (higher is "
            + "better); a non-final ack is one of the N-1 acks of a checkpoint timed together.";

    private CoreReport() {
    }

    /** The tables of {@code results} for every operation and every N of {@code subtasks}; a missing result is "n/a". */
    public static String markdown(Collection<RunResult> results, List<Integer> subtasks) {
        Map<String, RunResult> byKey = new HashMap<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            byKey.put(key(method, Integer.parseInt(result.getParams().getParam("subtasks")),
                    result.getParams().getParam("impl")), result);
        }
        StringBuilder out = new StringBuilder(METHOD).append("\n\n## Wall-clock time (JMH score)\n\n");
        out.append(HEADER).append('\n').append(ALIGNMENT).append('\n');
        for (Operation operation : Operation.values()) {
            for (int n : subtasks) {
                List<RunResult> row = CoreDrivers.IMPLEMENTATIONS.stream()
                        .map(impl -> byKey.get(key(operation.method, n, impl))).toList();
                int per = operation.perInvocation(n);
                row(out, operation, n, row.stream().map(result -> scored(result, per)).toList(),
                        row.stream().map(CoreReport::primary).toList());
                out.append('\n');
            }
        }
        out.append('\n').append(LEGEND).append(" Scores are JMH means ± their 99.9% error.\n\n");
        out.append("## CPU time and allocation of the benchmark thread\n\n").append(HEADER)
                .append(" Cairn B/op | Flink B/op | Flink stateless B/op |\n").append(ALIGNMENT)
                .append("---:|---:|---:|\n");
        for (Operation operation : Operation.values()) {
            for (int n : subtasks) {
                List<RunResult> row = CoreDrivers.IMPLEMENTATIONS.stream()
                        .map(impl -> byKey.get(key(operation.method, n, impl))).toList();
                List<Double> cpu = row.stream().map(result -> cpu(result, operation)).toList();
                row(out, operation, n, cpu.stream().map(CoreReport::number).toList(), cpu);
                row.forEach(result -> out.append(' ').append(number(perOperation(result, "allocatedBytes")))
                        .append(" |"));
                out.append('\n');
            }
        }
        out.append('\n').append(LEGEND).append(" CPU time and allocated bytes are read right after the setup and "
                + "right before the teardown of every measured invocation, so they count neither (JMH's GC profiler, "
                + "--prof-gc, counts the setup's allocations too).\n");
        return out.toString();
    }

    /** A row: the shown figures of Cairn, Flink and Flink stateless, each Flink one followed by Cairn's ratio. */
    private static void row(StringBuilder out, Operation operation, int n, List<String> shown, List<Double> values) {
        out.append("| ").append(operation.label).append(" (").append(operation.unit).append(") | ")
                .append(String.format(Locale.ROOT, "%,d", n)).append(" | ").append(shown.get(0)).append(" |");
        for (int flink = 1; flink < shown.size(); flink++) {
            out.append(' ').append(shown.get(flink)).append(" | ").append(ratio(values.get(0), values.get(flink)))
                    .append(" |");
        }
    }

    private static String key(String method, int subtasks, String impl) {
        return method + '/' + subtasks + '/' + impl;
    }

    private static double primary(RunResult result) {
        return result == null ? Double.NaN : result.getPrimaryResult().getScore();
    }

    private static String scored(RunResult result, int per) {
        if (result == null) {
            return "n/a";
        }
        Result<?> primary = result.getPrimaryResult();
        double error = primary.getScoreError();
        String score = number(primary.getScore() / per);
        return Double.isNaN(error) ? score : score + " ± " + number(error / per);
    }

    /** CPU ns per operation, or cycles per CPU second for the cycle; NaN when not measured. */
    private static double cpu(RunResult result, Operation operation) {
        double nanos = perOperation(result, "cpuNanos");
        return operation == Operation.CYCLE ? 1e9 / nanos : nanos;
    }

    /** One of {@link CoreBenchmarks.InvocationMeter}'s counters per operation; NaN when not measured. */
    private static double perOperation(RunResult result, String counter) {
        Result<?> total = result == null ? null : result.getSecondaryResults().get(counter);
        Result<?> operations = result == null ? null : result.getSecondaryResults().get("operations");
        if (total == null || operations == null || operations.getScore() == 0) {
            return Double.NaN;
        }
        return total.getScore() / operations.getScore();
    }

    private static String ratio(double cairn, double flink) {
        return Double.isNaN(cairn) || Double.isNaN(flink) ? "n/a" : String.format(Locale.ROOT, "%.2f", cairn / flink);
    }

    private static String number(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%,.0f" : "%,.1f", value);
    }
}
