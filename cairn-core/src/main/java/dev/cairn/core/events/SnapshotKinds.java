package dev.cairn.core.events;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SnapshotOptions;

/**
 * What a snapshot is, read from its events' fields: a synchronous savepoint (a stop-with-savepoint), and a restore
 * point (what a job's sidecars restore, and what they are told of completing: a checkpoint, or a synchronous
 * savepoint; as in Flink since 1.15, no other savepoint).
 */
public final class SnapshotKinds {

    private SnapshotKinds() {
    }

    /** Whether the options make a synchronous savepoint: a stop-with-savepoint, which ends the job on success. */
    public static boolean isSynchronous(SnapshotOptions options) {
        return options.getPostCheckpointAction() != PostCheckpointAction.NONE;
    }

    /** Whether the completion is a restore point: a checkpoint, or the savepoint of a stop-with-savepoint. */
    public static boolean isRestorePoint(CheckpointCompleted completed) {
        return completed.getType() == CheckpointType.CHECKPOINT || isSynchronous(completed.getOptions());
    }
}
