package dev.cairn.sidecar.app;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a process's command and its shutdown hook meet: the command runs in {@link #run} and, once it holds what it
 * must close, waits between its checks with {@link #awaitStop}; the hook calls {@link #stop}, which then waits (up to
 * 30 s) until the command has closed it. A command stopped before its first wait has nothing to close: stop returns.
 */
public final class ShutdownHandshake {

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean serving;

    /** Runs {@code command} and answers its exit status; a waiting {@link #stop} returns then. */
    public int run(Callable<Integer> command) throws Exception {
        try {
            return command.call();
        } finally {
            stopped.countDown();
        }
    }

    /** Waits up to {@code millis} for {@link #stop}; answers whether it was called. Stop now waits for the run. */
    public boolean awaitStop(long millis) throws InterruptedException {
        serving = true;
        return stop.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Asks the command to end and waits (up to 30 s) until it has, unless it never waited for a stop yet. */
    public void stop() {
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
