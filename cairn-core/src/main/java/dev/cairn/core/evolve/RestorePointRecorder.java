package dev.cairn.core.evolve;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.KeptSavepoints;
import dev.cairn.core.events.SnapshotKinds;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.RestorePoints;
import dev.cairn.core.state.Retention;
import dev.cairn.core.state.SharedStates;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobRestored;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SavepointDisposed;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a job's points to restore from: the retained checkpoints ({@link Retention}), whose newest is the job's
 * restore point, and its savepoints. A completed checkpoint is retained; a completed savepoint is kept until a user
 * disposes of it, and the savepoint of a stop-with-savepoint is also retained, as the job's restore point, so that a
 * worker that dies after the stop restores it and commits what the stop's savepoint holds (as Flink keeps a
 * stop-with-savepoint's savepoint for recovery). A point a user restores from becomes the newest retained
 * entry. A point that leaves them, and is no savepoint kept, releases its references to shared objects
 * ({@link SharedStates}); its acks are removed once nothing else keeps them ({@link RestorePoints#keepsAcks}).
 */
final class RestorePointRecorder {

    private RestorePointRecorder() {
    }

    /**
     * Records a completion: {@code job} is the job as it will be put, with the completion's history entry already
     * appended.
     */
    static void completed(CoordinatorState state, JobState job, CheckpointCompleted e) {
        String jobId = e.getJobId();
        if (e.getType() == CheckpointType.SAVEPOINT) {
            List<CheckpointCompleted> savepoints = new ArrayList<>(state.savepoints(jobId));
            savepoints.add(e);
            putSavepoints(state, jobId, savepoints);
        }
        if (SnapshotKinds.isRestorePoint(e)) {
            Optional<RetainedCheckpoints> before = state.retained(jobId);
            RetainedCheckpoints after = Retention.retain(before, e, job.getConfig().getRetained());
            state.put(StateTable.RETAINED, jobId, after);
            removeAcksOfDropped(state, job, before, after);
        }
    }

    /** The chosen point is the newest retained entry; in CLAIM mode a savepoint becomes the coordinator's own. */
    static void restored(CoordinatorState state, JobRestored e) {
        restoredFrom(state, e.getJobId(), e.getRestorePoint(), e.getRestoreMode());
    }

    /**
     * The job falls back from a restore point a subtask could not restore to the previous retained checkpoint: it is
     * restored from it as if a user chose it ({@link Retention#fallbackMode}).
     */
    static void rejected(CoordinatorState state, RestorePointRejected e) {
        restoredFrom(state, e.getJobId(), e.getFallback(),
                Retention.fallbackMode(state.retained(e.getJobId()), e.getFallback()));
    }

    private static void restoredFrom(CoordinatorState state, String jobId, CheckpointCompleted point,
            RestoreMode mode) {
        Optional<JobState> job = state.job(jobId);
        if (job.isEmpty()) {
            return;
        }
        Optional<RetainedCheckpoints> before = state.retained(jobId);
        RetainedCheckpoints after = Retention.restoreFrom(before, point, mode, job.get().getConfig().getRetained(),
                job.get().getNextCheckpointId() - 1);
        state.put(StateTable.RETAINED, jobId, after);
        if (mode == RestoreMode.CLAIM) {
            forgetSavepoint(state, jobId, point.getCheckpointId());
        }
        removeAcksOfDropped(state, job.get(), before, after);
    }

    /** The savepoint is no point to restore from any more; its acks go unless something else keeps them. */
    static void disposed(CoordinatorState state, SavepointDisposed e) {
        Optional<JobState> job = state.job(e.getJobId());
        if (job.isEmpty()) {
            return;
        }
        forgetSavepoint(state, e.getJobId(), e.getCheckpointId());
        if (!Retention.contains(state.retained(e.getJobId()), e.getCheckpointId())) {
            SharedStates.release(state, e.getJobId(), e.getCheckpointId());
        }
        if (!RestorePoints.keepsAcks(state, job.get(), e.getCheckpointId())) {
            state.removeAcks(e.getJobId(), e.getCheckpointId());
        }
    }

    private static void forgetSavepoint(CoordinatorState state, String jobId, long checkpointId) {
        List<CheckpointCompleted> savepoints = new ArrayList<>(state.savepoints(jobId));
        if (savepoints.removeIf(s -> s.getCheckpointId() == checkpointId)) {
            putSavepoints(state, jobId, savepoints);
        }
    }

    private static void putSavepoints(CoordinatorState state, String jobId, List<CheckpointCompleted> savepoints) {
        state.put(StateTable.SAVEPOINTS, jobId, KeptSavepoints.newBuilder().setJobId(jobId)
                .setSavepoints(savepoints).build());
    }

    private static void removeAcksOfDropped(CoordinatorState state, JobState job, Optional<RetainedCheckpoints> before,
            RetainedCheckpoints after) {
        for (long dropped : Retention.dropped(before, after)) {
            if (state.savepoints(job.getJobId()).stream().noneMatch(s -> s.getCheckpointId() == dropped)) {
                SharedStates.release(state, job.getJobId(), dropped);
            }
            if (!RestorePoints.keepsAcks(state, job, dropped)) {
                state.removeAcks(job.getJobId(), dropped);
            }
        }
    }
}
