package dev.cairn.bench.audit;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import dev.cairn.topics.TopicInitializer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * How long a coordinator takes to rebuild its stores from the journal, per million journal events: what an upgrade
 * to another store layout, a new application id or lost changelogs cost before the jobs go on. A real broker in
 * this JVM; a journal written by the coordinator's own decider ({@link JournalWorkload}: jobs that register, start
 * and checkpoint round after round) on the journal topic of a set of coordinator topics; then, per repeat, a
 * coordinator of a new application id (the signed default mode, no REST API) starts over those topics and rebuilds
 * every partition. Measured: the wall time from its start until every partition reported its rebuild (Kafka Streams
 * start and assignment included), the sum of the partitions' own rebuild times (read, decode, fold, write the stores
 * and their changelogs), and, as the reference of the same run, the audit's replay of the same journal (decode and
 * fold in one thread, no stores).
 *
 * <pre>
 * mvn -B -q -pl benchmarks exec:java@rebuild -Dexec.args="--events=1000000"
 * </pre>
 * Flags: {@code --events} (1,000,000), {@code --jobs} (100), {@code --subtasks} (10), {@code --partitions} (3),
 * {@code --repeats} (3), {@code --out} (a markdown file, default {@code target/benchmark/rebuild.md}).
 */
public final class RebuildBenchmark {

    private static final Duration REBUILD_LIMIT = Duration.ofMinutes(30);

    /** One repeat: the coordinator's wall time and its partitions' rebuild time, and the audit replay's time. */
    record Row(int repeat, long events, double wallSeconds, double partitionSeconds, double replaySeconds) {
        double perMillion(double seconds) {
            return seconds * 1_000_000 / events;
        }
    }

    private RebuildBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = ReplayBenchmark.flags(args);
        long events = Long.parseLong(flags.getOrDefault("events", "1000000"));
        int jobs = Integer.parseInt(flags.getOrDefault("jobs", "100"));
        int subtasks = Integer.parseInt(flags.getOrDefault("subtasks", "10"));
        int partitions = Integer.parseInt(flags.getOrDefault("partitions", "3"));
        int repeats = Integer.parseInt(flags.getOrDefault("repeats", "3"));
        Path out = Path.of(flags.getOrDefault("out", "target/benchmark/rebuild.md"));
        Path stateRoot = Files.createTempDirectory("cairn-rebuild-bench");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            CairnTopics topics = new CairnTopics("bench.");
            try (Admin admin = broker.createAdmin()) {
                new TopicInitializer(admin, Duration.ofSeconds(60)).ensure(topics, partitions, (short) 1);
            }
            long[] produced = ReplayBenchmark.produce(broker.bootstrapServers(), topics.journal(), events, jobs,
                    subtasks);
            List<Row> rows = new ArrayList<>();
            for (int repeat = 1; repeat <= repeats; repeat++) {
                long replayStarted = System.nanoTime();
                long replayed = ReplayBenchmark.replay(broker.bootstrapServers(), topics.journal());
                double replaySeconds = (System.nanoTime() - replayStarted) / 1e9;
                double[] rebuild = rebuild(broker.bootstrapServers(), topics, partitions,
                        stateRoot.resolve("repeat-" + repeat), replayed);
                Row row = new Row(repeat, replayed, rebuild[0], rebuild[1], replaySeconds);
                System.out.printf(Locale.ROOT, "repeat %d: %,d events; coordinator rebuilt in %.2f s (partitions "
                        + "%.2f s); audit replay %.2f s%n", repeat, row.events(), row.wallSeconds(),
                        row.partitionSeconds(), row.replaySeconds());
                rows.add(row);
            }
            report(rows, produced, flags, out);
        }
    }

    /** Starts a coordinator of a new application over the topics; returns its wall and partition seconds. */
    private static double[] rebuild(String bootstrap, CairnTopics topics, int partitions, Path stateDir,
            long events) throws InterruptedException {
        CoordinatorConfig config = new CoordinatorConfig(bootstrap, "rebuild-" + stateDir.getFileName(), topics,
                partitions, (short) 1, stateDir, Duration.ofMillis(100), Duration.ofMillis(100), Map.of(), null,
                CoordinatorConfig.Failover.DEFAULTS, SigningKey.generate(), false, InputLimits.DEFAULTS, (short) 1,
                CoordinatorConfig.DEFAULT_SNAPSHOT_INTERVAL);
        long started = System.nanoTime();
        try (CoordinatorApp app = CoordinatorApp.start(config)) {
            MeterRegistry registry = app.metrics().registry();
            long deadline = System.nanoTime() + REBUILD_LIMIT.toNanos();
            while (rebuilds(registry) < partitions || records(registry) < events) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no rebuild of every partition within " + REBUILD_LIMIT);
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
            double wall = (System.nanoTime() - started) / 1e9;
            double partitionSeconds = registry.find("cairn.store.rebuild.duration").timers().stream()
                    .mapToDouble(t -> t.totalTime(TimeUnit.SECONDS)).sum();
            return new double[] {wall, partitionSeconds};
        }
    }

    private static long rebuilds(MeterRegistry registry) {
        return (long) registry.find("cairn.store.rebuilds").counters().stream().mapToDouble(Counter::count).sum();
    }

    private static long records(MeterRegistry registry) {
        return (long) registry.find("cairn.store.rebuild.records").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static double median(List<Row> rows, java.util.function.ToDoubleFunction<Row> figure) {
        double[] values = rows.stream().mapToDouble(figure).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static void report(List<Row> rows, long[] produced, Map<String, String> flags, Path out)
            throws IOException {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Store rebuild benchmark, %s, %d cores, Java %s, flags %s%n%n",
                ZonedDateTime.now(ZoneOffset.UTC).toLocalDate(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), flags));
        md.append(String.format(Locale.ROOT, "%,d journal events (%,d bytes of values); medians of %d repeats%n%n",
                produced[0], produced[1], rows.size()));
        md.append("| what | seconds | seconds per million journal events |\n|---|---:|---:|\n");
        appendMedian(md, rows, "coordinator of a new application id: start until every partition is rebuilt",
                Row::wallSeconds);
        appendMedian(md, rows, "its partitions' rebuilds (read, decode, fold, write stores), summed",
                Row::partitionSeconds);
        appendMedian(md, rows, "reference: audit replay of the same journal (read, decode, fold)",
                Row::replaySeconds);
        md.append("\nEvery repeat:\n\n| repeat | events | coordinator s | partitions s | audit replay s |\n"
                + "|---:|---:|---:|---:|---:|\n");
        for (Row row : rows) {
            md.append(String.format(Locale.ROOT, "| %d | %,d | %.2f | %.2f | %.2f |%n", row.repeat(), row.events(),
                    row.wallSeconds(), row.partitionSeconds(), row.replaySeconds()));
        }
        ReplayBenchmark.printAndWrite(md, out);
    }

    private static void appendMedian(StringBuilder md, List<Row> rows, String what,
            java.util.function.ToDoubleFunction<Row> seconds) {
        double median = median(rows, seconds);
        md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f |%n", what, median,
                median(rows, row -> row.perMillion(seconds.applyAsDouble(row)))));
    }
}
