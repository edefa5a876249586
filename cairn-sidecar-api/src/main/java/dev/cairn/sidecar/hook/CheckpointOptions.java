package dev.cairn.sidecar.hook;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.SnapshotOptions;
import java.util.Objects;

/**
 * How a snapshot is to be taken (Flink's {@code CheckpointOptions}), as the coordinator resolved it from the
 * job's configuration and the request, and what follows it.
 *
 * @param backupType checkpoints only: FULL (self-contained) or INCREMENTAL (may reuse files of earlier ones)
 * @param savepointFormat savepoints only: CANONICAL or NATIVE
 * @param postCheckpointAction NONE, or the savepoint is a stop-with-savepoint: SUSPEND stops the job when it
 *     completes, TERMINATE drains the input first
 * @param alignment how the worker aligns its inputs: ALIGNED, UNALIGNED, AT_LEAST_ONCE or FORCED_ALIGNED
 * @param alignedTimeoutMs an aligned snapshot may switch to unaligned after this long; -1: never
 */
public record CheckpointOptions(BackupType backupType, SavepointFormat savepointFormat,
        PostCheckpointAction postCheckpointAction, AlignmentType alignment, long alignedTimeoutMs) {

    /** Flink's defaults: what a snapshot request that says nothing else is taken with. */
    public static final CheckpointOptions DEFAULTS = new CheckpointOptions(BackupType.FULL, SavepointFormat.CANONICAL,
            PostCheckpointAction.NONE, AlignmentType.ALIGNED, -1);

    public CheckpointOptions {
        Objects.requireNonNull(backupType, "backupType");
        Objects.requireNonNull(savepointFormat, "savepointFormat");
        Objects.requireNonNull(postCheckpointAction, "postCheckpointAction");
        Objects.requireNonNull(alignment, "alignment");
    }

    /** The options of a control event; a null field takes the default. */
    public static CheckpointOptions from(SnapshotOptions options) {
        return new CheckpointOptions(
                options.getBackupType() != null ? options.getBackupType() : DEFAULTS.backupType,
                options.getSavepointFormat() != null ? options.getSavepointFormat() : DEFAULTS.savepointFormat,
                options.getPostCheckpointAction() != null ? options.getPostCheckpointAction()
                        : DEFAULTS.postCheckpointAction,
                options.getAlignment() != null ? options.getAlignment() : DEFAULTS.alignment,
                options.getAlignedTimeoutMs());
    }

    /**
     * Whether this is a synchronous savepoint (stop-with-savepoint): the job stops once it completes, so the
     * worker should take no further snapshot after it and wait for its completion or abort.
     */
    public boolean synchronous() {
        return postCheckpointAction != PostCheckpointAction.NONE;
    }

    /** Whether the worker drains its input before the snapshot (stop-with-savepoint with TERMINATE). */
    public boolean drain() {
        return postCheckpointAction == PostCheckpointAction.TERMINATE;
    }
}
