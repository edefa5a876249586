package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.TaskVertices;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.JobFailed;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.RetainedCheckpoints;
import java.util.List;
import java.util.Optional;

/**
 * A subtask could not restore the job's restore point (a missing or corrupt state object): the job falls back to the
 * previous retained checkpoint (Flink: recovery from an older retained checkpoint when the latest cannot be read).
 * In: the subtask's {@link RestoreFailed}. Out: that report, then, when the report is about the newest retained entry
 * and an older one exists, the pending checkpoints aborted and a {@link RestorePointRejected} naming the fallback (the
 * job's restore point from now on); with no older entry, a {@link JobFailed} saying why the job cannot restore. A
 * report about a point that is no longer the restore point (a restarted subtask that read it before the fallback)
 * changes nothing.
 */
final class RestoreFallbacks {

    private RestoreFallbacks() {
    }

    static void failed(Decision d, Command command, RestoreFailed failed) {
        String jobId = failed.getJobId();
        if (!TaskVertices.hasSubtask(d.state.vertex(jobId, failed.getTaskId()), failed.getSubtaskIndex())) {
            d.reject(jobId, command, "unknown task " + failed.getTaskId() + " subtask " + failed.getSubtaskIndex());
            return;
        }
        Optional<String> running = d.state.attempt(jobId, failed.getTaskId(), failed.getSubtaskIndex());
        if (running.isEmpty() || !running.get().equals(failed.getAttemptId())) {
            d.reject(jobId, command, "attempt " + failed.getAttemptId() + " of task " + failed.getTaskId()
                    + " subtask " + failed.getSubtaskIndex() + " is not the running one (" + running.orElse("none "
                    + "started") + "): its report about checkpoint " + failed.getCheckpointId() + " changes nothing");
            return;
        }
        List<CheckpointCompleted> retained = d.state.retained(jobId).map(RetainedCheckpoints::getCheckpoints)
                .orElse(List.of());
        if (retained.isEmpty() || retained.get(retained.size() - 1).getCheckpointId() != failed.getCheckpointId()) {
            d.reject(jobId, command, "checkpoint " + failed.getCheckpointId() + " is not the restore point of job "
                    + jobId + " (" + (retained.isEmpty() ? "it has none" : retained.get(retained.size() - 1)
                    .getCheckpointId() + " is") + "): a report about it changes nothing");
            return;
        }
        d.emit(failed);
        String what = "checkpoint " + failed.getCheckpointId() + " of job " + jobId + " cannot be restored by task "
                + failed.getTaskId() + " subtask " + failed.getSubtaskIndex() + ": " + failed.getMessage();
        if (retained.size() < 2) {
            JobState job = d.job(jobId);
            d.emit(JobFailed.newBuilder()
                    .setJobId(jobId)
                    .setCause(what + "; no older retained checkpoint is left to fall back to (retain more than one "
                            + "checkpoint to have one)")
                    .setConsecutiveFailures(job.getConsecutiveFailures())
                    .setTolerableFailures(job.getConfig().getTolerableFailures())
                    .setTimestampMs(d.now)
                    .build());
            return;
        }
        CheckpointCompleted fallback = retained.get(retained.size() - 2);
        String message = what + "; the job falls back to " + (fallback.getType().name().equals("SAVEPOINT")
                ? "savepoint " : "checkpoint ") + fallback.getCheckpointId();
        Aborts.abortAllPending(d, jobId, CheckpointFailureReason.JOB_FAILOVER_REGION, message);
        d.emit(RestorePointRejected.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(failed.getCheckpointId())
                .setFallback(fallback)
                .setTaskId(failed.getTaskId())
                .setSubtaskIndex(failed.getSubtaskIndex())
                .setAttemptId(failed.getAttemptId())
                .setMessage(message)
                .setTimestampMs(d.now)
                .build());
    }
}
