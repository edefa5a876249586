package dev.cairn.coordinator.audit;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.rules.RestoreParts;
import dev.cairn.coordinator.rest.ApiViews;
import dev.cairn.coordinator.rest.JobViews;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RetainedCheckpoints;
import java.util.List;
import java.util.Optional;

/**
 * A replayed state rendered as the REST API renders the live stores (pure, with the API's own {@link JobViews}):
 * {@code GET /jobs/{id}}, {@code GET /jobs/{id}/checkpoints} and {@code GET /jobs/{id}/checkpoints/latest-completed}.
 * Empty for a job the state does not hold (or, for the last, one without a completed checkpoint).
 */
public final class ReplayedViews {

    private ReplayedViews() {
    }

    public static Optional<ApiViews.Job> job(CoordinatorState state, String jobId) {
        return state.job(jobId).flatMap(job -> state.spec(jobId).map(spec -> JobViews.job(job, spec)));
    }

    public static Optional<ApiViews.CheckpointStats> checkpoints(CoordinatorState state, String jobId) {
        return state.job(jobId).map(job -> JobViews.checkpoints(job, state.history(job),
                id -> state.progress(jobId, id)));
    }

    public static Optional<ApiViews.Restore> latestCompleted(CoordinatorState state, String jobId) {
        Optional<JobState> job = state.job(jobId);
        Optional<RetainedCheckpoints> retained = state.retained(jobId);
        if (job.isEmpty() || retained.isEmpty()) {
            return Optional.empty();
        }
        return JobViews.latestCompleted(retained.get(), (j, id) -> subtaskStates(state, retained.get(), j, id));
    }

    /** As the live API: the checkpoint's acks and the final states of the subtasks it counts as finished. */
    private static List<CheckpointAcknowledged> subtaskStates(CoordinatorState state,
            RetainedCheckpoints retained, String jobId, long checkpointId) {
        List<CheckpointAcknowledged> acks = state.acks(jobId, checkpointId);
        Optional<CheckpointCompleted> completed = retained.getCheckpoints().stream()
                .filter(c -> c.getCheckpointId() == checkpointId).findFirst();
        return completed.map(c -> RestoreParts.statesOf(c, acks, () -> state.finished(jobId),
                taskId -> state.vertex(jobId, taskId))).orElse(acks);
    }
}
