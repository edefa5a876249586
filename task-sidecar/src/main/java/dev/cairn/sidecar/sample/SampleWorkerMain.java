package dev.cairn.sidecar.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Runs the sample {@link CounterWorker} behind the HTTP hook protocol ({@link HookServer}) until it is
 * stopped: what a sidecar configured with an HTTP hook talks to, and what the compose file runs beside each
 * sidecar. Every flag also reads an environment variable (shown in {@code --help}). Invalid flags exit with
 * status 2 and a message naming the flag.
 */
@Command(name = "cairn-sample-worker", mixinStandardHelpOptions = true,
        description = "Serves a sample counter worker over Cairn's HTTP hook protocol "
                + "(POST /snapshot, /notify, /restore, /discard).")
public final class SampleWorkerMain implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "${env:CAIRN_WORKER_PORT:-8090}",
            description = "Port to listen on, 0 for a free one (env CAIRN_WORKER_PORT, default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind-address", defaultValue = "${env:CAIRN_WORKER_BIND_ADDRESS:-127.0.0.1}",
            description = "Address to listen on; loopback by default, as the sidecar runs beside the worker "
                    + "(env CAIRN_WORKER_BIND_ADDRESS, default ${DEFAULT-VALUE}).")
    String bindAddress;

    @Option(names = "--state-dir", defaultValue = "${env:CAIRN_WORKER_STATE_DIR:-/tmp/cairn-worker}",
            description = "Where the snapshot files go (env CAIRN_WORKER_STATE_DIR, default ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--slow-ms", defaultValue = "${env:CAIRN_WORKER_SLOW_MS:-0}",
            description = "Delay before a snapshot completes, in ms "
                    + "(env CAIRN_WORKER_SLOW_MS, default ${DEFAULT-VALUE}).")
    long slowMs;

    @Option(names = "--decline-every", defaultValue = "${env:CAIRN_WORKER_DECLINE_EVERY:-0}",
            description = "Decline the checkpoints whose id is a multiple of N; 0 never declines "
                    + "(env CAIRN_WORKER_DECLINE_EVERY, default ${DEFAULT-VALUE}).")
    int declineEvery;

    @Option(names = "--finish-after", defaultValue = "${env:CAIRN_WORKER_FINISH_AFTER:-0}",
            description = "Bounded input: finish when the counter reaches N (one record per checkpoint), answering "
                    + "that snapshot with the final state; 0 never finishes "
                    + "(env CAIRN_WORKER_FINISH_AFTER, default ${DEFAULT-VALUE}).")
    long finishAfter;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line; a port that cannot be bound is reported without a stack trace. */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new SampleWorkerMain());
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
        try (HookServer server = start()) {
            spec.commandLine().getOut().printf("cairn-sample-worker listening on %s (state in %s, slow %d ms, %s, %s)%n",
                    server.baseUrl(), stateDir.toAbsolutePath(), slowMs,
                    declineEvery == 0 ? "never declines" : "declines every checkpoint id divisible by " + declineEvery,
                    finishAfter == 0 ? "unbounded input" : "finishes after " + finishAfter + " records");
            spec.commandLine().getOut().flush();
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "cairn-sample-worker-shutdown"));
            stopped.await();
        }
        return CommandLine.ExitCode.OK;
    }

    /**
     * Checks the flags and starts serving.
     *
     * @throws ParameterException when a flag's value is out of range
     * @throws UncheckedIOException when the address cannot be bound
     */
    HookServer start() {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, was " + port);
        }
        if (slowMs < 0) {
            throw new ParameterException(spec.commandLine(), "--slow-ms must not be negative, was " + slowMs);
        }
        if (declineEvery < 0) {
            throw new ParameterException(spec.commandLine(),
                    "--decline-every must be 0 (never) or positive, was " + declineEvery);
        }
        if (finishAfter < 0) {
            throw new ParameterException(spec.commandLine(),
                    "--finish-after must be 0 (never) or positive, was " + finishAfter);
        }
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new ParameterException(spec.commandLine(), "--bind-address must not be empty");
        }
        InetSocketAddress address = new InetSocketAddress(bindAddress, port);
        if (address.isUnresolved()) {
            throw new ParameterException(spec.commandLine(), "--bind-address: unknown host " + bindAddress);
        }
        CounterWorker worker = new CounterWorker(stateDir, Duration.ofMillis(slowMs), declineEvery, finishAfter);
        try {
            return HookServer.start(worker, address);
        } catch (IOException e) {
            worker.close();
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
        }
    }
}
