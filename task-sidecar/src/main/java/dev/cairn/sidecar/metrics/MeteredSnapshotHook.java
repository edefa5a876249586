package dev.cairn.sidecar.metrics;

import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A {@link SnapshotHook} that passes every call to the worker's hook, unchanged, and tells {@link SidecarMetrics}
 * how long it took and how it ended. A snapshot is timed until its stage completes.
 */
final class MeteredSnapshotHook implements SnapshotHook {

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    private final SnapshotHook hook;
    private final SidecarMetrics metrics;

    MeteredSnapshotHook(SnapshotHook hook, SidecarMetrics metrics) {
        this.hook = hook;
        this.metrics = metrics;
    }

    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) throws Exception {
        long start = System.nanoTime();
        CompletionStage<SnapshotResult> stage;
        try {
            stage = hook.snapshot(request);
        } catch (Exception | Error e) {
            metrics.snapshotEnded(outcome(null, e), System.nanoTime() - start);
            throw e;
        }
        if (stage != null) {
            stage.whenComplete((result, error) -> metrics.snapshotEnded(outcome(result, error),
                    System.nanoTime() - start));
        }
        return stage;
    }

    static String outcome(SnapshotResult result, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause == null) {
            return result != null && result.finished() ? "finished" : "taken";
        }
        if (cause instanceof SnapshotDeclinedException) {
            return "declined";
        }
        return cause instanceof CancellationException || cause instanceof InterruptedException ? "cancelled" : "failed";
    }

    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) throws Exception {
        notified("complete", "notify_complete", () -> hook.notifyComplete(checkpointId, lastSubsumedId));
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) throws Exception {
        notified("aborted", "notify_aborted", () -> hook.notifyAborted(checkpointId, latestCompletedId));
    }

    @Override
    public void notifyComplete(CheckpointCompletion completion) throws Exception {
        notified("complete", "notify_complete", () -> hook.notifyComplete(completion));
    }

    @Override
    public void notifyAborted(CheckpointAbort abort) throws Exception {
        notified("aborted", "notify_aborted", () -> hook.notifyAborted(abort));
    }

    @Override
    public void discardState(DiscardedState state) throws Exception {
        metrics.discarded(state);
        notified("discard_state", "discard_state", () -> hook.discardState(state));
    }

    @Override
    public void restore(Optional<RestorePoint> from) throws Exception {
        restored(from, () -> hook.restore(from));
    }

    @Override
    public void restore(Optional<RestorePoint> from, AttemptNumber attempt) throws Exception {
        restored(from, () -> hook.restore(from, attempt));
    }

    private void restored(Optional<RestorePoint> from, Call restore) throws Exception {
        long start = System.nanoTime();
        boolean ok = false;
        try {
            restore.run();
            ok = true;
        } finally {
            metrics.restored(from.isPresent(), ok, System.nanoTime() - start);
        }
    }

    private void notified(String kind, String call, Call notification) throws Exception {
        long start = System.nanoTime();
        boolean ok = false;
        try {
            notification.run();
            ok = true;
        } finally {
            metrics.notified(kind, call, ok, System.nanoTime() - start);
        }
    }

    @Override
    public void close() throws Exception {
        hook.close();
    }
}
