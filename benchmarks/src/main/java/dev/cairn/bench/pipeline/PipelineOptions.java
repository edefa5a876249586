package dev.cairn.bench.pipeline;

import dev.cairn.bench.BenchFlags;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The flags of {@link PipelineBenchmark}, all of the form {@code --name=value}; see its Javadoc. */
@Command(name = "PipelineBenchmark", mixinStandardHelpOptions = true,
        description = "The sample pipeline with exactly-once checkpoints next to the same pipeline without them.")
final class PipelineOptions {

    @Option(names = "--events", defaultValue = "500000", description = "Input events of a throughput run.")
    int events;

    @Option(names = "--keys", defaultValue = "1000", description = "Keys the events are spread over.")
    int keys;

    @Option(names = "--repetitions", defaultValue = "3",
            description = "Throughput runs of each mode, interleaved: on, off, on, off, ...")
    int repetitions;

    @Option(names = "--checkpoint-interval-ms", defaultValue = "1000",
            description = "Checkpoint interval of the runs with checkpoints.")
    long checkpointIntervalMs;

    @Option(names = "--warmup-events", defaultValue = "500000",
            description = "Events of one unreported run of each mode before anything is measured; 0: none.")
    int warmupEvents;

    @Option(names = "--latency-events", defaultValue = "100000",
            description = "Events of each latency run; 0 skips the latency part.")
    int latencyEvents;

    @Option(names = "--rate", defaultValue = "0", description = "Input events/s of the latency runs; 0: half the "
            + "lower of the two throughput medians.")
    int rate;

    @Option(names = "--timeout-s", defaultValue = "300", description = "Longest a run may take.")
    long timeoutS;

    @Option(names = "--out", description = "Output directory (default: benchmarks/target/benchmark, or "
            + "target/benchmark when run inside the benchmarks module).")
    Path out;

    /** The options, or null after printing the usage for {@code --help}; a bad flag throws with a message. */
    static PipelineOptions parse(String... args) {
        PipelineOptions options = new PipelineOptions();
        CommandLine commandLine = BenchFlags.parse(options, args);
        if (commandLine == null) {
            return null;
        }
        if (options.out == null) {
            options.out = BenchFlags.defaultOut();
        }
        require(commandLine, options.events >= 1, "--events must be at least 1, was " + options.events);
        require(commandLine, options.keys >= 1 && options.keys <= options.events,
                "--keys must be between 1 and --events, was " + options.keys);
        require(commandLine, options.repetitions >= 1, "--repetitions must be at least 1, was "
                + options.repetitions);
        require(commandLine, options.checkpointIntervalMs >= 1, "--checkpoint-interval-ms must be at least 1, was "
                + options.checkpointIntervalMs);
        require(commandLine, options.warmupEvents >= 0 && options.latencyEvents >= 0 && options.rate >= 0,
                "--warmup-events, --latency-events and --rate must not be negative");
        require(commandLine, options.timeoutS >= 1, "--timeout-s must be at least 1, was " + options.timeoutS);
        return options;
    }

    private static void require(CommandLine commandLine, boolean condition, String message) {
        if (!condition) {
            throw new CommandLine.ParameterException(commandLine, message);
        }
    }

    /** The flags as given, for the report's header. */
    List<String> describe() {
        return List.of(String.format("%,d events over %,d keys", events, keys),
                repetitions + " repetitions of each mode, interleaved (on, off, ...), medians",
                "checkpoint interval " + checkpointIntervalMs + " ms",
                warmupEvents == 0 ? "no warm-up" : String.format("after one unreported run of %,d events per mode",
                        warmupEvents),
                latencyEvents == 0 ? "no latency runs" : String.format("latency runs of %,d events at %s",
                        latencyEvents, rate == 0 ? "half the lower throughput median" : rate + " events/s"));
    }
}
