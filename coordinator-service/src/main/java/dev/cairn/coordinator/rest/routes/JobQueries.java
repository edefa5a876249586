package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.views.ApiViews;
import dev.cairn.core.views.JobViews;
import dev.cairn.core.views.RequestViews;
import dev.cairn.core.views.SavepointViews;
import dev.cairn.core.views.StateViews;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import java.util.List;
import java.util.Optional;

/**
 * Answers each GET endpoint from the stores of the instance that owns the job, or fails with a 404 that
 * says what is missing. The cost of a query is one point read of the job (and one of its spec for the job and
 * for one checkpoint), plus for one checkpoint a scan of its acks and, for the subtasks that have not
 * acknowledged, one point read each.
 */
final class JobQueries {

    private JobQueries() {
    }

    static ApiViews.Job job(CoordinatorState stores, String jobId) {
        return JobViews.job(existing(stores, jobId), spec(stores, jobId));
    }

    static ApiViews.CheckpointStats checkpoints(CoordinatorState stores, String jobId) {
        JobState job = existing(stores, jobId);
        return JobViews.checkpoints(job, stores.history(job), id -> stores.progress(jobId, id));
    }

    static ApiViews.CheckpointDetail checkpoint(CoordinatorState stores, String jobId, long checkpointId) {
        JobState job = existing(stores, jobId);
        Optional<PendingCheckpoint> pending = job.getPending().stream()
                .filter(p -> p.getCheckpointId() == checkpointId).findFirst();
        Optional<CheckpointSummary> ended = job.getHistoryIds().contains(checkpointId)
                ? stores.summary(jobId, checkpointId) : Optional.empty();
        if (pending.isEmpty() && ended.isEmpty()) {
            throw ApiException.notFound(whyNotFound(job, checkpointId));
        }
        ApiViews.Checkpoint checkpoint = pending
                .map(p -> JobViews.pending(p, stores.progress(jobId, checkpointId)))
                .orElseGet(() -> JobViews.ended(ended.get()));
        JobSpec spec = spec(stores, jobId);
        List<CheckpointAcknowledged> acks = stores.acks(jobId, checkpointId);
        boolean completed = ended.map(s -> s.getStatus() == CheckpointStatus.COMPLETED).orElse(false);
        List<ApiViews.SubtaskRef> missing = completed ? List.of()
                : JobViews.unacknowledged(spec, acks).stream()
                        .filter(m -> stores.finished(jobId, m.taskId(), m.index()).isEmpty())
                        .map(m -> current(stores, jobId, m))
                        .toList();
        return JobViews.detail(checkpoint, spec, acks, missing);
    }

    /** {@code missing} with the subtask's current attempt and the host it runs on: one point read. */
    private static ApiViews.SubtaskRef current(CoordinatorState stores, String jobId, ApiViews.SubtaskRef missing) {
        Optional<CurrentAttempt> attempt = stores.currentAttempt(jobId, missing.taskId(), missing.index());
        return new ApiViews.SubtaskRef(missing.taskId(), missing.index(),
                attempt.map(CurrentAttempt::getAttemptId).orElse(null),
                attempt.map(CurrentAttempt::getHost).orElse(null));
    }

    static ApiViews.Restore latestCompleted(CoordinatorState stores, String jobId) {
        existing(stores, jobId);
        return StateViews.latestCompleted(stores, jobId)
                .orElseThrow(() -> ApiException.notFound("job '" + jobId + "' has no completed checkpoint yet"));
    }

    /** {@code GET /jobs/{jobId}/savepoints}: one point read of the job, of its savepoints and of its retained list. */
    static SavepointViews.Savepoints savepoints(CoordinatorState stores, String jobId) {
        existing(stores, jobId);
        return SavepointViews.savepoints(stores, jobId);
    }

    /** {@code GET /jobs/{jobId}/checkpoints/config}: one point read of the job. */
    static ApiViews.Config config(CoordinatorState stores, String jobId) {
        return JobViews.config(existing(stores, jobId).getConfig());
    }

    /**
     * The status of one trigger request of the job: one point read of the job, one of the request's record, and
     * for an unknown request one of the job's request index (to say how many it keeps).
     */
    static ApiViews.Operation request(CoordinatorState stores, String jobId, String requestId, boolean savepointPath) {
        JobState job = existing(stores, jobId);
        return RequestViews.status(job, requestId, stores.request(jobId, requestId), savepointPath)
                .orElseThrow(() -> ApiException.notFound("request '" + requestId + "' of job '" + jobId
                        + "' is unknown to the coordinator: never sent, not processed yet, or older than the newest "
                        + "requests whose outcomes it keeps for the job ("
                        + stores.requestIndex(jobId).map(i -> i.getRequestIds().size()).orElse(0) + " kept now)"));
    }

    /** The job; 404 for an unknown job, naming when and by which request it was removed if it was. */
    static JobState existing(CoordinatorState stores, String jobId) {
        return stores.job(jobId).orElseThrow(() -> ApiException.notFound(StateViews.removal(stores, jobId)
                .map(removal -> removal + "; its journal keeps its history (cairn audit)")
                .orElse("job '" + jobId + "' does not exist (never registered)")));
    }

    /** The spec of a job that exists: registered together with its state. */
    private static JobSpec spec(CoordinatorState stores, String jobId) {
        return stores.spec(jobId)
                .orElseThrow(() -> new IllegalStateException("job '" + jobId + "' has a state but no spec"));
    }

    private static String whyNotFound(JobState job, long checkpointId) {
        String prefix = "checkpoint " + checkpointId + " of job '" + job.getJobId() + "' ";
        if (checkpointId >= job.getNextCheckpointId() || checkpointId < 1) {
            long last = job.getNextCheckpointId() - 1;
            String sofar = last < 1 ? "no checkpoint was triggered yet" : "ids so far: 1.." + last;
            return prefix + "was never triggered (" + sofar + ")";
        }
        List<Long> history = job.getHistoryIds();
        String kept = history.isEmpty() ? "none" : history.get(0) + ".." + history.get(history.size() - 1);
        return prefix + "is neither pending nor in the bounded history any more (history holds ids " + kept + ")";
    }
}
