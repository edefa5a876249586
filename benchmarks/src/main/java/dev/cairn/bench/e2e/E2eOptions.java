package dev.cairn.bench.e2e;

import dev.cairn.bench.BenchFlags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The flags of {@link EndToEndBenchmark}, all of the form {@code --name=value}; see its Javadoc. */
@Command(name = "EndToEndBenchmark", mixinStandardHelpOptions = true,
        description = "End-to-end benchmark of the Cairn coordinator next to a trivial Kafka Streams app.")
final class E2eOptions {

    @Option(names = "--shapes", split = ",", defaultValue = "1x10000,100x100,1000x10",
            description = "Throughput shapes JOBSxSUBTASKS (default: ${DEFAULT-VALUE}).")
    List<String> shapes;

    @Option(names = "--warmup-checkpoints", defaultValue = "10",
            description = "Unreported rounds of the first shape (and the trivial app) before anything is measured.")
    int warmupCheckpoints;

    @Option(names = "--checkpoints", defaultValue = "24", description = "Checkpoints (rounds) per job and shape.")
    int checkpoints;

    @Option(names = "--steady-after", defaultValue = "12",
            description = "Rounds left out of the rates (history eviction reaches its steady state after 10).")
    int steadyAfter;

    @Option(names = "--location-bytes", defaultValue = "100", description = "Length of a state handle location.")
    int locationBytes;

    @Option(names = "--ack-linger-ms", defaultValue = "5", description = "linger.ms of the ack producer.")
    int ackLingerMs;

    @Option(names = "--commit-interval-ms", defaultValue = "20", description = "The coordinator's commit interval.")
    long commitIntervalMs;

    @Option(names = "--streams-config", split = ";",
            description = "Kafka Streams overrides of every coordinator: k=v;k=v.")
    Map<String, String> streamsConfig = new LinkedHashMap<>();

    @Option(names = "--latency-samples", defaultValue = "200", description = "Measured checkpoints of the latency job.")
    int latencySamples;

    @Option(names = "--latency-warmup", defaultValue = "20", description = "Unmeasured checkpoints before them.")
    int latencyWarmup;

    @Option(names = "--latency-subtasks", defaultValue = "10", description = "Subtasks of the latency job.")
    int latencySubtasks;

    @Option(names = "--size-subtasks", split = ",", defaultValue = "100,10000,100000",
            description = "Subtasks of the record-size jobs (one checkpoint each).")
    List<String> sizeSubtasks;

    @Option(names = "--review-shape", defaultValue = "1x10000", description = "Shape of the settings review.")
    String reviewShape;

    @Option(names = "--review-checkpoints", defaultValue = "24", description = "Rounds per review variant.")
    int reviewCheckpoints;

    @Option(names = "--review-repeats", defaultValue = "2",
            description = "Runs of every review variant, in order, then reversed, ...")
    int reviewRepeats;

    @Option(names = "--review", split = ";", defaultValue = "default;max.task.idle.ms=-1;producer.linger.ms=0;"
            + "producer.linger.ms=20+producer.batch.size=262144;producer.compression.type=lz4;commit.interval.ms=100",
            description = "Settings review variants, ';'-separated; each 'default' or k=v+k=v; 'none' skips it.")
    List<String> review;

    @Option(names = "--unsigned", description = "Produce sidecar records and requests unsigned to coordinators "
            + "without a master key (default: signed with each job's key and the requests key, verified by the "
            + "coordinators).")
    boolean unsigned;

    @Option(names = "--timeout-s", defaultValue = "60", description = "Longest wait for any one event.")
    long timeoutS;

    @Option(names = "--out", description = "Output directory (default: benchmarks/target/benchmark, or "
            + "target/benchmark when run inside the benchmarks module).")
    Path out;

    /** The options, or null after printing the usage for {@code --help}; bad flags throw with a message. */
    static E2eOptions parse(String... args) {
        E2eOptions options = new E2eOptions();
        CommandLine commandLine = BenchFlags.parse(options, args);
        if (commandLine == null) {
            return null;
        }
        if (options.out == null) {
            options.out = BenchFlags.defaultOut();
        }
        if (options.checkpoints < 1 || options.reviewCheckpoints < 1 || options.reviewRepeats < 1
                || options.locationBytes < 1) {
            throw new CommandLine.ParameterException(commandLine, "--checkpoints, --review-checkpoints, "
                    + "--review-repeats and --location-bytes must be positive");
        }
        options.shapesParsed();
        options.sizeSubtasksParsed();
        options.reviewVariants();
        return options;
    }

    /** The record-size jobs' subtask counts; none for an empty flag. */
    List<Integer> sizeSubtasksParsed() {
        return sizeSubtasks.stream().filter(s -> !s.isBlank()).map(s -> Integer.parseInt(s.trim().replace("_", "")))
                .toList();
    }

    List<Shape> shapesParsed() {
        return shapes.stream().filter(s -> !s.isBlank()).map(Shape::parse).toList();
    }

    /** Variant label -> Kafka Streams overrides; empty for {@code none}. */
    Map<String, Map<String, String>> reviewVariants() {
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        for (String variant : review) {
            String label = variant.trim();
            if (label.isEmpty() || label.equals("none")) {
                continue;
            }
            Map<String, String> overrides = new LinkedHashMap<>(streamsConfig);
            if (!label.equals("default")) {
                for (String setting : label.split("\\+")) {
                    String[] kv = setting.split("=", 2);
                    if (kv.length != 2 || kv[0].isBlank()) {
                        throw new IllegalArgumentException("a --review setting is key=value, was '" + setting + "'");
                    }
                    overrides.put(kv[0].trim(), kv[1].trim());
                }
            }
            variants.put(label, overrides);
        }
        return variants;
    }

    /** The flags as given, for the report's header. */
    List<String> describe() {
        List<String> text = new ArrayList<>();
        text.add("checkpoints " + checkpoints + " per job (rates over rounds "
                + (ThroughputRun.steadyState(checkpoints, steadyAfter) + 1) + "-" + checkpoints + ")");
        text.add("after " + warmupCheckpoints + " unreported warm-up rounds of the first shape");
        text.add("commit interval " + commitIntervalMs + " ms");
        text.add("locations " + locationBytes + " B, attempt ids 36 chars");
        text.add("ack producer linger " + ackLingerMs + " ms");
        text.add(unsigned ? "sidecar records unsigned (--unsigned; coordinators without a master key)"
                : "sidecar records signed (HMAC-SHA256 with the job's key, in the producer's serializer; "
                        + "coordinators verify)");
        if (!streamsConfig.isEmpty()) {
            text.add("streams overrides " + streamsConfig);
        }
        return text;
    }
}
