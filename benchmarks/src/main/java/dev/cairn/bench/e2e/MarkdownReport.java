package dev.cairn.bench.e2e;

import static dev.cairn.bench.e2e.Results.percentile;

import dev.cairn.bench.e2e.Results.LatencyRow;
import dev.cairn.bench.e2e.Results.Rate;
import dev.cairn.bench.e2e.Results.ReviewRow;
import dev.cairn.bench.e2e.Results.ShapeRow;
import dev.cairn.bench.e2e.Results.SizeRow;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** Renders {@link Results} as the Markdown of {@code e2e.md}: a header line and one table per part. */
final class MarkdownReport {

    private MarkdownReport() {}

    static String render(Results results) {
        StringBuilder md = new StringBuilder();
        md.append("# Cairn end-to-end benchmark\n\n");
        md.append(results.machine()).append("\n\n");
        md.append("One in-JVM KRaft broker; coordinator and reference apps with exactly_once_v2, 3 partitions; ")
                .append(results.settings()).append(".\n\n");
        throughput(md, results);
        writes(md, results);
        latency(md, results.latency());
        sizes(md, results);
        review(md, results);
        return md.toString();
    }

    private static void throughput(StringBuilder md, Results results) {
        table(md, "Throughput", "Per round: one TriggerRequest per job, all triggers read, then all acks of all jobs "
                + "produced; clock from the first ack produced to the last CheckpointCompleted read. Trivial app: one "
                + "get + one put on an in-memory store (changelogged, no cache, as the coordinator's) and one record "
                + "forwarded, fed the same records (" + (results.signed() ? "signed alike, not verified" : "unsigned")
                + "); raw consume: a plain read_committed consumer reading the acks back. Rates over the "
                + "steady-state rounds.",
                "| shape (jobs x subtasks) | Cairn acks/s | trivial app records/s | raw consume records/s "
                        + "| ratio Cairn / trivial | Cairn round ms (median) | checkpoints triggered / completed |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|\n",
                results.shapes(), (ShapeRow row) -> String.format(Locale.ROOT,
                        "| %s | %s | %s | %s | %s | %s | %d / %d |%n", row.shape(),
                        row.cairn() == null ? row.failure() : rate(row.cairn()), rate(row.trivial()),
                        number(row.rawPerSecond()), ratio(row.ratio()),
                        row.cairn() == null ? "-" : number(row.cairn().medianRoundMs()), row.triggered(),
                        row.completed()));
    }

