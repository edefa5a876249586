package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.SnapshotRequest;

/**
 * What {@link SidecarCore} asks its shell to do. The shell carries the actions out in the order they are
 * returned: snapshots on a dedicated thread, notifications and discards on another, in order, and what goes to
 * {@code cairn.acks} through the producer.
 */
public sealed interface SidecarAction {

    /**
     * Call the worker's snapshot hook for {@code request} now; report its outcome with
     * {@link SidecarCore#onSnapshotSucceeded} or {@link SidecarCore#onSnapshotFailed}, and call
     * {@link SidecarCore#onSnapshotTimedOut} if it has not finished at {@code deadlineMs}.
     */
    record StartSnapshot(SnapshotRequest request, long deadlineMs) implements SidecarAction {}

    /** The running snapshot of this checkpoint is no longer wanted: interrupt or cancel it if possible. */
    record CancelSnapshot(long checkpointId) implements SidecarAction {}

    /** Produce this acknowledgement to {@code cairn.acks}. */
    record PublishAck(CheckpointAcknowledged ack) implements SidecarAction {}

    /** Produce this decline to {@code cairn.acks}. */
    record PublishDecline(CheckpointDeclined decline) implements SidecarAction {}

    /** Produce this participant's acknowledgement to {@code cairn.acks}. */
    record PublishParticipantAck(ParticipantAcknowledged ack) implements SidecarAction {}

    /** Produce this participant's decline to {@code cairn.acks}. */
    record PublishParticipantDecline(ParticipantDeclined decline) implements SidecarAction {}

    /**
     * Produce this announcement of the attempt again, with a later start, to {@code cairn.acks}: the coordinator
     * did not take the earlier one (see {@link SidecarCore#onStartRejected}).
     */
    record PublishStarted(TaskStarted started) implements SidecarAction {}

    /** Produce the subtask's end, with its final state, to {@code cairn.acks}. */
    record PublishFinished(TaskFinished finished) implements SidecarAction {}

    /**
     * Call the worker's {@code notifyComplete}; {@code stopping} when it was a stop-with-savepoint (the job stops),
     * {@code drain} when that stop drained the input.
     */
    record NotifyComplete(long checkpointId, long lastSubsumedId, boolean stopping, boolean drain)
            implements SidecarAction {

        /** An ordinary completion. */
        public NotifyComplete(long checkpointId, long lastSubsumedId) {
            this(checkpointId, lastSubsumedId, false, false);
        }
    }

    /** Call the worker's {@code notifyAborted}; {@code stopFailed} when it was a stop-with-savepoint (resume). */
    record NotifyAborted(long checkpointId, long latestCompletedId, boolean stopFailed) implements SidecarAction {

        /** An ordinary abort. */
        public NotifyAborted(long checkpointId, long latestCompletedId) {
            this(checkpointId, latestCompletedId, false);
        }
    }

    /**
     * Hand the worker a state object the coordinator discarded (an ack's state, or a checkpoint's own or shared
     * object), for deletion.
     */
    record DiscardState(DiscardedState state) implements SidecarAction {}

    /**
     * A queued snapshot will not be taken: its checkpoint ended before it started, or the sidecar stopped
     * snapshotting (the subtask finished, or the job is stopping). Nothing to do but tell the operator.
     */
    record SnapshotSkipped(long checkpointId, String why) implements SidecarAction {}

    /**
     * The job fell back from the restore point the worker restored (a subtask could not read it): the worker must
     * restore again, from the fallback, so the sidecar stops, saying why, and its worker's supervisor restarts both.
     */
    record Restart(String why) implements SidecarAction {}
}
