package dev.cairn.core.views;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.RestorePoints;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RetainedCheckpoints;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A job's REST views read from a {@link CoordinatorState}, the live stores' or a replayed journal's (pure but for
 * the state's reads, with {@link JobViews}): {@code GET /jobs/{id}}, {@code GET /jobs/{id}/checkpoints} and
 * {@code GET /jobs/{id}/checkpoints/latest-completed}. Empty for a job the state does not hold (or, for the last,
 * one without a completed checkpoint), and what a reader that finds no job under an id says of a job removed under it
 * ({@link #removal}).
 */
public final class StateViews {

    private StateViews() {
    }

    public static Optional<ApiViews.Job> job(CoordinatorState state, String jobId) {
        return state.job(jobId).flatMap(job -> state.spec(jobId).map(spec -> JobViews.job(job, spec)));
    }

    public static Optional<ApiViews.CheckpointStats> checkpoints(CoordinatorState state, String jobId) {
        return state.job(jobId).map(job -> JobViews.checkpoints(job, state.history(job),
                id -> state.progress(jobId, id)));
    }

    /** The job's latest completed checkpoint and its subtask states; reads the retained checkpoints, not the job. */
    public static Optional<ApiViews.Restore> latestCompleted(CoordinatorState state, String jobId) {
        return state.retained(jobId).flatMap(retained -> JobViews.latestCompleted(retained,
                (job, id) -> subtaskStates(state, retained, job, id)));
    }

    /**
     * {@code job '<id>' was removed at <time> (request <id>); registered again it takes checkpoint ids from <n> on},
     * when a job was removed under {@code jobId}; empty when none was.
     */
    public static Optional<String> removal(CoordinatorState state, String jobId) {
        return state.removed(jobId).map(removed -> "job '" + jobId + "' was removed at "
                + Instant.ofEpochMilli(removed.getRemovedAtMs()) + " (request " + removed.getRequestId()
                + "); registered again it takes checkpoint ids from " + removed.getNextCheckpointId() + " on");
    }

    /** A retained checkpoint's subtask states: its acks and the final states of the subtasks it counts as finished. */
    private static List<CheckpointAcknowledged> subtaskStates(CoordinatorState state, RetainedCheckpoints retained,
            String jobId, long checkpointId) {
        List<CheckpointAcknowledged> acks = state.acks(jobId, checkpointId);
        return retained.getCheckpoints().stream().filter(c -> c.getCheckpointId() == checkpointId).findFirst()
                .map(completed -> RestorePoints.statesOf(completed, acks, () -> state.finished(jobId),
                        taskId -> state.vertex(jobId, taskId)))
                .orElse(acks);
    }
}
