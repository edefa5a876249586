package dev.cairn.sidecar.hook;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.DiscardReason;

/**
 * A state object of this subtask (or participant) that the coordinator discarded: nothing it keeps refers to it any
 * more, so the worker may delete it. Handed to {@link SnapshotHook#discardState} at most once per checkpoint and
 * location by a running sidecar; a sidecar that starts hands out again what was discarded shortly before it started
 * (it cannot know what its predecessor handed out), so deleting must be idempotent.
 *
 * <p>Two causes, exactly one of {@link #status} and {@link #reason} set:
 * <ul>
 *   <li>an acknowledgement the coordinator did not accept ({@link #status} UNKNOWN, DISCARDED or LATE: a checkpoint
 *       never triggered or already ended, an attempt not in its plan, a state reusing a shared object nothing refers
 *       to any more): the state it named, and the shared objects it wrote that nothing refers to;</li>
 *   <li>a checkpoint's state the coordinator discarded ({@link #reason}: SUBSUMED, a retained checkpoint it owns left
 *       the retained ones; ABORTED, a pending checkpoint was aborted with the states already acknowledged;
 *       DISPOSED, a user disposed of a savepoint, whose shared objects nothing refers to any more).</li>
 * </ul>
 * Records built with the constructor of five components (an ack's state, not shared) keep working.
 *
 * @param checkpointId the checkpoint the state was written for (of a shared object: the last checkpoint referring
 *     to it)
 * @param location the state's (or shared object's) location
 * @param sizeBytes its size
 * @param status an ack discarded: why, UNKNOWN, DISCARDED or LATE; {@code null} for a checkpoint's state
 * @param message the coordinator's explanation
 * @param reason a checkpoint's state discarded: why; {@code null} for an ack's state
 * @param shared whether it is a shared object ({@link SharedObject}) rather than a state's own object
 */
public record DiscardedState(long checkpointId, String location, long sizeBytes, AckDiscardStatus status,
        String message, DiscardReason reason, boolean shared) {

    /** Checks that exactly one cause is set. */
    public DiscardedState {
        if ((status == null) == (reason == null)) {
            throw new IllegalArgumentException("a discarded state has either an ack's status or a checkpoint's"
                    + " discard reason, was status " + status + " and reason " + reason);
        }
    }

    /** The state an ack the coordinator did not accept named (its own object, not a shared one). */
    public DiscardedState(long checkpointId, String location, long sizeBytes, AckDiscardStatus status,
            String message) {
        this(checkpointId, location, sizeBytes, status, message, null, false);
    }

    /** A state object of an ack the coordinator did not accept. */
    public static DiscardedState ofAck(long checkpointId, String location, long sizeBytes, boolean shared,
            AckDiscardStatus status, String message) {
        return new DiscardedState(checkpointId, location, sizeBytes, status, message, null, shared);
    }

    /** A state object of a checkpoint the coordinator discarded. */
    public static DiscardedState ofCheckpoint(long checkpointId, String location, long sizeBytes, boolean shared,
            DiscardReason reason, String message) {
        return new DiscardedState(checkpointId, location, sizeBytes, null, message, reason, shared);
    }

    /** Whether it comes from an ack the coordinator did not accept ({@link #status} set). */
    public boolean fromAck() {
        return status != null;
    }

    /** The cause's name: the status of a discarded ack, or the reason a checkpoint's state was discarded. */
    public String cause() {
        return fromAck() ? status.name() : reason.name();
    }
}
