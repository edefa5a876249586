package dev.cairn.sidecar.hook;

/**
 * A checkpoint was aborted, as {@link SnapshotHook#notifyAborted(CheckpointAbort)} hears of it.
 *
 * @param checkpointId the checkpoint
 * @param latestCompletedId the job's latest completed checkpoint, -1 when none
 * @param stopFailed it was a stop-with-savepoint: the stop failed and the job keeps running, so a worker that
 *     paused for it resumes processing
 */
public record CheckpointAbort(long checkpointId, long latestCompletedId, boolean stopFailed) {

    /** An ordinary abort. */
    public static CheckpointAbort of(long checkpointId, long latestCompletedId) {
        return new CheckpointAbort(checkpointId, latestCompletedId, false);
    }
}
