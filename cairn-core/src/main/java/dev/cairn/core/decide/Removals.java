package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.RemovedJob;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * A user's removal of a job. Flink cleans up a job's checkpoints once the job reaches a globally terminal state and
 * never reuses a checkpoint id; Cairn keeps a job until a user removes it, and keeps its checkpoint id counter after.
 *
 * <p>In: a {@code RemoveJob}. The rule: a job is removed only when it is not RUNNING (FINISHED, CANCELED, FAILED or
 * SUSPENDED), and so has no checkpoint pending or queued (leaving RUNNING aborted and dropped them). A RUNNING job's
 * sidecars still checkpoint and acknowledge, and its state would go from under checkpoints they take to be pending;
 * it is refused, and the user stops it with a savepoint or cancels it first, as Flink asks for a job to end before
 * its resources go. Out: the request; then, for a job that may be removed, {@code JobRemoved}, whose evolve removes
 * every entry of the job from the stores and keeps only where its checkpoint counter got to, and the request's
 * COMPLETED outcome naming the newest id the job used; else the FAILED outcome with the reason (the job is RUNNING,
 * unknown, or removed already). What a removal sends to {@code cairn.completed} is {@link RestorePointRecords}'s. A
 * request id the job knows already, or the one that removed it, changes nothing.
 */
final class Removals {

    private Removals() {
    }

    static void remove(Decision d, Command.Remove command) {
        RemoveJob request = command.event();
        String jobId = request.getJobId();
        String requestId = request.getRequestId();
        if (requestId == null || requestId.isBlank()) {
            d.reject(jobId, command, "request id is empty");
            return;
        }
        Optional<JobState> job = d.state.job(jobId);
        if (job.isEmpty()) {
            if (d.state.removed(jobId).filter(r -> r.getRequestId().equals(requestId)).isEmpty()) {
                d.emit(request);
                Restores.fail(d, jobId, requestId, unknownJob(d.state, jobId));
            }
            return;
        }
        if (d.state.request(jobId, requestId).isPresent()) {
            return;
        }
        d.emit(request);
        Optional<String> refused = refusal(job.get());
        if (refused.isPresent()) {
            Restores.fail(d, jobId, requestId, refused.get());
            return;
        }
        long next = job.get().getNextCheckpointId();
        d.emit(JobRemoved.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId)
                .setStatus(job.get().getStatus())
                .setNextCheckpointId(next)
                .setTimestampMs(d.now)
                .build());
        d.outcome(jobId, requestId, RequestStatus.COMPLETED, null, null, next > 1 ? next - 1 : null);
    }

    /** Why {@code job} cannot be removed now; empty when it can. */
    static Optional<String> refusal(JobState job) {
        String jobId = job.getJobId();
        if (job.getStatus() == JobStatus.RUNNING) {
            return Optional.of("job " + jobId + " is RUNNING: its tasks still checkpoint into its state; stop it with"
                    + " a savepoint (cairn stop, POST /jobs/" + jobId + "/stop) or cancel it (cairn status --status"
                    + " CANCELED) before removing it");
        }
        if (!job.getPending().isEmpty() || !job.getQueue().isEmpty()) {
            return Optional.of("job " + jobId + " is " + job.getStatus() + " but has " + job.getPending().size()
                    + " pending checkpoint(s) and " + job.getQueue().size() + " queued request(s)");
        }
        return Optional.empty();
    }

    /**
     * Why there is no job {@code jobId}, for a refusal: {@code unknown job <id>}, and when a job of that id was
     * removed, when and by which request.
     */
    static String unknownJob(CoordinatorState state, String jobId) {
        return "unknown job " + jobId + state.removed(jobId).map(Removals::describe).orElse("");
    }

    private static String describe(RemovedJob removed) {
        return ": it was removed at " + Instant.ofEpochMilli(removed.getRemovedAtMs()) + " (request "
                + removed.getRequestId() + "); registered again, it takes checkpoint ids from "
                + removed.getNextCheckpointId() + " on";
    }
}
