package dev.cairn.bench.core;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * How {@link CoreBenchmarkMain} runs JMH, from its command-line flags.
 *
 * <pre>
 *   --quick             forks 0 (in this JVM), no warm-up, 1 iteration of 100 ms: a smoke run, not a measurement
 *   --full              the default: 1 fork, 500,000 acks in full cycles, 3 warm-up iterations of 1 s,
 *                       5 iterations of 1 s
 *   --forks K, --warmups K, --iterations K, --warmup-ms MS, --iteration-ms MS   override the preset
 *   --warm-acks K       acks run in full cycles before JMH's warm-up (default 500,000; 0 in --quick)
 *   --subtasks 10,1000  the values of N (default 10,1000,10000)
 *   --prof-gc           adds JMH's GC profiler (GC counts and times in JMH's output; the table's bytes per
 *                       operation are measured without it, around the measured call only)
 *   --out FILE          where the Markdown table goes (default target/benchmark/core.md)
 * </pre>
 *
 * @param forks JMH forks per benchmark and parameter set; 0 runs in this JVM
 * @param warmups warm-up iterations
 * @param warmupMs length of a warm-up iteration
 * @param iterations measured iterations
 * @param iterationMs length of a measured iteration
 * @param warmAcks acks run in full cycles before JMH's warm-up, so that the JIT is done before it
 * @param subtasks the values of N
 * @param gcProfiler whether to add JMH's GC profiler
 * @param out the Markdown file to write
 */
public record CoreRunSettings(int forks, int warmups, long warmupMs, int iterations, long iterationMs,
        int warmAcks, List<Integer> subtasks, boolean gcProfiler, Path out) {

    /** N of the full comparison. */
    public static final List<Integer> ALL_SUBTASKS = List.of(10, 1_000, 10_000);

    private static final Path DEFAULT_OUT = Path.of("target/benchmark/core.md");

    public CoreRunSettings {
        if (forks < 0 || warmups < 0 || iterations < 1 || warmupMs < 1 || iterationMs < 1 || warmAcks < 0) {
            throw new IllegalArgumentException(
                    "forks, warm-ups and warm acks must be at least 0, iterations and times at least 1");
        }
        if (subtasks.isEmpty() || subtasks.stream().anyMatch(n -> n < 2)) {
            throw new IllegalArgumentException("every N must be at least 2 (a non-final ack needs one): " + subtasks);
        }
        subtasks = List.copyOf(subtasks);
    }

    /** The full comparison preset. */
    public static CoreRunSettings full() {
        return new CoreRunSettings(1, 3, 1_000, 5, 1_000, 500_000, ALL_SUBTASKS, false, DEFAULT_OUT);
    }

    /** The smoke preset: in this JVM, one short iteration, no warm-up. */
    public static CoreRunSettings quick() {
        return new CoreRunSettings(0, 0, 1, 1, 100, 0, ALL_SUBTASKS, false, DEFAULT_OUT);
    }

    /** The settings the flags ask for; see the class comment. */
    public static CoreRunSettings parse(String... args) {
        List<String> flags = Arrays.stream(args).filter(arg -> !arg.isBlank()).toList();
        CoreRunSettings preset = flags.contains("--quick") ? quick() : full();
        int forks = preset.forks;
        int warmups = preset.warmups;
        long warmupMs = preset.warmupMs;
        int iterations = preset.iterations;
        long iterationMs = preset.iterationMs;
        int warmAcks = preset.warmAcks;
        List<Integer> subtasks = preset.subtasks;
        boolean gcProfiler = preset.gcProfiler;
        Path out = preset.out;
        for (int i = 0; i < flags.size(); i++) {
            String flag = flags.get(i);
            if (flag.equals("--quick") || flag.equals("--full")) {
                continue;
            }
            if (flag.equals("--prof-gc")) {
                gcProfiler = true;
                continue;
            }
            if (i + 1 >= flags.size()) {
                throw new IllegalArgumentException("unknown flag or missing value: " + flag);
            }
            String value = flags.get(++i);
            switch (flag) {
                case "--forks" -> forks = Integer.parseInt(value);
                case "--warmups" -> warmups = Integer.parseInt(value);
                case "--warmup-ms" -> warmupMs = Long.parseLong(value);
                case "--iterations" -> iterations = Integer.parseInt(value);
                case "--iteration-ms" -> iterationMs = Long.parseLong(value);
                case "--warm-acks" -> warmAcks = Integer.parseInt(value);
                case "--subtasks" -> subtasks = Arrays.stream(value.split(",")).map(String::trim)
                        .map(Integer::valueOf).toList();
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown flag " + flag);
            }
        }
        return new CoreRunSettings(forks, warmups, warmupMs, iterations, iterationMs, warmAcks, subtasks, gcProfiler,
                out);
    }
}
