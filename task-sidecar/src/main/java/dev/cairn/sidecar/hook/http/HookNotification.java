package dev.cairn.sidecar.hook.http;

import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;

/**
 * The fate of a checkpoint as the notify endpoint receives it.
 *
 * @param checkpointId the checkpoint
 * @param outcome whether it completed or was aborted
 * @param relatedId for {@link Outcome#COMPLETED} the last subsumed id, for {@link Outcome#ABORTED} the job's
 *     latest completed id; -1 when none
 * @param stopping completed only: it was a stop-with-savepoint, the job stops (JSON {@code "stopping"})
 * @param drain completed only: that stop drained the input first (JSON {@code "drain"})
 * @param stopFailed aborted only: it was a stop-with-savepoint, the stop failed and the job resumes (JSON
 *     {@code "stopFailed"})
 */
public record HookNotification(long checkpointId, Outcome outcome, long relatedId, boolean stopping, boolean drain,
        boolean stopFailed) {

    /** How a checkpoint ended. */
    public enum Outcome {
        /** It completed; the JSON carries {@code lastSubsumedId}, {@code stopping} and {@code drain}. */
        COMPLETED("lastSubsumedId"),
        /** It was aborted; the JSON carries {@code latestCompletedId} and {@code stopFailed}. */
        ABORTED("latestCompletedId");

        private final String relatedField;

        Outcome(String relatedField) {
            this.relatedField = relatedField;
        }

        /** The name of the JSON field that carries {@link HookNotification#relatedId()}. */
        public String relatedField() {
            return relatedField;
        }
    }

    /** An ordinary completion and the newest checkpoint it subsumed. */
    public static HookNotification completed(long checkpointId, long lastSubsumedId) {
        return completed(CheckpointCompletion.of(checkpointId, lastSubsumedId));
    }

    /** An ordinary abort and the job's latest completed checkpoint. */
    public static HookNotification aborted(long checkpointId, long latestCompletedId) {
        return aborted(CheckpointAbort.of(checkpointId, latestCompletedId));
    }

    public static HookNotification completed(CheckpointCompletion completion) {
        return new HookNotification(completion.checkpointId(), Outcome.COMPLETED, completion.lastSubsumedId(),
                completion.stopping(), completion.drain(), false);
    }

    public static HookNotification aborted(CheckpointAbort abort) {
        return new HookNotification(abort.checkpointId(), Outcome.ABORTED, abort.latestCompletedId(), false, false,
                abort.stopFailed());
    }

    /** The completion it describes ({@link Outcome#COMPLETED} only). */
    public CheckpointCompletion completion() {
        return new CheckpointCompletion(checkpointId, relatedId, stopping, drain);
    }

    /** The abort it describes ({@link Outcome#ABORTED} only). */
    public CheckpointAbort abort() {
        return new CheckpointAbort(checkpointId, relatedId, stopFailed);
    }
}
