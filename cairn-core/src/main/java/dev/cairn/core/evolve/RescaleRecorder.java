package dev.cairn.core.evolve;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RescaleJob;

/**
 * Keeps the rescale of a RUNNING job while its stop-with-savepoint runs ({@code JobState.pendingRescale}): set by the
 * request when the job is RUNNING, cleared when the job resumes ({@code JobRestored}) or the request fails.
 */
final class RescaleRecorder {

    private RescaleRecorder() {
    }

    static void requested(CoordinatorState state, RescaleJob e) {
        state.job(e.getJobId()).filter(job -> job.getStatus() == JobStatus.RUNNING)
                .ifPresent(job -> CheckpointEvolver.update(state, e.getJobId(), j -> j.setPendingRescale(e)));
    }

    static void outcome(CoordinatorState state, RequestOutcome e) {
        if (e.getStatus() == RequestStatus.FAILED) {
            clear(state, e.getJobId(), e.getRequestId());
        }
    }

    static void restored(CoordinatorState state, String jobId, String requestId) {
        clear(state, jobId, requestId);
    }

    private static void clear(CoordinatorState state, String jobId, String requestId) {
        state.job(jobId).filter(job -> job.getPendingRescale() != null
                        && job.getPendingRescale().getRequestId().equals(requestId))
                .ifPresent(job -> CheckpointEvolver.update(state, jobId, j -> j.setPendingRescale(null)));
    }
}
