package dev.cairn.bench.audit;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.events.topics.CairnTopics;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The rebuild benchmark's long partitions rebuilt next to partitions whose jobs keep working: a coordinator of a new
 * application id without snapshots starts over the benchmark's topics, whose first journal partitions (its
 * {@code --partitions}) hold the written journal (each longer than a rebuild folds within the task's initialisation,
 * so folded in the background) and whose other partitions have none; one {@link LiveJobs} job per other partition
 * registers as soon as the coordinator starts and checkpoints round after round (trigger, acks, completion) until one
 * round after every long partition reported its rebuild.
 *
 * <p>Measured: the seconds from the start until the long partitions were rebuilt and until the live jobs' first
 * round of checkpoints completed, and the live checkpoints completed while a long partition still rebuilt. Checked,
 * or the run fails: at least one live checkpoint completed while a long partition still rebuilt; every partition
 * rebuilt exactly once ({@code cairn.store.rebuilds}); no stream task closed ({@code task-closed-total} of Kafka
 * Streams' thread metrics: a task fenced by its transaction's time-out, or moved by a rebalance, is closed) and one
 * created per partition; the coordinator did not stop; no live checkpoint id completed twice ({@link LiveJobs}).
 */
final class RebuildBesideLiveJobs {

    /** What the run measured. */
    record Result(int longPartitions, int livePartitions, int subtasks, double rebuiltSeconds,
            double firstCheckpointSeconds, long whileRebuilding, long completed, Map<Integer, Long> rebuilds,
            double tasksCreated, double tasksClosed) {

        /** Appends the report's section. */
        void appendTo(StringBuilder md) {
            md.append(String.format(Locale.ROOT, "%nBeside the rebuild: %d live job%s of %d subtasks, one on each "
                    + "of partitions %s, checkpointing while a coordinator of a new application id (no snapshots) "
                    + "rebuilds partition%s %s in the background%n%n", livePartitions, livePartitions == 1 ? "" : "s",
                    subtasks, range(longPartitions, longPartitions + livePartitions), longPartitions == 1 ? "" : "s",
                    range(0, longPartitions)));
            md.append("| what | figure |\n|---|---:|\n");
            row(md, "start until the long partitions were rebuilt, s", String.format(Locale.ROOT, "%.2f",
                    rebuiltSeconds));
            row(md, "start until the live jobs' first round of checkpoints completed, s",
                    String.format(Locale.ROOT, "%.2f", firstCheckpointSeconds));
            row(md, "live checkpoints completed while the long partitions were rebuilt", Long.toString(
                    whileRebuilding));
            row(md, "live checkpoints completed in all (until one round after the rebuild)", Long.toString(completed));
            row(md, "rebuilds by partition (cairn.store.rebuilds)", rebuilds.toString());
            row(md, "stream tasks created / closed (Kafka Streams task-created-total / task-closed-total)",
                    String.format(Locale.ROOT, "%.0f / %.0f", tasksCreated, tasksClosed));
            row(md, "live checkpoint ids completed twice", "none");
        }

        /** Partitions {@code from} to {@code to - 1}: "1" or "1..2". */
        static String range(int from, int to) {
            return to - from == 1 ? Integer.toString(from) : from + ".." + (to - 1);
        }

        private static void row(StringBuilder md, String what, String figure) {
            md.append("| ").append(what).append(" | ").append(figure).append(" |\n");
        }
    }

    private static final Duration WAIT = Duration.ofMinutes(2);

    private RebuildBesideLiveJobs() {
    }

