package dev.cairn.sidecar.hook.http;

/**
 * The fate of a checkpoint as the notify endpoint receives it.
 *
 * @param checkpointId the checkpoint
 * @param outcome whether it completed or was aborted
 * @param relatedId for {@link Outcome#COMPLETED} the last subsumed id, for {@link Outcome#ABORTED} the job's
 *     latest completed id; -1 when none
 */
public record HookNotification(long checkpointId, Outcome outcome, long relatedId) {

    /** How a checkpoint ended. */
    public enum Outcome {
        /** It completed; the JSON carries {@code lastSubsumedId}. */
        COMPLETED("lastSubsumedId"),
        /** It was aborted; the JSON carries {@code latestCompletedId}. */
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

    /** A completed checkpoint and the newest one it subsumed. */
    public static HookNotification completed(long checkpointId, long lastSubsumedId) {
        return new HookNotification(checkpointId, Outcome.COMPLETED, lastSubsumedId);
    }

    /** An aborted checkpoint and the job's latest completed one. */
    public static HookNotification aborted(long checkpointId, long latestCompletedId) {
        return new HookNotification(checkpointId, Outcome.ABORTED, latestCompletedId);
    }
}
