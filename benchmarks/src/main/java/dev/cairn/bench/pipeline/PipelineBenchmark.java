package dev.cairn.bench.pipeline;

import dev.cairn.bench.e2e.EndToEndBenchmark;
import dev.cairn.bench.pipeline.PipelineResults.Latency;
import dev.cairn.bench.pipeline.PipelineResults.Throughput;
import dev.cairn.bench.pipeline.PipelineRun.Mode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import picocli.CommandLine;

/**
 * The cost of exactly-once: the sample pipeline ({@code dev.cairn.pipeline}: source x2 -> count x2 -> sink x2, a
 * running count per key) with checkpoints next to the same pipeline without them, on the same broker and
 * coordinator in the same run. One in-JVM KRaft broker, one real coordinator in the default secured mode
 * ({@link PipelineBed}); every run is a new job with its own topics, its six subtasks are kit tasks in this JVM (not
 * separate processes, as {@code PipelineIT} runs them), each with a real embedded sidecar that signs what it sends
 * ({@link PipelineRun}). The input is {@code --events} events over {@code --keys} keys
 * ({@link dev.cairn.pipeline.InputEvents}' events), produced by {@link InputFeeder}; the results are read
 * read_committed ({@link ResultsWatcher}).
 *
 * <ol>
 *   <li><b>Throughput</b>: the input produced as fast as the producer takes it; events/s = events / (first event
 *       produced -> the last event's result visible). With checkpoints ("on"): exactly-once, aligned, every
 *       {@code --checkpoint-interval-ms}, results committed by the write-ahead sink when a checkpoint completes.
 *       Without ("off"): the same source and count tasks and sidecars, a job that triggers no checkpoint, and the
 *       last stage the same operator task writing the results topic through a {@code KitTopicOutput}, without
 *       transactions (an exactly-once sink publishes only on completed checkpoints). {@code --repetitions} runs of
 *       each, interleaved (on, off, on, off, ...), after one unreported warm-up run of each; medians; ratio =
 *       median on / median off. Checkpoints completed and aborted per run are read from the journal.</li>
 *   <li><b>Latency</b>: the input produced at a fixed rate ({@code --rate}, by default half the lower of the two
 *       throughput medians), each result matched to its event ({@link Latencies#eventIndex}: the n-th result of a
 *       key is the result of that key's n-th event), latency = the result seen minus its event produced; p50, p99
 *       and max, on and off.</li>
 * </ol>
 *
 * <h2>How to run</h2>
 * After {@code mvn -B -q install -DskipTests} (this runs in Maven's JVM from the installed siblings):
 * <pre>
 * flock /tmp/cairn-machine.lock mvn -B -q -pl benchmarks exec:java@pipeline -Dexec.args="--events=500000"
 * </pre>
 * Flags ({@link PipelineOptions}): {@code --events=500000}, {@code --keys=1000}, {@code --repetitions=3},
 * {@code --checkpoint-interval-ms=1000}, {@code --warmup-events=500000} (0: no warm-up),
 * {@code --latency-events=100000} (0 skips the latency part), {@code --rate=0} (events/s of the latency runs; 0:
 * half the lower throughput median), {@code --timeout-s=300}, {@code --out=benchmarks/target/benchmark}; a bad flag
 * is named in a one-line message and exits 2. Output: {@code pipeline.md} in {@code --out}, also printed.
 */
public final class PipelineBenchmark {

    private PipelineBenchmark() {
    }

