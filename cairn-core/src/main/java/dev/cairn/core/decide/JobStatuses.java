package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PeriodicTriggerStopped;

/**
 * A job entering or leaving RUNNING, asked for by a user or decided by the coordinator (FINISHED after a
 * stop-with-savepoint or when every task finished): leaving stops the periodic trigger, aborts what is pending
 * and drops what is queued; entering schedules the first periodic trigger and runs the queue.
 */
final class JobStatuses {

    private JobStatuses() {
    }

    /**
     * @param initialDelayFraction in [0, 1): where in [minPause, interval] the first periodic trigger falls when
     *     the job enters RUNNING
     * @param why the message of what leaving RUNNING aborts and drops; null says the status it left for
     */
    static void change(Decision d, String jobId, JobStatus status, double initialDelayFraction, String why) {
        JobState job = d.job(jobId);
        if (job.getStatus() == status) {
            return;
        }
        d.emit(JobStatusChange.newBuilder().setJobId(jobId).setStatus(status).setTimestampMs(d.now).build());
        if (job.getStatus() == JobStatus.RUNNING) {
            String message = why != null ? why : "job " + jobId + " left RUNNING for " + status;
            stopPeriodic(d, jobId);
            Aborts.abortAllPending(d, jobId, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND, message);
            Aborts.dropAllQueued(d, jobId, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND, message);
        } else if (status == JobStatus.RUNNING) {
            schedule(d, jobId, d.now + JobSpecs.initialDelayMs(job.getConfig(), initialDelayFraction));
            CheckpointRequestDecider.run(d, jobId);
        }
    }

    /** Stops the periodic trigger of the job if it is scheduled (Flink: stopCheckpointScheduler). */
    static void stopPeriodic(Decision d, String jobId) {
        if (d.job(jobId).getNextPeriodicDueMs() != null) {
            d.emit(PeriodicTriggerStopped.newBuilder().setJobId(jobId).setTimestampMs(d.now).build());
        }
    }

    /**
     * Restarts a stopped periodic trigger of a running job one interval from now, after a stop-with-savepoint
     * failed (Flink: startCheckpointScheduler; Flink draws the delay at random, the decider takes no randomness
     * from a decline or a timeout, so it waits one full interval).
     */
    static void resumePeriodic(Decision d, String jobId) {
        JobState job = d.job(jobId);
        if (job.getStatus() == JobStatus.RUNNING && job.getNextPeriodicDueMs() == null) {
            schedule(d, jobId, d.now + JobSpecs.effectiveIntervalMs(job.getConfig()));
        }
    }

    static void schedule(Decision d, String jobId, long dueAtMs) {
        d.emit(PeriodicTriggerScheduled.newBuilder().setJobId(jobId).setDueAtMs(dueAtMs).setTimestampMs(d.now)
                .build());
    }
}
