package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.SnapshotRequest;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a starting sidecar may restore from what {@code cairn.completed} shows, given the completions of its job
 * it saw on {@code cairn.control} before its position. Pure.
 *
 * <p>The coordinator writes a completion to {@code cairn.control} and the new restore point to
 * {@code cairn.completed} in one Kafka transaction, but Kafka makes a transaction visible partition by partition:
 * during a leader change a completion can be visible on control while the completed topic still shows the restore
 * point before it. A sidecar that restored from that older point and then consumed control from its position would
 * never read the newer completion (it is before the position): its worker would not learn that it is behind. So:
 * <ul>
 *   <li>a completion seen on control that becomes a restore point (a checkpoint, or a stop-with-savepoint: a
 *       savepoint whose post-checkpoint action is not NONE) and is newer than the restore point shown means the
 *       completed topic has not caught up: wait for it ({@link AwaitCompleted}), never restore behind;</li>
 *   <li>otherwise restore from what is shown ({@link Restore});</li>
 *   <li>either way, the newest completion seen on control, of any kind (a plain savepoint too, as
 *       {@link SidecarCore} counts every completion it reads), is what the sidecar knows to be completed
 *       ({@link Verdict#latestCompletedOnControl}), at least, when it asks its first snapshot.</li>
 * </ul>
 * Other jobs' completions are ignored, and so are those that came before a user chose the restore point (a restore
 * from an older savepoint is behind them on purpose) and those of a job removed under the same id (the completed
 * topic then shows no checkpoint, and the ids the removed job used: a job registered again starts afresh).
 */
public final class RestoreCheck {

    /** What start-up must do with the restore point it read. */
    public sealed interface Verdict {
        /** The newest completion of the job seen on control; {@link SnapshotRequest#NO_COMPLETED_CHECKPOINT}: none. */
        long latestCompletedOnControl();
    }

    /** Restore from the restore point shown: no newer restore point is visible on control. */
    public record Restore(long latestCompletedOnControl) implements Verdict {
    }

    /**
     * Do not restore yet: control shows {@code checkpointId} completed, a restore point newer than the one the
     * completed topic shows; read the completed topic again until it shows it.
     */
    public record AwaitCompleted(long checkpointId, long latestCompletedOnControl) implements Verdict {
    }

    private RestoreCheck() {
    }

    /**
     * As {@link #check(String, long, long, Collection)}, with what the completed topic shows: its newest retained
     * checkpoint, and, when a user chose that point, the ids used before the restore.
     */
    public static Verdict check(String jobId, Optional<RetainedCheckpoints> retained,
            Collection<CheckpointCompleted> seenOnControl) {
        return check(jobId, newestRetained(retained), beforeChosenPoint(retained), seenOnControl);
    }

    /**
     * @param jobId the sidecar's job
     * @param restorePointId the newest retained checkpoint the completed topic shows ({@link #newestRetained});
     *     {@link SnapshotRequest#NO_COMPLETED_CHECKPOINT} when none
     * @param ignoredUpTo completions up to this id are ignored: they came before a user chose the restore point
     *     (-1: none are)
     * @param seenOnControl completions read on control before the sidecar's position, any job, any order
     */
    public static Verdict check(String jobId, long restorePointId, long ignoredUpTo,
            Collection<CheckpointCompleted> seenOnControl) {
        Objects.requireNonNull(jobId, "jobId");
        long latest = SnapshotRequest.NO_COMPLETED_CHECKPOINT;
        long newestRestorePoint = SnapshotRequest.NO_COMPLETED_CHECKPOINT;
        for (CheckpointCompleted completed : seenOnControl) {
            if (!jobId.equals(completed.getJobId()) || completed.getCheckpointId() <= ignoredUpTo) {
                continue;
            }
            long id = completed.getCheckpointId();
            latest = Math.max(latest, id);
            if (becomesRestorePoint(completed)) {
                newestRestorePoint = Math.max(newestRestorePoint, id);
            }
        }
        return newestRestorePoint > restorePointId ? new AwaitCompleted(newestRestorePoint, latest)
                : new Restore(latest);
    }

    /**
     * Whether the coordinator makes this completion the job's restore point: a checkpoint, or a stop-with-savepoint
     * (a savepoint whose post-checkpoint action is not NONE). A plain savepoint belongs to the user and is not.
     */
    public static boolean becomesRestorePoint(CheckpointCompleted completed) {
        return completed.getType() == CheckpointType.CHECKPOINT
                || CheckpointOptions.from(completed.getOptions()).synchronous();
    }

    /**
     * When the newest retained checkpoint is a point a user chose to restore from: the newest id the job had used
     * then (completions up to it are older than the restore, whatever their ids). When the job was removed (no
     * checkpoint retained, and the ids the removed job used): the newest of them (its completions belong to the
     * removed job, not to one registered again under its id). Else -1.
     */
    public static long beforeChosenPoint(Optional<RetainedCheckpoints> retained) {
        return retained.filter(r -> r.getCheckpoints().isEmpty() || r.getChosenRestoreId() >= 0
                && r.getChosenRestoreId() == newestRetained(retained)).map(RetainedCheckpoints::getChosenAfterId)
                .orElse(-1L);
    }

    /**
     * The newest (last) checkpoint of the job's retained checkpoints, which a worker restores from;
     * {@link SnapshotRequest#NO_COMPLETED_CHECKPOINT} when nothing is retained.
     */
    public static long newestRetained(Optional<RetainedCheckpoints> retained) {
        List<CheckpointCompleted> checkpoints = retained.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
        return checkpoints.isEmpty() ? SnapshotRequest.NO_COMPLETED_CHECKPOINT
                : checkpoints.get(checkpoints.size() - 1).getCheckpointId();
    }
}
