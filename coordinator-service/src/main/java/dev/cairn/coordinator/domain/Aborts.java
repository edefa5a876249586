package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Set;

/**
 * Aborting pending checkpoints and dropping queued requests, with the failure manager (Flink:
 * CheckpointFailureManager): only some reasons count, each checkpoint id at most once, ids up to
 * the last success are ignored, savepoints never count; past {@code tolerableFailures} the job fails.
 */
final class Aborts {

    /** The reasons that feed the consecutive failure counter. */
    static final Set<CheckpointFailureReason> COUNTED = EnumSet.of(
            CheckpointFailureReason.CHECKPOINT_EXPIRED,
            CheckpointFailureReason.CHECKPOINT_DECLINED,
            CheckpointFailureReason.IO_EXCEPTION,
            CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION,
            CheckpointFailureReason.FINALIZE_CHECKPOINT_FAILURE);

    private Aborts() {
    }

    static void abort(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message) {
        JobState job = d.job(jobId);
        d.emit(CheckpointAborted.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(pending.getCheckpointId())
                .setType(pending.getType())
                .setReason(reason)
                .setMessage(message)
                .setLatestCompletedId(job.getLatestCompletedId())
                .setTimestampMs(d.now)
                .build());
        if (pending.getRequestId() != null) {
            d.outcome(jobId, pending.getRequestId(), RequestStatus.FAILED, reason, message, pending.getCheckpointId());
        }
        countFailure(d, jobId, pending.getCheckpointId(), pending.getType(), reason);
    }

    static void abortAllPending(Decision d, String jobId, CheckpointFailureReason reason, String message) {
        for (PendingCheckpoint pending : new ArrayList<>(d.job(jobId).getPending())) {
            abort(d, jobId, pending, reason, message);
        }
    }

    static void drop(Decision d, String jobId, QueuedRequest request, CheckpointFailureReason reason,
            String message) {
        d.emit(RequestDequeued.newBuilder()
                .setJobId(jobId)
                .setSequence(request.getSequence())
                .setRequestId(request.getRequestId())
                .setPeriodic(request.getPeriodic())
                .setReason(reason)
                .setMessage(message)
                .setTimestampMs(d.now)
                .build());
        if (request.getRequestId() != null) {
            d.outcome(jobId, request.getRequestId(), RequestStatus.FAILED, reason, message, null);
        }
    }

    static void dropAllQueued(Decision d, String jobId, CheckpointFailureReason reason, String message) {
        for (QueuedRequest request : new ArrayList<>(d.job(jobId).getQueue())) {
            drop(d, jobId, request, reason, message);
        }
    }

    private static void countFailure(Decision d, String jobId, long checkpointId, CheckpointType type,
            CheckpointFailureReason reason) {
        JobState job = d.job(jobId);
        if (type == CheckpointType.SAVEPOINT || !COUNTED.contains(reason)
                || checkpointId <= job.getLastSucceededId() || job.getCountedFailureIds().contains(checkpointId)) {
            return;
        }
        int failures = job.getConsecutiveFailures() + 1;
        d.emit(CheckpointFailureCounted.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(checkpointId)
                .setReason(reason)
                .setConsecutiveFailures(failures)
                .setTimestampMs(d.now)
                .build());
        int tolerable = job.getConfig().getTolerableFailures();
        if (failures > tolerable) {
            d.emit(JobFailed.newBuilder()
                    .setJobId(jobId)
                    .setCause("Exceeded checkpoint tolerable failure threshold: " + failures
                            + " consecutive failures, the latest " + reason + " of checkpoint " + checkpointId)
                    .setConsecutiveFailures(failures)
                    .setTolerableFailures(tolerable)
                    .setTimestampMs(d.now)
                    .build());
        }
    }
}