    /** Runs the benchmark with the given flags (see the class comment) and writes its report. */
    public static void main(String[] args) throws Exception {
        EndToEndBenchmark.quietLogs();
        try {
            run(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println("PipelineBenchmark: " + e.getMessage() + " (--help lists the flags)");
            System.exit(2);
        }
    }

    /** Runs the benchmark; the results, or null after printing the usage for {@code --help}. */
    static PipelineResults run(String... args) throws IOException, InterruptedException {
        PipelineOptions options = PipelineOptions.parse(args);
        if (options == null) {
            return null;
        }
        long started = System.nanoTime();
        List<Throughput> throughput = new ArrayList<>();
        List<Latency> latency = new ArrayList<>();
        try (PipelineBed bed = PipelineBed.start()) {
            if (options.warmupEvents > 0) {
                int events = Math.max(options.warmupEvents, options.keys);
                for (Mode mode : Mode.values()) {
                    System.out.printf("warm-up, %s, %,d events (not reported)%n", mode, events);
                    throughput(bed, options, 0, mode, events);
                }
            }
            for (int repetition = 1; repetition <= options.repetitions; repetition++) {
                for (Mode mode : Mode.values()) {
                    Throughput row = throughput(bed, options, repetition, mode, options.events);
                    System.out.printf(Locale.ROOT, "throughput %d %s: %,.0f events/s, checkpoints %d / %d%n",
                            repetition, mode, row.eventsPerSecond(), row.completed(), row.aborted());
                    throughput.add(row);
                }
            }
            if (options.latencyEvents > 0) {
                int rate = options.rate > 0 ? options.rate : (int) (Math.min(median(throughput, Mode.ON),
                        median(throughput, Mode.OFF)) / 2);
                for (Mode mode : Mode.values()) {
                    Latency row = latency(bed, options, mode, Math.max(1, rate));
                    System.out.printf(Locale.ROOT, "latency %s at %,d events/s: p50 %.1f ms, p99 %.1f ms%n", mode,
                            row.rate(), row.p50Ms(), row.p99Ms());
                    latency.add(row);
                }
            }
        }
        PipelineResults results = new PipelineResults(EndToEndBenchmark.machine(), options.describe(), throughput,
                latency);
        String markdown = PipelineReport.render(results);
        Files.createDirectories(options.out);
        Files.writeString(options.out.resolve("pipeline.md"), markdown, StandardCharsets.UTF_8);
        System.out.println();
        System.out.println(markdown);
        System.out.printf(Locale.ROOT, "Wrote %s in %.0f s%n", options.out.resolve("pipeline.md"),
                (System.nanoTime() - started) / 1e9);
        return results;
    }

    private static double median(List<Throughput> rows, Mode mode) {
        return new PipelineResults("", List.of(), rows, List.of()).medianEventsPerSecond(mode);
    }

    private static Throughput throughput(PipelineBed bed, PipelineOptions options, int repetition, Mode mode,
            int events) throws InterruptedException {
        Duration timeout = Duration.ofSeconds(options.timeoutS);
        try (PipelineRun run = PipelineRun.start(bed, jobId(mode, repetition), mode,
                Duration.ofMillis(options.checkpointIntervalMs));
                ResultsWatcher results = new ResultsWatcher(bed.bootstrap(), run.topology().resultsTopic(), events,
                        options.keys);
                InputFeeder input = InputFeeder.start(bed.bootstrap(), run.topology().eventsTopic(), events,
                        options.keys, 0)) {
            long last = results.awaitAll(timeout, () -> {
                run.check();
                input.check();
            });
            input.finished();
            int[] checkpoints = run.checkpoints();
            return new Throughput(repetition, mode, events, last - input.producedAt(0), checkpoints[0],
                    checkpoints[1], results.unexpected());
        }
    }

    private static Latency latency(PipelineBed bed, PipelineOptions options, Mode mode, int rate)
            throws InterruptedException {
        int events = Math.max(options.latencyEvents, options.keys);
        Duration timeout = Duration.ofSeconds(options.timeoutS).plusSeconds(events / rate);
        try (PipelineRun run = PipelineRun.start(bed, jobId(mode, -1), mode,
                Duration.ofMillis(options.checkpointIntervalMs));
                ResultsWatcher results = new ResultsWatcher(bed.bootstrap(), run.topology().resultsTopic(), events,
                        options.keys);
                InputFeeder input = InputFeeder.start(bed.bootstrap(), run.topology().eventsTopic(), events,
                        options.keys, rate)) {
            results.awaitAll(timeout, () -> {
                run.check();
                input.check();
            });
            input.finished();
            long[] nanos = new long[events];
            for (int i = 0; i < events; i++) {
                nanos[i] = results.seenAt(i) - input.producedAt(i);
            }
            int[] checkpoints = run.checkpoints();
            return new Latency(mode, rate, events, Latencies.percentile(nanos, 50) / 1e6,
                    Latencies.percentile(nanos, 99) / 1e6, Latencies.percentile(nanos, 100) / 1e6, checkpoints[0],
                    checkpoints[1]);
        }
    }

    private static String jobId(Mode mode, int repetition) {
        return "bench-" + mode.name().toLowerCase(Locale.ROOT) + "-" + (repetition < 0 ? "latency" : repetition)
                + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
