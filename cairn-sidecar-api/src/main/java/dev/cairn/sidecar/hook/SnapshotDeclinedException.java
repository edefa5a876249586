package dev.cairn.sidecar.hook;

import dev.cairn.events.CheckpointFailureReason;

/** Thrown (or used to complete the snapshot stage) by a worker that declines a checkpoint, with its reason. */
public class SnapshotDeclinedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final CheckpointFailureReason reason;

    public SnapshotDeclinedException(CheckpointFailureReason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public CheckpointFailureReason reason() {
        return reason;
    }
}
