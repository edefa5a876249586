package dev.cairn.sidecar.app;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The sidecar process: {@code java -jar cairn-task-sidecar.jar --config sidecar.properties}. Reads the
 * configuration (the file, if given, then {@code CAIRN_SIDECAR_*} environment overrides), creates the hook it
 * names, starts a {@link Sidecar} and runs until the process is stopped. A missing or invalid setting exits
 * with status 2 and a message naming it; a failed start-up exits with 1.
 */
@Command(name = "cairn-sidecar", mixinStandardHelpOptions = true, version = "Cairn task sidecar 0.1.0",
        description = "Runs beside a worker: registers its task attempt, consumes the job's checkpoint triggers, "
                + "calls the worker's snapshot hook and publishes acknowledgements or declines.",
        footer = {"", "Settings (file keys; each is overridden by CAIRN_SIDECAR_<KEY>, upper case, dots as underscores):",
                "  bootstrap.servers, job.id, task.id, subtask.index   required",
                "  participant           run as this coordinator-side participant of the job, instead of task.id",
                "                        and subtask.index",
                "  topic.prefix          Cairn's topic prefix (cairn.)",
                "  hook.kind             java | http | command (java)",
                "  hook.class            java: a SnapshotHook with a no-arg constructor (else ServiceLoader)",
                "  hook.url              http: the worker's base URL (POST /snapshot, /notify, /restore)",
                "  hook.command          command: the program and its arguments",
                "  hook.timeout.ms       limit of one HTTP call or command run (the snapshot timeout)",
                "  snapshot.timeout.ms   a slower snapshot is declined (600000)",
                "  startup.timeout.ms    limit for finding the topics, restoring and registering (120000)",
                "  metrics.port          serve GET /metrics on this port (0: any free port; unset: no metrics)",
                "  metrics.bind.address  the address metrics.port binds (127.0.0.1)",
                "  kafka.<setting>       passed to the Kafka clients, e.g. kafka.security.protocol"})
public final class SidecarMain implements Callable<Integer> {

    static final int CONFIG_ERROR = 2;
    static final int START_FAILED = 1;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
            description = "A properties file with the settings below; without it, only the environment is read.")
    Path config;

    private final Map<String, String> environment;
    private final Function<SidecarConfig, Sidecar> starter;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean serving;

    SidecarMain(Map<String, String> environment, Function<SidecarConfig, Sidecar> starter) {
        this.environment = environment;
        this.starter = starter;
    }

    public static void main(String[] args) {
        SidecarMain main = new SidecarMain(System.getenv(), Sidecar::start);
        Runtime.getRuntime().addShutdownHook(new Thread(main::stop, "cairn-sidecar-shutdown"));
        System.exit(commandLine(main).execute(args));
    }

    /** The command line around {@code main}. */
    static CommandLine commandLine(SidecarMain main) {
        return new CommandLine(main);
    }

    /** The configuration this invocation describes. */
    SidecarConfig loadConfig() {
        return config != null ? SidecarConfig.load(config, environment)
                : SidecarConfig.fromProperties(Map.of(), environment);
    }

    @Override
    public Integer call() throws InterruptedException {
        try {
            return run();
        } finally {
            stopped.countDown();
        }
    }

    private int run() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        SidecarConfig settings;
        Sidecar sidecar;
        try {
            settings = loadConfig();
            sidecar = starter.apply(settings);
        } catch (SidecarConfigException e) {
            err.println("Invalid sidecar configuration: " + e.getMessage());
            return CONFIG_ERROR;
        } catch (RuntimeException e) {
            err.println("The sidecar could not start: " + e.getMessage());
            return START_FAILED;
        }
        serving = true;
        try (sidecar) {
            while (!stop.await(1, TimeUnit.SECONDS)) {
                if (!sidecar.isRunning()) {
                    err.println("The sidecar stopped consuming control events");
                    return START_FAILED;
                }
            }
        }
        return 0;
    }

    /** Ends {@link #call()} and waits (up to 30 s) until it has closed the sidecar. */
    void stop() {
        stop.countDown();
        if (!serving) {
            return;
        }
        try {
            stopped.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
