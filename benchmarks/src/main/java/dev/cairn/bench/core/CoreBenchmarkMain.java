package dev.cairn.bench.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link CoreBenchmarks} for Cairn's core and Flink's CheckpointCoordinator (acks with and without a state
 * handle) at every N, writes the Markdown table of {@link CoreReport} to the output file (default
 * {@code target/benchmark/core.md}) and prints it. Flags: see {@link CoreRunSettings}. A benchmark that fails
 * (for example one whose measured call built a message) fails the run: {@code main} throws, the JVM exits 1.
 *
 * <p>The full comparison (about 12 to 15 minutes on 2 busy cores), from the repository root, building the sibling
 * modules from this working tree and installing nothing:
 *
 * <pre>
 *   mvn -B -q -pl benchmarks -am process-classes -Pcore-benchmark
 * </pre>
 *
 * Flags go in {@code -Dbench.args="..."}, e.g. {@code -Dbench.args="--prof-gc --subtasks 10,1000"}. The
 * execution {@code exec:exec@core} alone ({@code mvn -B -q -pl benchmarks exec:exec@core}) runs the same
 * main class but against the sibling modules installed in the local Maven repository. JMH forks inherit the
 * classpath that {@code exec:exec} passes with {@code -classpath %classpath}.
 */
public final class CoreBenchmarkMain {

    private CoreBenchmarkMain() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        System.out.println(run(CoreRunSettings.parse(args)));
    }

    /** Runs the benchmarks as {@code settings} say, writes the table to {@code settings.out()} and returns it. */
    public static String run(CoreRunSettings settings) throws RunnerException, IOException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(CoreBenchmarks.class.getName() + "\\.")
                .param("subtasks", settings.subtasks().stream().map(String::valueOf).toArray(String[]::new))
                .param("impl", CoreDrivers.IMPLEMENTATIONS.toArray(String[]::new))
                .param("warmAcks", String.valueOf(settings.warmAcks()))
                .forks(settings.forks())
                .warmupIterations(settings.warmups())
                .warmupTime(TimeValue.milliseconds(settings.warmupMs()))
                .measurementIterations(settings.iterations())
                .measurementTime(TimeValue.milliseconds(settings.iterationMs()))
                .jvmArgsAppend("-Xms2g", "-Xmx2g", "-Xbatch")
                .shouldFailOnError(true);
        if (settings.gcProfiler()) {
            options.addProfiler(GCProfiler.class);
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        String table = "# Core benchmark: Cairn's decider vs Flink's CheckpointCoordinator\n\n"
                + describe(settings) + "\n\n"
                + CoreReport.markdown(results, settings.subtasks());
        Path out = settings.out();
        if (out.toAbsolutePath().getParent() != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
        }
        Files.writeString(out, table);
        return table;
    }

    private static String describe(CoreRunSettings s) {
        return "JMH " + s.forks() + " fork(s), " + s.warmups() + " warm-up iteration(s) of " + s.warmupMs()
                + " ms, " + s.iterations() + " iteration(s) of " + s.iterationMs() + " ms; Java "
                + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors()
                + " cores; forks run with -Xbatch (a hot method waits for its compilation, so the JIT is done when "
                + "the warm-up ends even on a busy machine); every coordinator in the calling thread; at least "
                + CoreBenchmarks.WARM_CYCLES + " full checkpoints and " + s.warmAcks() + " acks before JMH's warm-up.";
    }
}
