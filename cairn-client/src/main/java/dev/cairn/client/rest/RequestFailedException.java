package dev.cairn.client.rest;

/**
 * The coordinator's outcome of a request was FAILED: a checkpoint or savepoint was aborted, or a restore, rescale,
 * disposal or removal refused. {@link #reason()} is Cairn's {@code CheckpointFailureReason} (e.g.
 * {@code CHECKPOINT_EXPIRED}, {@code INVALID_REQUEST}), the message the coordinator's {@code failure_message}.
 */
public final class RequestFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient RequestState state;

    public RequestFailedException(RequestState state) {
        super(state.failureMessage() == null ? "request " + state.requestId() + " failed (" + state.failureReason()
                + ")" : state.failureMessage());
        this.state = state;
    }

    /** What the coordinator said of the request. */
    public RequestState state() {
        return state;
    }

    /** Why it failed, e.g. {@code CHECKPOINT_EXPIRED}; {@code null} when the coordinator named no reason. */
    public String reason() {
        return state.failureReason();
    }
}
