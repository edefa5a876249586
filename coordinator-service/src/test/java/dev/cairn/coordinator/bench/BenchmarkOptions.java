package dev.cairn.coordinator.bench;

import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The flags of {@link CoordinatorBenchmark}, all of the form {@code --name=value}. */
@Command(name = "CoordinatorBenchmark", mixinStandardHelpOptions = true,
        description = "Measures acks/s and completion latency of a real coordinator on an in-JVM broker.")
final class BenchmarkOptions {

    @Option(names = "--tasks", split = ",", defaultValue = "10,1000,10000",
            description = "Tasks per checkpoint of each throughput run (default: ${DEFAULT-VALUE}).")
    List<Integer> tasks;

    @Option(names = "--checkpoints", defaultValue = "5", description = "Measured checkpoints per run.")
    int checkpoints;

    @Option(names = "--warmup", defaultValue = "2", description = "Unmeasured checkpoints before each run.")
    int warmup;

    @Option(names = "--layout", defaultValue = "vertex",
            description = "vertex: one vertex of parallelism N; vertices: N vertices of parallelism 1.")
    String layout;

    @Option(names = "--latency-checkpoints", defaultValue = "200", description = "Checkpoints of the latency run (0: none).")
    int latencyCheckpoints;

    @Option(names = "--latency-tasks", defaultValue = "10", description = "Tasks per checkpoint of the latency run.")
    int latencyTasks;

    @Option(names = "--latency-warmup", defaultValue = "20", description = "Unmeasured checkpoints before the latency run.")
    int latencyWarmup;

    @Option(names = "--linger-ms", defaultValue = "5", description = "linger.ms of the ack producer.")
    int lingerMs;

    @Option(names = "--commit-interval-ms", defaultValue = "20", description = "The coordinator's commit interval.")
    long commitIntervalMs;

    @Option(names = "--fetch-max-wait-ms", defaultValue = "10", description = "fetch.max.wait.ms of the readers.")
    int fetchMaxWaitMs;

    @Option(names = "--timeout-s", defaultValue = "120", description = "How long to wait for any one event.")
    long timeoutS;

    @Option(names = "--breakdown", defaultValue = "true", arity = "1",
            description = "Split each checkpoint's time by the journal's record timestamps.")
    boolean breakdown;

    @Option(names = "--streams-config", split = ";", description = "Extra Kafka Streams settings: k=v;k=v.")
    Map<String, String> streamsConfig = Map.of();

    /** The options, or null after printing the usage for {@code --help}; bad flags throw with a message. */
    static BenchmarkOptions parse(String[] args) {
        BenchmarkOptions options = new BenchmarkOptions();
        CommandLine commandLine = new CommandLine(options);
        commandLine.parseArgs(args);
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(System.out);
            return null;
        }
        if (!options.layout.equals("vertex") && !options.layout.equals("vertices")) {
            throw new CommandLine.ParameterException(commandLine, "--layout must be vertex or vertices, was " + options.layout);
        }
        return options;
    }
}