    /** Runs the coordinator and the live jobs over {@code topics} (of {@code long + live} partitions). */
    static Result run(String bootstrap, CairnTopics topics, int longPartitions, int livePartitions, int subtasks,
            Path stateDir, Duration limit) throws InterruptedException {
        int total = longPartitions + livePartitions;
        List<Integer> live = IntStream.range(longPartitions, total).boxed().toList();
        SigningKey masterKey = SigningKey.generate();
        long[] rebuiltAt = {0};
        long started = System.nanoTime();
        try (CoordinatorApp app = CoordinatorApp.start(RebuildBenchmark.config(bootstrap, "beside-live-jobs", topics,
                total, stateDir, masterKey, Duration.ZERO))) {
            MeterRegistry registry = app.metrics().registry();
            Runnable watch = () -> {
                if (rebuiltAt[0] == 0 && IntStream.range(0, longPartitions)
                        .allMatch(p -> RebuildBenchmark.rebuilds(registry).getOrDefault(p, 0L) > 0)) {
                    rebuiltAt[0] = System.nanoTime();
                }
            };
            long firstCompleted = 0;
            long whileRebuilding = 0;
            long completed = 0;
            try (LiveJobs jobs = new LiveJobs(bootstrap, topics, masterKey, live, total, subtasks, WAIT, watch)) {
                jobs.register();
                long deadline = System.nanoTime() + limit.toNanos();
                long roundsAfter = 0;
                while (roundsAfter < 1) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("partition(s) " + Result.range(0, longPartitions)
                                + " not rebuilt within " + limit);
                    }
                    boolean rebuiltBefore = rebuiltAt[0] != 0;
                    LiveJobs.Round round = jobs.round(() -> {
                        watch.run();
                        return rebuiltAt[0] == 0;
                    });
                    firstCompleted = firstCompleted == 0 ? System.nanoTime() : firstCompleted;
                    completed += round.completed();
                    whileRebuilding += round.whileRebuilding();
                    roundsAfter += rebuiltBefore ? 1 : 0;
                }
            }
            Result result = new Result(longPartitions, livePartitions, subtasks, (rebuiltAt[0] - started) / 1e9,
                    (firstCompleted - started) / 1e9, whileRebuilding, completed, RebuildBenchmark.rebuilds(registry),
                    threadMetric(app.streams(), "task-created-total"),
                    threadMetric(app.streams(), "task-closed-total"));
            check(result, total, app);
            return result;
        }
    }

    private static void check(Result result, int total, CoordinatorApp app) {
        List<String> problems = new ArrayList<>();
        if (result.whileRebuilding() == 0) {
            problems.add(String.format(Locale.ROOT, "no checkpoint of the live jobs completed while partition(s) %s "
                    + "were rebuilt (they were rebuilt %.2f s after the start, the live jobs' first round completed "
                    + "after %.2f s): make the journal longer (--events)", Result.range(0, result.longPartitions()),
                    result.rebuiltSeconds(), result.firstCheckpointSeconds()));
        }
        for (int p = 0; p < total; p++) {
            long rebuilds = result.rebuilds().getOrDefault(p, 0L);
            if (rebuilds != 1) {
                problems.add("partition " + p + " was rebuilt " + rebuilds + " times, not once");
            }
        }
        if (result.tasksClosed() != 0 || result.tasksCreated() != total) {
            problems.add(String.format(Locale.ROOT, "Kafka Streams created %.0f tasks and closed %.0f (expected %d "
                    + "created, none closed: a task was fenced or moved)", result.tasksCreated(), result.tasksClosed(),
                    total));
        }
        if (app.stopped().isDone()) {
            problems.add("the coordinator stopped: " + app.stopped().join());
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the rebuild beside live jobs failed: " + String.join("; ", problems));
        }
    }

    /** The sum over the stream threads of one of Kafka Streams' thread metrics. */
    private static double threadMetric(KafkaStreams streams, String name) {
        double sum = 0;
        for (Map.Entry<MetricName, ? extends Metric> metric : streams.metrics().entrySet()) {
            if (metric.getKey().name().equals(name) && metric.getKey().group().equals("stream-thread-metrics")) {
                sum += ((Number) metric.getValue().metricValue()).doubleValue();
            }
        }
        return sum;
    }
}
