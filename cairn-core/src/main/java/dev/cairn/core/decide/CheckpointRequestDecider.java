package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.contract.SnapshotOptionsRules;
import dev.cairn.core.events.SnapshotKinds;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobStatus;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TriggerFailed;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import java.util.Optional;

/**
 * The single entry point of periodic, manual and savepoint requests, after Flink's
 * {@code org.apache.flink.runtime.checkpoint.CheckpointRequestDecider} (and the trigger path of its
 * {@code CheckpointCoordinator}): queueing with a bounded capacity, choosing what runs, and triggering it. In: a
 * request or a tick on a {@link Decision}; out: the queue's events ({@code RequestQueued}, {@code RequestDequeued},
 * {@code TriggerFailed}, ...) and the triggers ({@link Triggers}).
 */
final class CheckpointRequestDecider {

    private CheckpointRequestDecider() {
    }

    /** Whether a request with that id is queued, pending or in the history: re-sending it changes nothing. */
    static boolean isKnownRequest(JobState job, String requestId) {
        return job.getQueue().stream().anyMatch(r -> requestId.equals(r.getRequestId()))
                || job.getPending().stream().anyMatch(p -> requestId.equals(p.getRequestId()))
                || job.getHistoryRequestIds().contains(requestId);
    }

    /**
     * Queues a manual request with its options resolved. A stop-with-savepoint first stops the periodic trigger
     * and aborts what is pending and queued (Flink: stopCheckpointScheduler before triggerSynchronousSavepoint);
     * only one stop may be in progress.
     */
    static void submitManual(Decision d, TriggerRequest request) {
        String jobId = request.getJobId();
        JobState job = d.job(jobId);
        if (job.getStatus() != JobStatus.RUNNING) {
            d.outcome(jobId, request.getRequestId(), RequestStatus.FAILED,
                    CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND,
                    "Job " + jobId + " is " + job.getStatus() + ", not RUNNING", null);
            return;
        }
        Optional<String> invalid = SnapshotOptionsRules.problem(request);
        if (invalid.isPresent()) {
            d.outcome(jobId, request.getRequestId(), RequestStatus.FAILED, CheckpointFailureReason.INVALID_REQUEST,
                    invalid.get(), null);
            return;
        }
        PostCheckpointAction action = SnapshotOptionsRules.postAction(request);
        if (action != PostCheckpointAction.NONE) {
            if (isStopping(job)) {
                d.outcome(jobId, request.getRequestId(), RequestStatus.FAILED,
                        CheckpointFailureReason.INVALID_REQUEST,
                        "A stop-with-savepoint of job " + jobId + " is already in progress", null);
                return;
            }
            String why = "Stop-with-savepoint " + request.getRequestId() + " of job " + jobId
                    + " stops the checkpoint scheduler";
            JobStatuses.stopPeriodic(d, jobId);
            Aborts.abortAllPending(d, jobId, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND, why);
            Aborts.dropAllQueued(d, jobId, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND, why);
        }
        boolean savepoint = request.getType() == CheckpointType.SAVEPOINT;
        enqueue(d, jobId, QueuedRequest.newBuilder()
                .setSequence(d.job(jobId).getNextRequestSequence())
                .setRequestId(request.getRequestId())
                .setType(request.getType())
                .setForce(SnapshotOptionsRules.forced(job.getConfig(), request))
                .setPeriodic(false)
                .setTargetLocation(savepoint ? request.getTargetLocation() : null)
                .setTimestampMs(d.now)
                .setRequestedOptions(request.getOptions())
                .setPostCheckpointAction(action == PostCheckpointAction.NONE ? null : action)
                .build());
    }

    /** Whether a stop-with-savepoint of the job is queued or pending. */
    static boolean isStopping(JobState job) {
        return job.getQueue().stream().anyMatch(CheckpointRequestDecider::isStop)
                || job.getPending().stream().anyMatch(p -> SnapshotKinds.isSynchronous(p.getOptions()));
    }

    /** Whether a queued request is a stop-with-savepoint. */
    private static boolean isStop(QueuedRequest request) {
        return request.getPostCheckpointAction() != null
                && request.getPostCheckpointAction() != PostCheckpointAction.NONE;
    }

    /**
     * A queued request failed before it became a pending checkpoint: its requester is told (a periodic request has
     * no id and no outcome to keep), and a failed stop-with-savepoint gives a still running job its periodic
     * trigger back (Flink: every failure of a stop ends in StopWithSavepointTerminationHandlerImpl
     * #terminateExceptionally, which restarts the checkpoint scheduler).
     */
    static void failed(Decision d, String jobId, QueuedRequest request, CheckpointFailureReason reason,
            String message) {
        if (request.getRequestId() != null) {
            d.outcome(jobId, request.getRequestId(), RequestStatus.FAILED, reason, message, null);
        }
        if (isStop(request)) {
            JobStatuses.resumePeriodic(d, jobId);
        }
    }

