package dev.cairn.sidecar.hook;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The worker's side of a sidecar: how it snapshots, learns the fate of a checkpoint, and restores.
 * In-process workers implement it directly (and register it with {@link java.util.ServiceLoader} or pass it
 * to the sidecar); other workers are reached through the HTTP or command implementations.
 *
 * <p>The sidecar calls {@link #snapshot} for one checkpoint at a time, in trigger order, and never from
 * the thread that delivers notifications, so a slow snapshot does not delay {@link #notifyComplete} or
 * {@link #notifyAborted}.
 */
public interface SnapshotHook extends AutoCloseable {

    /**
     * Takes the snapshot for one checkpoint. Completing the stage exceptionally (or throwing) declines the
     * checkpoint; {@link SnapshotDeclinedException} lets the worker choose the reason.
     */
    CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) throws Exception;

    /**
     * The checkpoint completed: a two-phase-commit sink commits here.
     *
     * @param lastSubsumedId the newest checkpoint it subsumed, -1 when none
     */
    void notifyComplete(long checkpointId, long lastSubsumedId) throws Exception;

    /**
     * The checkpoint was aborted: a two-phase-commit sink rolls back here.
     *
     * @param latestCompletedId the job's latest completed checkpoint, -1 when none
     */
    void notifyAborted(long checkpointId, long latestCompletedId) throws Exception;

    /** Called once at start, before the first snapshot: the state to restore from, or empty for a fresh start. */
    void restore(Optional<RestorePoint> from) throws Exception;

    @Override
    default void close() throws Exception {
        // most hooks hold nothing
    }
}
