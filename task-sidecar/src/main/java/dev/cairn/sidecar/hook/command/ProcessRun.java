package dev.cairn.sidecar.hook.command;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One run of a hook command: stdin closed, stdout and stderr drained concurrently (so a chatty process never
 * blocks), and after the timeout the process and every descendant it started destroyed.
 */
final class ProcessRun {

    /** How much of stdout is read as the result. */
    static final int MAX_STDOUT_BYTES = 1024 * 1024;
    /** How much of stderr is kept for the message. */
    static final int MAX_STDERR_BYTES = 2048;
    /** How many lines of stderr a message quotes. */
    static final int STDERR_LINES = 20;

    /**
     * How a run ended.
     *
     * @param exitCode the process's exit code, -1 when it timed out
     * @param timedOut whether it was destroyed for exceeding the timeout
     * @param stdout the start of its standard output
     * @param stdoutOverflowed whether the standard output exceeded {@link #MAX_STDOUT_BYTES}
     * @param stderrTail the last lines of its standard error
     */
    record Outcome(int exitCode, boolean timedOut, String stdout, boolean stdoutOverflowed, String stderrTail) {}

    private final Process process;
    private final StreamCapture stdout = StreamCapture.head(MAX_STDOUT_BYTES);
    private final StreamCapture stderr = StreamCapture.tail(MAX_STDERR_BYTES);
    private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    /**
     * Set before the timer destroys the process: the exit that destroying causes may complete the outcome before the
     * timer does, and must still say that the run timed out (not that it was killed by a signal).
     */
    private volatile boolean expired;

    private ProcessRun(Process process) {
        this.process = process;
    }

    /**
     * Starts the process.
     *
     * @throws IOException when it cannot be started (no such program, not executable, ...)
     */
    static ProcessRun start(ProcessBuilder builder, Duration timeout, ExecutorService drains,
            ScheduledExecutorService timer) throws IOException {
        ProcessRun run = new ProcessRun(builder.start());
        try {
            run.process.getOutputStream().close();
            CompletableFuture<Void> out = CompletableFuture.runAsync(
                    () -> run.stdout.drain(run.process.getInputStream()), drains);
            CompletableFuture<Void> err = CompletableFuture.runAsync(
                    () -> run.stderr.drain(run.process.getErrorStream()), drains);
            ScheduledFuture<?> expiry = timer.schedule(run::expire, timeout.toMillis(), TimeUnit.MILLISECONDS);
            CompletableFuture.allOf(run.process.onExit(), out, err).whenComplete((done, error) -> {
                expiry.cancel(false);
                if (error != null) {
                    run.outcome.completeExceptionally(error);
                } else {
                    run.outcome.complete(new Outcome(run.process.exitValue(), run.expired, run.stdout.text(),
                            run.stdout.overflowed(), run.stderr.lastLines(STDERR_LINES)));
                }
            });
        } catch (IOException | RuntimeException e) {
            run.destroy();
            throw e;
        }
        return run;
    }

    /** Completes when the process has exited and its output has been read, or when it timed out. */
    CompletableFuture<Outcome> outcome() {
        return outcome;
    }

    /** Destroys the process and its descendants (found first: once the parent is gone they are orphans). */
    void destroy() {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    private void expire() {
        if (outcome.isDone()) {
            return;
        }
        expired = true;
        destroy();
        outcome.complete(new Outcome(-1, true, stdout.text(), stdout.overflowed(), stderr.lastLines(STDERR_LINES)));
    }
}
