package dev.cairn.bench.core;

import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.util.concurrent.NeverCompleteFuture;
import org.apache.flink.util.concurrent.ScheduledExecutor;

/**
 * Flink's timer and main-thread executor for the benchmark: {@link #execute} runs the task at once in the
 * calling thread, so that every step of a trigger or a completion happens inside the measured call. Delayed
 * tasks (the checkpoint timeout, due after a year here) are dropped: their futures never complete and are
 * not kept, so that they do not pile up over millions of checkpoints.
 */
final class DirectScheduledExecutor implements ScheduledExecutor {

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return new NeverCompleteFuture(unit.toMillis(delay));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return (ScheduledFuture<V>) (ScheduledFuture<?>) new NeverCompleteFuture(unit.toMillis(delay));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return new NeverCompleteFuture(unit.toMillis(initialDelay));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
            TimeUnit unit) {
        return new NeverCompleteFuture(unit.toMillis(initialDelay));
    }
}
