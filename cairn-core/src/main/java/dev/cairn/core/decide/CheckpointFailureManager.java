package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.events.SnapshotKinds;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a failed checkpoint means for its job, after Flink's
 * {@code org.apache.flink.runtime.checkpoint.CheckpointFailureManager}. In: an aborted pending checkpoint, its
 * reason, and whether a task reported it; out: a {@code CheckpointFailureCounted}, a {@code JobFailed}, or nothing.
 * Only some reasons count ({@link #COUNTED}), each checkpoint id at most once, ids up to the last success are
 * ignored; past {@code tolerableFailures} the job fails. A failure is task-level when a task declined with a reason
 * that is not a pre-flight one ({@link #PRE_FLIGHT}); every other failure (expiry, a task restart, subsumption,
 * suspension, a participant's decline) is job-level. Job-level failures of savepoints are not counted; task-level
 * ones are, except that a task-level failure of a stop-with-savepoint fails the job at once. A failed
 * stop-with-savepoint resumes the periodic trigger of a job still RUNNING.
 */
final class CheckpointFailureManager {

    /**
     * The reasons that feed the consecutive failure counter (Flink's current list: FINALIZE_CHECKPOINT_FAILURE no
     * longer counts).
     */
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

    private CheckpointFailureManager() {
    }

    /** Weighs the failure of {@code pending}, just aborted for {@code reason}; {@code byTask} when a task declined. */
    static void handle(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message, boolean byTask) {
        JobState job = d.job(jobId);
        boolean taskLevel = byTask && !PRE_FLIGHT.contains(reason);
        boolean savepoint = pending.getType() == CheckpointType.SAVEPOINT;
        if (savepoint && SnapshotKinds.isSynchronous(pending.getOptions())) {
            if (taskLevel) {
                failJob(d, jobId, "Stop-with-savepoint " + pending.getCheckpointId() + " failed: " + reason + " ("
                        + message + ")", job.getConsecutiveFailures());
            }
            JobStatuses.resumePeriodic(d, jobId);
        } else if (taskLevel || !savepoint) {
            countFailure(d, jobId, pending.getCheckpointId(), reason);
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
