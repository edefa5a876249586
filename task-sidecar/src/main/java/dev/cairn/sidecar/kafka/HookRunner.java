package dev.cairn.sidecar.kafka;

import dev.cairn.metrics.logging.JobLogContext;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the worker's hook on the sidecar's behalf: snapshots on a dedicated thread (one at a time), with a
 * timer for the sidecar's snapshot timeout, and notifications and discards on another thread, in order, so that
 * a slow snapshot never holds them up. Each snapshot's outcome is reported exactly once to {@link Outcomes}, from
 * a thread of this runner or the one completing the hook's stage, never from inside a call to this runner.
 */
final class HookRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HookRunner.class);

    /** Where snapshot outcomes go. */
    interface Outcomes {
        void succeeded(long checkpointId, SnapshotResult result);

        void failed(long checkpointId, Throwable error);

        void timedOut(long checkpointId);
    }

    /** One snapshot call: started by the snapshot thread or claimed by a cancel, finished once. */
    private static final class Run {
        final long checkpointId;
        final AtomicBoolean started = new AtomicBoolean();
        final AtomicBoolean finished = new AtomicBoolean();
        volatile Future<?> call;
        volatile ScheduledFuture<?> timeout;
        volatile CompletionStage<SnapshotResult> stage;

        Run(long checkpointId) {
            this.checkpointId = checkpointId;
        }
    }

    private final SnapshotHook hook;
    private final Outcomes outcomes;
    private final ExecutorService snapshots;
    private final ExecutorService notifications;
    private final ScheduledExecutorService timer;
    private volatile Run current;

    /** Its threads log for {@code jobId} (the job in every line's logging context). */
    HookRunner(SnapshotHook hook, String name, String jobId, Outcomes outcomes) {
        this.hook = hook;
        this.outcomes = outcomes;
        this.snapshots = Executors.newSingleThreadExecutor(threads("cairn-snapshot-" + name, jobId));
        this.notifications = Executors.newSingleThreadExecutor(threads("cairn-notify-" + name, jobId));
        this.timer = Executors.newSingleThreadScheduledExecutor(threads("cairn-sidecar-timer-" + name, jobId));
    }

    /** Starts the hook's snapshot on the snapshot thread; reports a time-out after {@code timeout}. */
    void snapshot(SnapshotRequest request, Duration timeout) {
        Run run = new Run(request.checkpointId());
        current = run;
        run.timeout = timer.schedule(() -> {
            if (!run.finished.get()) {
                outcomes.timedOut(run.checkpointId);
            }
        }, Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
        run.call = snapshots.submit(() -> invoke(run, request));
    }

    private void invoke(Run run, SnapshotRequest request) {
        if (!run.started.compareAndSet(false, true)) {
            return;
        }
        CompletionStage<SnapshotResult> stage;
        try {
            stage = hook.snapshot(request);
        } catch (Throwable e) {
            finish(run, null, e);
            return;
        }
        if (stage == null) {
            finish(run, null, new IllegalStateException("the snapshot hook returned no CompletionStage"));
            return;
        }
        run.stage = stage;
        if (run.finished.get()) {
            cancelQuietly(stage, run.checkpointId);
            return;
        }
        stage.whenComplete((result, error) -> finish(run, result, error));
    }

    private static void cancelQuietly(CompletionStage<SnapshotResult> stage, long checkpointId) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            LOG.debug("The snapshot stage of checkpoint {} cannot be cancelled", checkpointId);
        }
    }

    /**
     * Cancels the running snapshot of {@code checkpointId}: interrupts the hook's call if it is still inside it
     * and cancels its stage. One that has not started yet never starts and is reported cancelled.
     */
    void cancel(long checkpointId) {
        Run run = current;
        if (run == null || run.checkpointId != checkpointId || run.finished.get()) {
            return;
        }
        if (run.started.compareAndSet(false, true)) {
            run.call.cancel(false);
            timer.execute(() -> finish(run, null, new CancellationException("cancelled before it started")));
            return;
        }
        run.call.cancel(true);
        CompletionStage<SnapshotResult> stage = run.stage;
        if (stage != null) {
            cancelQuietly(stage, checkpointId);
        }
    }

    private void finish(Run run, SnapshotResult result, Throwable error) {
        if (!run.finished.compareAndSet(false, true)) {
            return;
        }
        ScheduledFuture<?> timeout = run.timeout;
        if (timeout != null) {
            timeout.cancel(false);
        }
        if (error != null) {
            outcomes.failed(run.checkpointId, error);
        } else {
            outcomes.succeeded(run.checkpointId, result);
        }
    }

    void notifyComplete(CheckpointCompletion completion) {
        notifications.execute(() -> {
            try {
                hook.notifyComplete(completion);
            } catch (Exception e) {
                LOG.warn("The worker's notifyComplete({}) failed", completion, e);
            }
        });
    }

    void notifyAborted(CheckpointAbort abort) {
        notifications.execute(() -> {
            try {
                hook.notifyAborted(abort);
            } catch (Exception e) {
                LOG.warn("The worker's notifyAborted({}) failed", abort, e);
            }
        });
    }

    /** Hands a discarded state to the worker, on the notification thread. */
    void discardState(DiscardedState state) {
        notifications.execute(() -> {
            try {
                hook.discardState(state);
            } catch (Exception e) {
                LOG.warn("The worker's discardState({}) failed", state, e);
            }
        });
    }

    /**
     * Stops: notifications already handed over are still delivered (for up to {@code grace}), a running snapshot
     * is interrupted and cancelled, and its outcome no longer reported.
     */
    void close(Duration grace) {
        Run run = current;
        if (run != null && run.finished.compareAndSet(false, true)) {
            CompletionStage<SnapshotResult> stage = run.stage;
            if (stage != null) {
                cancelQuietly(stage, run.checkpointId);
            }
        }
        timer.shutdownNow();
        snapshots.shutdownNow();
        notifications.shutdown();
        try {
            if (!notifications.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                notifications.shutdownNow();
            }
        } catch (InterruptedException e) {
            notifications.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    private static ThreadFactory threads(String name, String jobId) {
        return runnable -> {
            Thread thread = new Thread(() -> {
                JobLogContext.forThread(jobId);
                runnable.run();
            }, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
