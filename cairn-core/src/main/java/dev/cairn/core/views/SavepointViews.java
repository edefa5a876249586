package dev.cairn.core.views;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.Retention;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RetainedCheckpoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /jobs/{jobId}/savepoints} (and {@code cairn savepoint list}): the savepoints a job keeps until they are
 * disposed of, newest first, and its restore point, the newest of its retained checkpoints, which every starting
 * sidecar restores: its latest checkpoint, the savepoint that stopped it, or a point a user restored it from. Pure:
 * built from {@link CoordinatorState#savepoints} and {@link CoordinatorState#retained}; the JSON names are snake_case
 * like every view's.
 */
public final class SavepointViews {

    private SavepointViews() {
    }

    /**
     * A job's savepoints and restore point.
     *
     * @param jobId the job
     * @param restorePoint the job's restore point, {@code null} before anything completed
     * @param savepoints the kept savepoints, newest first
     */
    public record Savepoints(String jobId, RestorePoint restorePoint, List<Savepoint> savepoints) {
    }

    /**
     * One kept savepoint.
     *
     * @param id its checkpoint id
     * @param location where it is stored (Flink: the savepoint path, {@code external_path})
     * @param postCheckpointAction what it did to the job: NONE, or SUSPEND or TERMINATE for a stop's savepoint
     * @param stoppedJob whether it is the savepoint of a stop
     * @param restorePoint whether it is the job's restore point
     */
    public record Savepoint(long id, String location, long triggerTimestamp, long completionTimestamp,
            long stateSize, int numSubtasks, String postCheckpointAction, boolean stoppedJob, boolean restorePoint) {
    }

    /**
     * The point every starting sidecar of the job restores.
     *
     * @param id its checkpoint id
     * @param checkpointType CHECKPOINT or SAVEPOINT
     * @param location where it is stored
     * @param chosen whether a user restored the job from it (a restore request), rather than the job's own latest
     *     completion
     * @param restoreMode CLAIM or NO_CLAIM for a chosen point, else {@code null}
     */
    public record RestorePoint(long id, String checkpointType, String location, long completionTimestamp,
            boolean chosen, String restoreMode) {
    }

    /** The job's savepoints, newest first, and its restore point. */
    public static Savepoints savepoints(CoordinatorState state, String jobId) {
        Optional<RetainedCheckpoints> retained = state.retained(jobId);
        Optional<CheckpointCompleted> newest = Retention.newest(retained);
        Long restoreId = newest.map(CheckpointCompleted::getCheckpointId).orElse(null);
        List<CheckpointCompleted> kept = state.savepoints(jobId);
        List<Savepoint> savepoints = new ArrayList<>(kept.size());
        for (int i = kept.size() - 1; i >= 0; i--) {
            savepoints.add(savepoint(kept.get(i), restoreId));
        }
        RestorePoint point = newest.map(n -> restorePoint(n, retained.get())).orElse(null);
        return new Savepoints(jobId, point, savepoints);
    }

    private static Savepoint savepoint(CheckpointCompleted c, Long restoreId) {
        String action = c.getOptions().getPostCheckpointAction().name();
        return new Savepoint(c.getCheckpointId(), c.getStorageLocation(), c.getTriggerTimestampMs(),
                c.getCompletionTimestampMs(), c.getTotalSizeBytes(), Math.max(c.getSubtaskCount(),
                        c.getSubtaskStates().size()), action, !action.equals("NONE"),
                restoreId != null && restoreId == c.getCheckpointId());
    }

    private static RestorePoint restorePoint(CheckpointCompleted newest, RetainedCheckpoints retained) {
        boolean chosen = retained.getChosenRestoreId() == newest.getCheckpointId();
        return new RestorePoint(newest.getCheckpointId(), newest.getType().name(), newest.getStorageLocation(),
                newest.getCompletionTimestampMs(), chosen,
                chosen && retained.getRestoreMode() != null ? retained.getRestoreMode().name() : null);
    }
}
