package dev.cairn.core.evolve;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.RemovedJob;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.RetainedCheckpoints;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A job's removal: a {@link JobRemoved} removes every entry the job has in every table (its state, spec, vertices,
 * attempts, finished subtasks, acks, history, retained checkpoints, request records, savepoints and shared state
 * counts; {@link CoordinatorState#removeJob}) and keeps a {@link RemovedJob}: where its checkpoint id counter had got
 * to. A job registered again under the id starts its checkpoint ids there ({@link #firstCheckpointId}). The same
 * evolve serves live processing, the rebuild of the stores and the audit's replay, so each of them forgets the job
 * at the same record of the journal.
 */
final class RemovalRecorder {

    private RemovalRecorder() {
    }

    static void removed(CoordinatorState state, JobRemoved e) {
        String jobId = e.getJobId();
        state.removeJob(jobId, checkpointsKeptBy(state, jobId));
        state.put(StateTable.REMOVED, jobId, RemovedJob.newBuilder()
                .setJobId(jobId)
                .setNextCheckpointId(e.getNextCheckpointId())
                .setRequestId(e.getRequestId())
                .setRemovedAtMs(e.getTimestampMs())
                .build());
    }

    /** The id the first checkpoint of a job registered under {@code jobId} gets: 1, or above a removed job's ids. */
    static long firstCheckpointId(CoordinatorState state, String jobId) {
        return state.removed(jobId).map(RemovedJob::getNextCheckpointId).orElse(1L);
    }

    /**
     * Every checkpoint the job may keep acks or a summary of: pending, in its history, retained, its savepoints (the
     * same that {@code RestorePoints.keepsAcks} keeps).
     */
    private static Set<Long> checkpointsKeptBy(CoordinatorState state, String jobId) {
        Set<Long> ids = new TreeSet<>();
        state.job(jobId).ifPresent(job -> addIds(job, ids));
        state.retained(jobId).map(RetainedCheckpoints::getCheckpoints).orElse(List.of())
                .forEach(c -> ids.add(c.getCheckpointId()));
        state.savepoints(jobId).stream().map(CheckpointCompleted::getCheckpointId).forEach(ids::add);
        return ids;
    }

    private static void addIds(JobState job, Set<Long> ids) {
        job.getPending().stream().map(PendingCheckpoint::getCheckpointId).forEach(ids::add);
        ids.addAll(job.getHistoryIds());
    }
}