    static void submitPeriodic(Decision d, String jobId) {
        JobState job = d.job(jobId);
        if (job.getStatus() != JobStatus.RUNNING) {
            d.emit(TriggerFailed.newBuilder()
                    .setJobId(jobId)
                    .setType(CheckpointType.CHECKPOINT)
                    .setPeriodic(true)
                    .setReason(CheckpointFailureReason.PERIODIC_SCHEDULER_SHUTDOWN)
                    .setMessage("Periodic checkpoint scheduler of job " + jobId + " is shut down")
                    .setTimestampMs(d.now)
                    .build());
            return;
        }
        enqueue(d, jobId, QueuedRequest.newBuilder()
                .setSequence(job.getNextRequestSequence())
                .setType(CheckpointType.CHECKPOINT)
                .setForce(false)
                .setPeriodic(true)
                .setTimestampMs(d.now)
                .build());
    }

    /**
     * Full queue: a new manual request is rejected if the lowest queued one is manual; otherwise the
     * new request is queued and the lowest one (periodic, possibly the new one) is evicted.
     */
    private static void enqueue(Decision d, String jobId, QueuedRequest request) {
        List<QueuedRequest> queue = d.job(jobId).getQueue();
        String tooMany = "Too many queued checkpoint requests for job " + jobId + " (capacity "
                + d.settings.maxQueuedRequests() + ")";
        if (queue.size() >= d.settings.maxQueuedRequests() && !request.getPeriodic()
                && !queue.get(queue.size() - 1).getPeriodic()) {
            d.outcome(jobId, request.getRequestId(), RequestStatus.FAILED,
                    CheckpointFailureReason.TOO_MANY_CHECKPOINT_REQUESTS, tooMany, null);
            return;
        }
        d.emit(RequestQueued.newBuilder()
                .setJobId(jobId)
                .setRequestId(request.getRequestId())
                .setType(request.getType())
                .setForce(request.getForce())
                .setPeriodic(request.getPeriodic())
                .setTargetLocation(request.getTargetLocation())
                .setSequence(request.getSequence())
                .setTimestampMs(request.getTimestampMs())
                .setRequestedOptions(request.getRequestedOptions())
                .setPostCheckpointAction(request.getPostCheckpointAction())
                .build());
        List<QueuedRequest> after = d.job(jobId).getQueue();
        if (after.size() > d.settings.maxQueuedRequests()) {
            Aborts.drop(d, jobId, after.get(after.size() - 1), CheckpointFailureReason.TOO_MANY_CHECKPOINT_REQUESTS,
                    tooMany);
        }
    }

    /** Runs queued requests, head first, until the head cannot run. */
    static void run(Decision d, String jobId) {
        while (true) {
            JobState job = d.job(jobId);
            if (job.getStatus() != JobStatus.RUNNING || job.getQueue().isEmpty()) {
                return;
            }
            QueuedRequest head = job.getQueue().get(0);
            boolean full = job.getPending().size() >= job.getConfig().getMaxConcurrent();
            if (full && !head.getForce()) {
                return;
            }
            if (!head.getForce() && head.getPeriodic() && job.getLastCompletionMs() != null) {
                long remaining = job.getLastCompletionMs() + job.getConfig().getMinPauseMs() - d.now;
                if (remaining > 0) {
                    Aborts.drop(d, jobId, head, CheckpointFailureReason.MINIMUM_TIME_BETWEEN_CHECKPOINTS,
                            "Minimum pause between checkpoints of job " + jobId + " not passed: " + remaining
                                    + " ms remaining");
                    d.emit(PeriodicTriggerScheduled.newBuilder()
                            .setJobId(jobId)
                            .setDueAtMs(d.now + remaining)
                            .setTimestampMs(d.now)
                            .build());
                    return;
                }
            }
            d.emit(RequestDequeued.newBuilder()
                    .setJobId(jobId)
                    .setSequence(head.getSequence())
                    .setRequestId(head.getRequestId())
                    .setPeriodic(head.getPeriodic())
                    .setTimestampMs(d.now)
                    .build());
            Triggers.trigger(d, jobId, head);
        }
    }

    /** Pending checkpoints at or past their timeout, oldest first. */
    static List<PendingCheckpoint> expired(JobState job, long now) {
        return job.getPending().stream().filter(p -> p.getTimeoutAtMs() <= now).toList();
    }
}
