package dev.cairn.coordinator.app;

import dev.cairn.config.ConfigOptions;
import dev.cairn.config.Release;
import dev.cairn.coordinator.streams.JournalHeadDeletedException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * Runs one coordinator instance until it is stopped (SIGTERM / Ctrl-C). Its settings are the keys of
 * {@link CoordinatorKeys#SCHEMA}, each a flag ({@code --http-port}), an environment variable
 * ({@code CAIRN_HTTP_PORT}) and a key of the {@code --config} file ({@code http.port}), in that order of
 * precedence; {@code docs/configuration.md} lists them. A wrong setting exits with 2 and a message naming the key
 * and where its value came from; topics it refuses to start on ({@link TopicsRefusedException}) and a journal it
 * cannot rebuild its stores from ({@link JournalHeadDeletedException}) exit with {@value #EXIT_REFUSED} and a
 * message naming the topic, what was found and what to change.
 */
@Command(name = "cairn-coordinator", mixinStandardHelpOptions = true, versionProvider = Release.Version.class,
        description = "Runs the Cairn checkpoint coordinator (a Kafka Streams application).")
public final class CoordinatorMain implements Callable<Integer> {

    /** The exit status when the coordinator refuses its topics, or stops on a journal it cannot rebuild from. */
    public static final int EXIT_REFUSED = 1;

    @Option(names = "--rehearse",
            description = "Build everything a start builds (topology, serdes, REST API on a free loopback port, Kafka "
                    + "Streams clients) without connecting to Kafka, then exit: the training run of a "
                    + "class-data-sharing "
                    + "archive, which makes a restart after a crash about a second faster (docs/operations.md, "
                    + "\"Failover\").")
    boolean rehearse;

    private final Map<String, String> environment;
    private ConfigOptions options;

    /** A coordinator reading the process's environment. */
    public CoordinatorMain() {
        this(System.getenv());
    }

    /** A coordinator reading {@code environment} instead of the process's. */
    CoordinatorMain(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, with errors in the configuration reported like errors in flags. */
    public static CommandLine commandLine() {
        return commandLine(new CoordinatorMain());
    }

    /** The command line of {@code main}, its flags generated from {@link CoordinatorKeys#SCHEMA}. */
    static CommandLine commandLine(CoordinatorMain main) {
        CommandLine commandLine = new CommandLine(main);
        main.options = ConfigOptions.addTo(commandLine.getCommandSpec(), CoordinatorKeys.SCHEMA, ScopeType.LOCAL);
        commandLine.setExecutionExceptionHandler((error, cmd, parsed) -> {
            if (error instanceof IllegalArgumentException) {
                cmd.getErr().println("cairn-coordinator: " + error.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            if (error instanceof TopicsRefusedException || error instanceof JournalHeadDeletedException) {
                cmd.getErr().println("cairn-coordinator: " + error.getMessage());
                return EXIT_REFUSED;
            }
            if (error instanceof UncheckedIOException) {
                cmd.getErr().println("cairn-coordinator: " + error.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            }
            throw error;
        });
        return commandLine;
    }

    /** The configuration the flags, the environment and the {@code --config} file describe. */
    CoordinatorConfig config() {
        return CoordinatorKeys.toConfig(options.load(environment));
    }

    /**
     * Runs the coordinator until the process is told to stop (0), or until it stops for good on an error no retry
     * mends ({@link CoordinatorApp#stopped()}), which it closes and throws: the command then exits with
     * {@value #EXIT_REFUSED} and the error's message.
     */
    @Override
    public Integer call() {
        if (rehearse) {
            CoordinatorApp.rehearse(config());
            return 0;
        }
        CoordinatorApp app = CoordinatorApp.start(config());
        CompletableFuture<Void> shutDown = new CompletableFuture<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.close();
            shutDown.complete(null);
        }, "cairn-shutdown"));
        CompletableFuture.anyOf(shutDown, app.stopped()).join();
        RuntimeException stopped = app.stopped().getNow(null);
        if (stopped != null) {
            app.close();
            throw stopped;
        }
        return 0;
    }
}
