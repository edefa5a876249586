package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.sidecar.hook.SnapshotRequest;

/**
 * What {@link SidecarCore} asks its shell to do. The shell carries the actions out in the order they are
 * returned: snapshots on a dedicated thread, notifications on another, acks and declines through the producer.
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

    /** Call the worker's {@code notifyComplete(checkpointId, lastSubsumedId)}. */
    record NotifyComplete(long checkpointId, long lastSubsumedId) implements SidecarAction {}

    /** Call the worker's {@code notifyAborted(checkpointId, latestCompletedId)}. */
    record NotifyAborted(long checkpointId, long latestCompletedId) implements SidecarAction {}

    /**
     * A queued snapshot will not be taken because its checkpoint ended before it started (nothing to do but
     * tell the operator).
     */
    record SnapshotSkipped(long checkpointId, String why) implements SidecarAction {}
}
