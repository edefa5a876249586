package dev.cairn.sidecar.hook;

import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.slf4j.LoggerFactory;

/**
 * The worker's side of a sidecar: how it snapshots, learns the fate of a checkpoint, and restores.
 * In-process workers implement it directly (and register it with {@link java.util.ServiceLoader} or pass it
 * to the sidecar); other workers are reached through the HTTP or command implementations. The same interface
 * serves a task's worker and a coordinator-side participant's (a request then names the participant).
 *
 * <p>The sidecar calls {@link #snapshot} for one checkpoint at a time, in trigger order, and never from
 * the thread that delivers notifications, so a slow snapshot does not delay {@link #notifyComplete} or
 * {@link #notifyAborted}. Notifications and {@link #discardState} run on that one thread, in order.
 *
 * <p>Hooks written before stop-with-savepoint and discarded states existed keep working: the record-taking
 * notification methods call the two-argument ones by default, and {@link #discardState} only logs. Override
 * {@link #notifyComplete(CheckpointCompletion)} to learn that the job is stopping, and
 * {@link #notifyAborted(CheckpointAbort)} to learn that a stop failed.
 */
public interface SnapshotHook extends AutoCloseable {

    /**
     * Takes the snapshot for one checkpoint. Completing the stage exceptionally (or throwing) declines the
     * checkpoint; {@link SnapshotDeclinedException} lets the worker choose the reason. A task whose input is
     * exhausted may answer {@link SnapshotResult#finishedWith} instead (see {@link SnapshotResult}).
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

    /**
     * What a task sidecar calls once at start instead of {@link #restore(Optional)}, after it registered its
     * attempt: the state to restore from and the attempt's {@link AttemptNumber}, which orders the job's attempts
     * without a clock. By default {@link #restore(Optional)}.
     */
    default void restore(Optional<RestorePoint> from, AttemptNumber attempt) throws Exception {
        restore(from);
    }

    /**
     * The checkpoint completed, and whether the job is stopping with it (a stop-with-savepoint). What the sidecar
     * calls; by default {@link #notifyComplete(long, long)}.
     */
    default void notifyComplete(CheckpointCompletion completion) throws Exception {
        notifyComplete(completion.checkpointId(), completion.lastSubsumedId());
    }

    /**
     * The checkpoint was aborted, and whether it was a stop-with-savepoint that failed (the worker resumes).
     * What the sidecar calls; by default {@link #notifyAborted(long, long)}.
     */
    default void notifyAborted(CheckpointAbort abort) throws Exception {
        notifyAborted(abort.checkpointId(), abort.latestCompletedId());
    }

    /**
     * A state object of this subtask (or participant) that the coordinator discarded; the worker may delete it:
     * the state of an ack it did not accept, or a state object (its own or a shared one) of a checkpoint subsumed,
     * aborted or disposed of ({@link DiscardedState} says which, and why). Called at most once per checkpoint and
     * location while the sidecar runs, but again by a sidecar that starts shortly after the discard: deleting must
     * be idempotent (an object already gone is no error). Optional: by default it is only logged, and nothing is
     * deleted.
     */
    default void discardState(DiscardedState state) throws Exception {
        LoggerFactory.getLogger(SnapshotHook.class).info("The coordinator discarded the {}state {} of checkpoint {} "
                + "({}: {}); {} does not delete discarded states", state.shared() ? "shared " : "", state.location(),
                state.checkpointId(), state.cause(), state.message(), getClass().getName());
    }

    @Override
    default void close() throws Exception {
        // most hooks hold nothing
    }
}
