package dev.cairn.core.decide;

import dev.cairn.core.rules.SnapshotOptionsRules;
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
 * CheckpointFailureManager): only some reasons count ({@link #COUNTED}), each checkpoint id at most once, ids
 * up to the last success are ignored; past {@code tolerableFailures} the job fails. A failure is task-level when
 * a task declined with a reason that is not a pre-flight one ({@link #PRE_FLIGHT}); every other failure
 * (expiry, a task restart, subsumption, suspension, a participant's decline) is job-level. Job-level failures of
 * savepoints are not counted; task-level ones are, except that a task-level failure of a stop-with-savepoint
 * fails the job at once. A failed stop-with-savepoint resumes the periodic trigger of a job still RUNNING.
 */
final class Aborts {

    /** The reasons that feed the consecutive failure counter (Flink's current list: FINALIZE_CHECKPOINT_FAILURE no longer counts). */
    static final Set<CheckpointFailureReason> COUNTED = EnumSet.of(
            CheckpointFailureReason.CHECKPOINT_EXPIRED,
            CheckpointFailureReason.CHECKPOINT_DECLINED,
            CheckpointFailureReason.IO_EXCEPTION,
            CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);

    /** Reasons Flink calls pre-flight: a failure for one of them is job-level even when a task reports it. */
    static final Set<CheckpointFailureReason> PRE_FLIGHT = EnumSet.of(
            CheckpointFailureReason.PERIODIC_SCHEDULER_SHUTDOWN,
            CheckpointFailureReason.TOO_MANY_CHECKPOINT_REQUESTS,
            CheckpointFailureReason.MINIMUM_TIME_BETWEEN_CHECKPOINTS,
            CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING,
            CheckpointFailureReason.IO_EXCEPTION,
            CheckpointFailureReason.BLOCKING_OUTPUT_EXIST);

    private Aborts() {
    }

    /** A job-level failure: the coordinator's own decision, or a report that names no failing task. */
    static void abort(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message) {
        abort(d, jobId, pending, reason, message, false);
    }

    /** A task declined the checkpoint. */
    static void abortByTask(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message) {
        abort(d, jobId, pending, reason, message, true);
    }

    private static void abort(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message, boolean byTask) {
        JobState job = d.job(jobId);
        d.emit(CheckpointAborted.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(pending.getCheckpointId())
                .setType(pending.getType())
                .setReason(reason)
                .setMessage(message)
                .setLatestCompletedId(job.getLatestCompletedId())
                .setTimestampMs(d.now)
                .setOptions(pending.getOptions())
                .build());
        if (pending.getRequestId() != null) {
            d.outcome(jobId, pending.getRequestId(), RequestStatus.FAILED, reason, message, pending.getCheckpointId());
        }
        boolean taskLevel = byTask && !PRE_FLIGHT.contains(reason);
        boolean savepoint = pending.getType() == CheckpointType.SAVEPOINT;
        if (savepoint && SnapshotOptionsRules.isSynchronous(pending.getOptions())) {
            if (taskLevel) {
                failJob(d, jobId, "Stop-with-savepoint " + pending.getCheckpointId() + " failed: " + reason + " ("
                        + message + ")", job.getConsecutiveFailures());
            }
            JobStatuses.resumePeriodic(d, jobId);
        } else if (taskLevel || !savepoint) {
            countFailure(d, jobId, pending.getCheckpointId(), reason);
        }
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
        RequestQueue.failed(d, jobId, request, reason, message);
    }

    static void dropAllQueued(Decision d, String jobId, CheckpointFailureReason reason, String message) {
        for (QueuedRequest request : new ArrayList<>(d.job(jobId).getQueue())) {
            drop(d, jobId, request, reason, message);
        }
    }

    private static void countFailure(Decision d, String jobId, long checkpointId, CheckpointFailureReason reason) {
        JobState job = d.job(jobId);
        if (!COUNTED.contains(reason) || checkpointId <= job.getLastSucceededId()
                || job.getCountedFailureIds().contains(checkpointId)) {
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
        if (failures > job.getConfig().getTolerableFailures()) {
            failJob(d, jobId, "Exceeded checkpoint tolerable failure threshold: " + failures
                    + " consecutive failures, the latest " + reason + " of checkpoint " + checkpointId, failures);
        }
    }

    private static void failJob(Decision d, String jobId, String cause, int failures) {
        d.emit(JobFailed.newBuilder()
                .setJobId(jobId)
                .setCause(cause)
                .setConsecutiveFailures(failures)
                .setTolerableFailures(d.job(jobId).getConfig().getTolerableFailures())
                .setTimestampMs(d.now)
                .build());
    }
}
