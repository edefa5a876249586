package dev.cairn.kit.sink;

/**
 * A write-ahead sink stopped: it was fenced by a newer incarnation of its subtask, a commit failed, or it refused
 * to restore a point its output is already ahead of (see {@link RestorePlan.Verdict#REFUSED_OUTPUT_AHEAD}). A
 * stopped sink refuses every further call with this exception; its uncommitted records are not lost, they are in
 * the snapshots, and the incarnation that restores from the latest completed checkpoint commits them.
 */
public final class SinkFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean fenced;

    /**
     * @param message what happened and what to do
     * @param fenced whether a newer incarnation fenced this one
     * @param cause the client's exception, if any
     */
    public SinkFailedException(String message, boolean fenced, Throwable cause) {
        super(message, cause);
        this.fenced = fenced;
    }

    /** Whether a newer incarnation of the same sink subtask (the same transactional id) fenced this one. */
    public boolean fenced() {
        return fenced;
    }
}
