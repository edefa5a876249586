package dev.cairn.kit.task;

import dev.cairn.sidecar.hook.CheckpointOptions;

/**
 * Where a source subtask stands with stop-with-savepoints, as Flink's synchronous savepoint: after the snapshot of a
 * stop it is paused (it reads and emits nothing) until the stop completes (it stops) or is aborted (it reads on);
 * after a stop with drain, or restored from a drained state, its input has ended. Pure; thread-safe, since the loop
 * takes snapshots while the sidecar's thread notifies.
 */
final class SourceStop {

    private long pausedAt = -1;
    private long lastAborted = -1;
    private boolean inputEnded;
    private boolean stopped;

    /** A stop of a subtask restored from a state whose input had ended, or not. */
    SourceStop(boolean inputEnded) {
        this.inputEnded = inputEnded;
    }

    /**
     * The snapshot of checkpoint {@code checkpointId} is being taken with {@code options}: a stop pauses the
     * subtask, unless it was aborted already. Answers whether the snapshot's state records that the input ended.
     */
    synchronized boolean snapshot(long checkpointId, CheckpointOptions options) {
        if (options.synchronous() && checkpointId > lastAborted) {
            pausedAt = checkpointId;
        }
        return inputEnded || options.drain();
    }

    /** Checkpoint {@code checkpointId} was aborted; answers whether it was the stop the subtask paused at. */
    synchronized boolean aborted(long checkpointId) {
        lastAborted = Math.max(lastAborted, checkpointId);
        if (pausedAt == checkpointId) {
            pausedAt = -1;
            return true;
        }
        return false;
    }

    /** A stop-with-savepoint completed: the subtask stops (and with drain, its input ended). */
    synchronized void stopped(boolean drain) {
        stopped = true;
        inputEnded |= drain;
    }

    /** Whether the subtask reads nothing now: paused at a stop, stopped, or its input ended. */
    synchronized boolean idle() {
        return pausedAt >= 0 || stopped || inputEnded;
    }

    synchronized boolean isStopped() {
        return stopped;
    }

    synchronized boolean inputEnded() {
        return inputEnded;
    }
}
