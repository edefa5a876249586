package dev.cairn.demo.acls;

import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** A worker that snapshots at once ({@value #SIZE_BYTES} bytes at the checkpoint's location) and notes completions. */
final class AckingHook implements SnapshotHook {

    /** The size every snapshot reports. */
    static final long SIZE_BYTES = 100;

    private final List<Long> completed = new CopyOnWriteArrayList<>();

    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        return CompletableFuture.completedFuture(SnapshotResult.of(request.storageLocation() + "/" + request.taskId()
                + "-" + request.subtaskIndex(), SIZE_BYTES));
    }

    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) {
        completed.add(checkpointId);
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) {
        // nothing to roll back
    }

    @Override
    public void restore(Optional<RestorePoint> from) {
        // a fresh start: nothing to restore
    }

    @Override
    public void close() {
        // holds nothing
    }

    /** The checkpoints the sidecar said completed, in order. */
    List<Long> completed() {
        return completed;
    }
}
