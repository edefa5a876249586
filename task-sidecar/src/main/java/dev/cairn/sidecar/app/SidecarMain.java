package dev.cairn.sidecar.app;

import dev.cairn.config.ConfigOptions;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.Release;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The sidecar process: {@code java -jar cairn-task-sidecar.jar --config sidecar.properties}. Reads the
 * configuration ({@link SidecarKeys}: flags, then {@code CAIRN_SIDECAR_*} environment variables, then the
 * {@code --config} file), creates the hook it names, starts a {@link Sidecar} and runs until the process is
 * stopped. A missing or invalid setting exits with status 2 and a message naming it and where it came from; a
 * failed start-up exits with 1.
 */
@Command(name = "cairn-sidecar", mixinStandardHelpOptions = true, versionProvider = Release.Version.class,
        description = "Runs beside a worker: registers its task attempt, consumes the job's checkpoint triggers, "
                + "calls the worker's snapshot hook and publishes acknowledgements or declines.",
        footer = {"", "Every flag is also a key of the --config file (--job-id is job.id) and an environment variable "
                + "(CAIRN_SIDECAR_JOB_ID); flags win over the environment, which wins over the file.",
                "kafka.<setting> keys (CAIRN_SIDECAR_KAFKA_<SETTING>) are passed to the Kafka clients, e.g. "
                        + "kafka.security.protocol.",
                "Reference: docs/configuration.md"})
public final class SidecarMain implements Callable<Integer> {

    static final int CONFIG_ERROR = 2;
    static final int START_FAILED = 1;

    @Spec
    CommandSpec spec;

    private final Map<String, String> environment;
    private final Function<SidecarConfig, Sidecar> starter;
    private ConfigOptions options;
    final ShutdownHandshake handshake = new ShutdownHandshake();

    SidecarMain(Map<String, String> environment, Function<SidecarConfig, Sidecar> starter) {
        this.environment = environment;
        this.starter = starter;
    }

    public static void main(String[] args) {
        SidecarMain main = new SidecarMain(System.getenv(), Sidecar::start);
        Runtime.getRuntime().addShutdownHook(new Thread(main.handshake::stop, "cairn-sidecar-shutdown"));
        System.exit(commandLine(main).execute(args));
    }

    /** The command line around {@code main}. */
    static CommandLine commandLine(SidecarMain main) {
        CommandLine commandLine = new CommandLine(main);
        main.options = ConfigOptions.addTo(commandLine.getCommandSpec(), SidecarKeys.SCHEMA, ScopeType.LOCAL);
        return commandLine;
    }

    /** The configuration this invocation describes. */
    SidecarConfig loadConfig() {
        return SidecarKeys.toConfig(options.load(environment));
    }

    @Override
    public Integer call() throws Exception {
        return handshake.run(this::run);
    }

    private int run() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        SidecarConfig settings;
        Sidecar sidecar;
        try {
            settings = loadConfig();
            sidecar = starter.apply(settings);
        } catch (ConfigProblem e) {
            err.println("Invalid sidecar configuration: " + e.getMessage());
            return CONFIG_ERROR;
        } catch (RuntimeException e) {
            err.println("The sidecar could not start: " + e.getMessage());
            return START_FAILED;
        }
        try (sidecar) {
            while (!handshake.awaitStop(1_000)) {
                if (!sidecar.isRunning()) {
                    err.println("The sidecar stopped consuming control events"
                            + sidecar.stopReason().map(why -> ": " + why).orElse(""));
                    return START_FAILED;
                }
            }
        }
        return 0;
    }
}
