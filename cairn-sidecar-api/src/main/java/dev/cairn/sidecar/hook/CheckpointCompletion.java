package dev.cairn.sidecar.hook;

/**
 * A checkpoint (or a stop-with-savepoint) completed, as {@link SnapshotHook#notifyComplete(CheckpointCompletion)}
 * hears of it. Ordinary savepoints are never notified (as in Flink since 1.15), so a two-phase-commit sink
 * commits on checkpoints and stop-with-savepoints only.
 *
 * @param checkpointId the checkpoint
 * @param lastSubsumedId the newest checkpoint it subsumed, -1 when none
 * @param stopping it was a stop-with-savepoint: the job stops now, the sidecar takes no further snapshot, and
 *     the worker should commit and stop
 * @param drain the stop drained the input first (Flink's {@code stop --drain}, post-checkpoint action TERMINATE)
 */
public record CheckpointCompletion(long checkpointId, long lastSubsumedId, boolean stopping, boolean drain) {

    /** An ordinary completion: the job goes on. */
    public static CheckpointCompletion of(long checkpointId, long lastSubsumedId) {
        return new CheckpointCompletion(checkpointId, lastSubsumedId, false, false);
    }
}
