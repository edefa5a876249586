package dev.cairn.sample.worker;

import dev.cairn.config.ConfigOptions;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.LayeredConfig;
import dev.cairn.config.Release;
import dev.cairn.kit.storage.S3Settings;
import dev.cairn.kit.storage.SnapshotStorages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * Runs the sample {@link CounterWorker} behind the HTTP hook protocol ({@link HookServer}) until it is
 * stopped: what a sidecar configured with an HTTP hook talks to, and what the compose file runs beside each
 * sidecar. Its keys are {@link SampleWorkerKeys}: each is a flag, an environment variable (shown in
 * {@code --help}) and a key of the {@code --config} file; S3 is reached as {@code CAIRN_S3_*} and the AWS SDK's own
 * variables say ({@link S3Settings#fromEnvironment}). An invalid value exits with status 2 and a message naming the
 * key or variable and what is wrong.
 */
@Command(name = "cairn-sample-worker", mixinStandardHelpOptions = true, versionProvider = Release.Version.class,
        description = "Serves a sample counter worker over Cairn's HTTP hook protocol "
                + "(POST /snapshot, /notify, /restore, /discard).")
public final class SampleWorkerMain implements Callable<Integer> {

    static final int CONFIG_ERROR = 2;

    @Spec
    CommandSpec spec;

    private final Map<String, String> environment;
    private ConfigOptions options;

    private SampleWorkerMain(Map<String, String> environment) {
        this.environment = environment;
    }

    public static void main(String[] args) {
        System.exit(commandLine(System.getenv()).execute(args));
    }

    /** The command line, reading {@code environment}; a port that cannot be bound is reported without a stack trace. */
    static CommandLine commandLine(Map<String, String> environment) {
        SampleWorkerMain main = new SampleWorkerMain(environment);
        CommandLine commandLine = new CommandLine(main);
        main.options = ConfigOptions.addTo(commandLine.getCommandSpec(), SampleWorkerKeys.SCHEMA, ScopeType.LOCAL);
        commandLine.setExecutionExceptionHandler((error, cmd, parsed) -> {
            if (error instanceof UncheckedIOException) {
                cmd.getErr().println("cairn-sample-worker: " + error.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            }
            throw error;
        });
        return commandLine;
    }

    @Override
    public Integer call() throws Exception {
        LayeredConfig config;
        HookServer started;
        try {
            config = config();
            started = start(config, environment);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("Invalid cairn-sample-worker configuration: " + e.getMessage());
            return CONFIG_ERROR;
        }
        try (HookServer server = started) {
            int declineEvery = config.getInt(SampleWorkerKeys.DECLINE_EVERY);
            long finishAfter = config.getLong(SampleWorkerKeys.FINISH_AFTER);
            spec.commandLine().getOut().printf(
                    "cairn-sample-worker listening on %s (state at each checkpoint's storage location, S3 %s, "
                            + "slow %d ms, %s, %s)%n",
                    server.baseUrl(), s3Settings(environment), config.getLong(SampleWorkerKeys.SLOW_MS),
                    declineEvery == 0 ? "never declines" : "declines every checkpoint id divisible by " + declineEvery,
                    finishAfter == 0 ? "unbounded input" : "finishes after " + finishAfter + " records");
            spec.commandLine().getOut().flush();
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "cairn-sample-worker-shutdown"));
            stopped.await();
        }
        return CommandLine.ExitCode.OK;
    }

    /** The configuration this invocation describes: its flags, the environment and the {@code --config} file. */
    LayeredConfig config() {
        return options.load(environment);
    }

    /**
     * Starts serving the worker {@code config} describes, keeping its states in local files and in S3 as
     * {@code environment} says ({@link S3Settings#fromEnvironment}).
     *
     * @throws ConfigProblem when the bind address does not resolve
     * @throws IllegalArgumentException when an S3 setting of the environment is malformed (it names the variable)
     * @throws UncheckedIOException when the address cannot be bound
     */
    static HookServer start(LayeredConfig config, Map<String, String> environment) {
        String bindAddress = config.getString(SampleWorkerKeys.BIND_ADDRESS);
        int port = config.getInt(SampleWorkerKeys.PORT);
        InetSocketAddress address = new InetSocketAddress(bindAddress, port);
        if (address.isUnresolved()) {
            throw config.problem(SampleWorkerKeys.BIND_ADDRESS, "unknown host " + bindAddress);
        }
        CounterWorker worker = new CounterWorker(SnapshotStorages.of(s3Settings(environment)),
                Duration.ofMillis(config.getLong(SampleWorkerKeys.SLOW_MS)),
                config.getInt(SampleWorkerKeys.DECLINE_EVERY), config.getLong(SampleWorkerKeys.FINISH_AFTER));
        try {
            return HookServer.start(worker, address);
        } catch (IOException e) {
            worker.close();
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
        }
    }

    private static S3Settings s3Settings(Map<String, String> environment) {
        return S3Settings.fromEnvironment(environment);
    }
}