    /** What the coordinator wrote per checkpoint and per ack over the steady-state rounds, by topic. */
    private static void writes(StringBuilder md, Results results) {
        List<ShapeRow> rows = results.shapes().stream().filter(row -> row.steadyWrites() != null).toList();
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Records written per checkpoint\n\nWhat the coordinator wrote over the steady-state rounds of "
                + "each shape, divided by the checkpoints (and acks) of those rounds: end offsets of its output topics "
                + "and of its stores' changelogs (transaction markers included, a few per commit interval).\n\n");
        md.append("| shape | journal | control | completed | store changelogs | all | all per ack "
                + "| changelogs by store |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (ShapeRow row : rows) {
            Map<String, Long> written = row.steadyWrites();
            double checkpoints = (double) row.shape().jobs() * row.cairn().steadyMs().size();
            double acks = (double) row.cairn().perRound() * row.cairn().steadyMs().size();
            long stores = written.entrySet().stream().filter(e -> !CoordinatorWrites.OUTPUTS.contains(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
            long all = written.values().stream().mapToLong(Long::longValue).sum();
            String byStore = written.entrySet().stream()
                    .filter(e -> !CoordinatorWrites.OUTPUTS.contains(e.getKey()))
                    .map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), e.getValue() / checkpoints))
                    .collect(java.util.stream.Collectors.joining(", "));
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %s |%n",
                    row.shape(), written.getOrDefault("journal", 0L) / checkpoints,
                    written.getOrDefault("control", 0L) / checkpoints,
                    written.getOrDefault("completed", 0L) / checkpoints, stores / checkpoints, all / checkpoints,
                    all / acks, byStore));
        }
        md.append('\n');
    }

    private static void latency(StringBuilder md, LatencyRow row) {
        if (row == null) {
            return;
        }
        md.append("## Completion latency\n\n");
        md.append(String.format(Locale.ROOT, "One job of %d subtasks, checkpoints one after another. Cairn: last ack "
                + "produced (flushed) -> CheckpointCompleted read by a sidecar-like consumer (read_committed, "
                + "fetch.max.wait.ms %d). Trivial app: one record produced (flushed) -> its output read the same "
                + "way.%n%n", row.subtasks(), Follower.SIDECAR_FETCH_MAX_WAIT_MS));
        md.append("| | samples | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|\n");
        md.append(String.format(Locale.ROOT, "| Cairn completion | %d | %s | %s | %s |%n", row.cairnMs().size(),
                number1(percentile(row.cairnMs(), 50)), number1(percentile(row.cairnMs(), 99)),
                number1(percentile(row.cairnMs(), 100))));
        md.append(String.format(Locale.ROOT, "| trivial app record | %d | %s | %s | %s |%n", row.trivialMs().size(),
                number1(percentile(row.trivialMs(), 50)), number1(percentile(row.trivialMs(), 99)),
                number1(percentile(row.trivialMs(), 100))));
        if (row.failure() != null) {
            md.append("\nCairn latency run: ").append(row.failure()).append('\n');
        }
        md.append('\n');
    }

    private static void sizes(StringBuilder md, Results results) {
        table(md, "Record sizes", "One checkpoint of one job of N subtasks (vertices of at most 10,000). Control "
                + "bytes: keys + values of the job's records on the control topic for that checkpoint, what each of "
                + "its sidecars reads. Largest: the largest value the coordinator wrote to any of its topics "
                + "(journal, control, completed, dlq, store changelogs) meanwhile.",
                "| subtasks | control bytes per sidecar per checkpoint | largest record (bytes) | on topic "
                        + "| outcome |\n|---:|---:|---:|---|---|\n",
                results.sizes(), (SizeRow row) -> String.format(Locale.ROOT, "| %,d | %,d | %,d | %s | %s |%n",
                        row.subtasks(), row.controlBytes(), row.largestBytes(), row.largestTopic(),
                        row.failure() == null ? "completed" : row.failure()));
    }

    private static void review(StringBuilder md, Results results) {
        double base = results.review().stream().filter(r -> r.variant().equals("default") && r.cairn() != null)
                .mapToDouble(r -> r.cairn().perSecond()).findFirst().orElse(Double.NaN);
        table(md, "Settings review", "The review shape against a fresh coordinator per variant (its own topics and "
                + "state), one after another (with repeats: in order, then reversed, ...); the variant's entries "
                + "override the coordinator's Kafka Streams settings (commit.interval.ms sets the configuration's "
                + "commit interval, and with it poll.ms).",
                "| variant | Cairn acks/s | vs default | acks/s per repeat | round ms (median) |\n"
                        + "|---|---:|---:|---:|---:|\n",
                results.review(), (ReviewRow row) -> String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n",
                        row.variant(), row.cairn() == null ? row.failure() : rate(row.cairn()),
                        row.cairn() == null ? "-" : ratio(row.cairn().perSecond() / base),
                        String.join(" / ", row.repeats().stream().map(MarkdownReport::rate).toList()),
                        row.cairn() == null ? "-" : number(row.cairn().medianRoundMs())));
    }

    /**
     * One part of the report: its heading, what was measured and how, and a table (header given, one line per
     * row); nothing at all when there are no rows.
     */
    private static <R> void table(StringBuilder md, String heading, String method, String header, List<R> rows,
            Function<R, String> line) {
        if (rows.isEmpty()) {
            return;
        }
        md.append("## ").append(heading).append("\n\n").append(method).append("\n\n").append(header);
        rows.forEach(row -> md.append(line.apply(row)));
        md.append('\n');
    }

    private static String rate(Rate rate) {
        return number(rate.perSecond());
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String number1(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.1f", value);
    }

    private static String ratio(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }
}
