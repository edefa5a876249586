package dev.cairn.sidecar.kafka;

import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** A worker that only records what it was asked to restore from. */
final class RecordingRestoreHook implements SnapshotHook {
    final List<Optional<RestorePoint>> restores = new CopyOnWriteArrayList<>();

    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        throw new UnsupportedOperationException("not in these tests");
    }

    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) {
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) {
    }

    @Override
    public void restore(Optional<RestorePoint> from) {
        restores.add(from);
    }
}
