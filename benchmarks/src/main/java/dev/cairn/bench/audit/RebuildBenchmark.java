package dev.cairn.bench.audit;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.events.topics.JobPartitions;
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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;

/**
 * How long a coordinator takes to rebuild its stores from the journal, per million journal events, with and without
 * snapshots: what an upgrade to another store layout, a new application id or lost changelogs cost before the jobs
 * go on. A real broker in this JVM; a journal written by the coordinator's own decider ({@link JournalWorkload}: jobs
 * that register, start and checkpoint round after round) on the journal topic of a set of coordinator topics; then,
 * once, snapshots of every journal partition up to its end ({@link SnapshotsMade}: a coordinator with a snapshot
 * every second, stopped once they cover the journal); then, per repeat, two coordinators of a new application id
 * each (the signed default mode, no REST API) start over those topics and rebuild every partition: one without
 * snapshots ({@code snapshot.interval.ms} 0), which folds the journal from its first record, and one from the
 * snapshots (an interval of an hour, so that it makes none meanwhile), which folds only the journal after them.
 * Measured for each: the wall time from its start until every partition reported its rebuild (Kafka Streams start
 * and assignment included: the time to serve every job after the start), and the sum of the partitions' own rebuild
 * times (read the snapshot, read, decode, fold, write the stores and their changelogs); as the reference of the same
 * repeat, the audit's replay of the same journal (decode and fold in one thread, no stores).
 *
 * <p>With {@code --live-partitions=N} (N &gt; 0) the topics get N partitions more, the journal's jobs are picked so
 * that it fills only the first {@code --partitions}, and after the repeats a coordinator without snapshots rebuilds
 * them in the background while a job on each of the N others keeps checkpointing ({@link RebuildBesideLiveJobs}).
 *
 * <pre>
 * mvn -B -q -pl benchmarks exec:java@rebuild -Dexec.args="--events=1000000"
 * </pre>
 * Flags: {@code --events} (1,000,000), {@code --jobs} (100), {@code --subtasks} (10), {@code --partitions} (3),
 * {@code --live-partitions} (0), {@code --live-subtasks} (10), {@code --repeats} (3), {@code --out} (a markdown
 * file, default {@code target/benchmark/rebuild.md}).
 */
public final class RebuildBenchmark {

    private static final Duration REBUILD_LIMIT = Duration.ofMinutes(30);
    /** The snapshot interval of the coordinators that rebuild from the snapshots: none made while measured. */
    private static final Duration NO_SNAPSHOT_MEANWHILE = Duration.ofHours(1);

    /** One coordinator's rebuild: its wall time, its partitions' rebuild time, the journal records it folded. */
    record Rebuild(double wallSeconds, double partitionSeconds, long records) {
    }

