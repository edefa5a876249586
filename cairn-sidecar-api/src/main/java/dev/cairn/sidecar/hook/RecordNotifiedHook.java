package dev.cairn.sidecar.hook;

import java.io.IOException;

/** A hook out of the process (HTTP, command): it takes only the notification records; the numbers become one. */
public abstract class RecordNotifiedHook implements SnapshotHook {

    @Override
    public final void notifyComplete(long checkpointId, long lastSubsumedId)
            throws IOException, InterruptedException {
        notifyComplete(CheckpointCompletion.of(checkpointId, lastSubsumedId));
    }

    @Override
    public final void notifyAborted(long checkpointId, long latestCompletedId)
            throws IOException, InterruptedException {
        notifyAborted(CheckpointAbort.of(checkpointId, latestCompletedId));
    }

    @Override
    public abstract void notifyComplete(CheckpointCompletion completion) throws IOException, InterruptedException;

    @Override
    public abstract void notifyAborted(CheckpointAbort abort) throws IOException, InterruptedException;
}