    /** One repeat: the rebuilds without and with snapshots, and the audit replay's time. */
    record Row(int repeat, long events, Rebuild full, Rebuild fromSnapshots, double replaySeconds) {
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
        int live = Integer.parseInt(flags.getOrDefault("live-partitions", "0"));
        int liveSubtasks = Integer.parseInt(flags.getOrDefault("live-subtasks", "10"));
        int repeats = Integer.parseInt(flags.getOrDefault("repeats", "3"));
        Path out = Path.of(flags.getOrDefault("out", "target/benchmark/rebuild.md"));
        int total = partitions + live;
        Path stateRoot = Files.createTempDirectory("cairn-rebuild-bench");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            String bootstrap = broker.bootstrapServers();
            CairnTopics topics = new CairnTopics("bench.");
            try (Admin admin = broker.createAdmin()) {
                new TopicInitializer(admin, Duration.ofSeconds(60)).ensure(topics, total, (short) 1);
            }
            long[] produced = ReplayBenchmark.produce(bootstrap, topics.journal(), events, jobs, subtasks,
                    jobId -> JobPartitions.of(jobId, total) < partitions);
            SnapshotsMade snapshots = SnapshotsMade.make(bootstrap, topics, total, stateRoot.resolve("snapshots"),
                    REBUILD_LIMIT);
            System.out.printf(Locale.ROOT, "snapshots at journal offsets %s made in %.2f s%n",
                    snapshots.journalOffsets(), snapshots.seconds());
            List<Row> rows = new ArrayList<>();
            for (int repeat = 1; repeat <= repeats; repeat++) {
                long replayStarted = System.nanoTime();
                long replayed = ReplayBenchmark.replay(bootstrap, topics.journal());
                double replaySeconds = (System.nanoTime() - replayStarted) / 1e9;
                Rebuild full = rebuild(bootstrap, topics, total, stateRoot.resolve("full-" + repeat), Duration.ZERO,
                        replayed);
                Rebuild fromSnapshots = rebuild(bootstrap, topics, total, stateRoot.resolve("snapshots-" + repeat),
                        NO_SNAPSHOT_MEANWHILE, 0);
                if (fromSnapshots.records() >= replayed) {
                    throw new IllegalStateException("the rebuild from the snapshots folded " + fromSnapshots.records()
                            + " journal records of " + replayed + ": it did not start from the snapshots");
                }
                Row row = new Row(repeat, replayed, full, fromSnapshots, replaySeconds);
                System.out.printf(Locale.ROOT, "repeat %d: %,d events; rebuilt without snapshots in %.2f s (partitions "
                        + "%.2f s), from the snapshots in %.2f s (partitions %.2f s, %,d journal records after them); "
                        + "audit replay %.2f s%n", repeat, row.events(), full.wallSeconds(), full.partitionSeconds(),
                        fromSnapshots.wallSeconds(), fromSnapshots.partitionSeconds(), fromSnapshots.records(),
                        row.replaySeconds());
                rows.add(row);
            }
            RebuildBesideLiveJobs.Result beside = live == 0 ? null : RebuildBesideLiveJobs.run(bootstrap, topics,
                    partitions, live, liveSubtasks, stateRoot.resolve("beside-live-jobs"), REBUILD_LIMIT);
            report(rows, produced, partitions, snapshots, beside, flags, out);
        }
    }

    /** Settings of every coordinator of the benchmark (no REST API, 100 ms ticks and commits). */
    static CoordinatorConfig config(String bootstrap, String applicationId, CairnTopics topics, int partitions,
            Path stateDir, SigningKey masterKey, Duration snapshotInterval) {
        return new CoordinatorConfig(bootstrap, applicationId, topics, partitions, (short) 1, stateDir,
                Duration.ofMillis(100), Duration.ofMillis(100), Map.of(), null, CoordinatorConfig.Failover.DEFAULTS,
                masterKey, false, InputLimits.DEFAULTS, (short) 1, snapshotInterval, null, null);
    }

    /**
     * Starts a coordinator of a new application over the topics with the given snapshot interval and waits until
     * every partition reported its rebuild and, without snapshots, {@code events} records were folded.
     */
    private static Rebuild rebuild(String bootstrap, CairnTopics topics, int partitions, Path stateDir,
            Duration snapshotInterval, long events) throws InterruptedException {
        CoordinatorConfig config = config(bootstrap, "rebuild-" + stateDir.getFileName(), topics, partitions,
                stateDir, SigningKey.generate(), snapshotInterval);
        long started = System.nanoTime();
        try (CoordinatorApp app = CoordinatorApp.start(config)) {
            MeterRegistry registry = app.metrics().registry();
            long deadline = System.nanoTime() + REBUILD_LIMIT.toNanos();
            while (!IntStream.range(0, partitions).allMatch(p -> rebuilds(registry).getOrDefault(p, 0L) > 0)
                    || records(registry) < events) {
                if (System.nanoTime() > deadline || app.stopped().isDone()) {
                    throw new IllegalStateException("no rebuild of every partition within " + REBUILD_LIMIT
                            + " (rebuilds by partition: " + rebuilds(registry) + ")");
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
            double wall = (System.nanoTime() - started) / 1e9;
            double partitionSeconds = registry.find("cairn.store.rebuild.duration").timers().stream()
                    .mapToDouble(t -> t.totalTime(TimeUnit.SECONDS)).sum();
            return new Rebuild(wall, partitionSeconds, records(registry));
        }
    }

    /** {@code cairn.store.rebuilds} by partition (a partition not rebuilt yet has none). */
    static Map<Integer, Long> rebuilds(MeterRegistry registry) {
        Map<Integer, Long> rebuilds = new TreeMap<>();
        for (Counter counter : registry.find("cairn.store.rebuilds").counters()) {
            rebuilds.merge(Integer.parseInt(counter.getId().getTag("partition")), (long) counter.count(), Long::sum);
        }
        return rebuilds;
    }

    private static long records(MeterRegistry registry) {
        return (long) registry.find("cairn.store.rebuild.records").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static double median(List<Row> rows, ToDoubleFunction<Row> figure) {
        double[] values = rows.stream().mapToDouble(figure).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static void report(List<Row> rows, long[] produced, int partitions, SnapshotsMade snapshots,
            RebuildBesideLiveJobs.Result beside, Map<String, String> flags, Path out) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Store rebuild benchmark, %s, %d cores, Java %s, flags %s%n%n",
                ZonedDateTime.now(ZoneOffset.UTC).toLocalDate(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), flags));
        md.append(String.format(Locale.ROOT, "%,d journal events (%,d bytes of values) in %d partition%s; medians "
                + "of %d repeats%n%n", produced[0], produced[1], partitions, partitions == 1 ? "" : "s", rows.size()));
        md.append(String.format(Locale.ROOT, "Snapshots made once, before the repeats, by a coordinator with a "
                + "snapshot every %d s: at journal offsets %s, %,d entries in %,d chunks, %.2f s from its start "
                + "(its own rebuild included)%n%n", SnapshotsMade.INTERVAL.toSeconds(), snapshots.journalOffsets(),
                snapshots.entries(), snapshots.chunks(), snapshots.seconds()));
        md.append("| what | seconds | seconds per million journal events |\n|---|---:|---:|\n");
        appendMedian(md, rows, "coordinator of a new application id, no snapshots: start until every partition is "
                + "rebuilt", row -> row.full().wallSeconds());
        appendMedian(md, rows, "its partitions' rebuilds (read, decode, fold, write stores), summed",
                row -> row.full().partitionSeconds());
        appendMedian(md, rows, "coordinator of a new application id, from the snapshots: start until every "
                + "partition is rebuilt", row -> row.fromSnapshots().wallSeconds());
        appendMedian(md, rows, "its partitions' rebuilds (read the snapshot, fold the journal after it, write "
                + "stores), summed", row -> row.fromSnapshots().partitionSeconds());
        appendMedian(md, rows, "reference: audit replay of the same journal (read, decode, fold)",
                Row::replaySeconds);
        md.append(String.format(Locale.ROOT, "%nStart until every partition is rebuilt, no snapshots against from "
                + "the snapshots: %.1f times as long (median of the repeats' ratios)%n",
                median(rows, row -> row.full().wallSeconds() / row.fromSnapshots().wallSeconds())));
        md.append("\nEvery repeat:\n\n| repeat | events | no snapshots s | partitions s | from snapshots s "
                + "| partitions s | journal records after the snapshots | audit replay s |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row row : rows) {
            md.append(String.format(Locale.ROOT, "| %d | %,d | %.2f | %.2f | %.2f | %.2f | %,d | %.2f |%n",
                    row.repeat(), row.events(), row.full().wallSeconds(), row.full().partitionSeconds(),
                    row.fromSnapshots().wallSeconds(), row.fromSnapshots().partitionSeconds(),
                    row.fromSnapshots().records(), row.replaySeconds()));
        }
        if (beside != null) {
            beside.appendTo(md);
        }
        ReplayBenchmark.printAndWrite(md, out);
    }

    private static void appendMedian(StringBuilder md, List<Row> rows, String what, ToDoubleFunction<Row> seconds) {
        double median = median(rows, seconds);
        md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f |%n", what, median,
                median(rows, row -> row.perMillion(seconds.applyAsDouble(row)))));
    }
}
