package dev.cairn.sidecar.core;

import java.util.Objects;

/**
 * Who a sidecar stands for: one attempt of one subtask of a job. The attempt id is fresh for every start of
 * the sidecar; the coordinator plans each checkpoint with the attempt it last heard of for every subtask.
 *
 * @param jobId the job (the key of every Cairn topic)
 * @param taskId the task (a vertex of the job's plan)
 * @param subtaskIndex the subtask, from 0
 * @param attemptId this attempt's id, announced with {@code TaskStarted}
 * @param host the host it runs on, announced with {@code TaskStarted}; {@code null}: not named
 */
public record TaskAttempt(String jobId, String taskId, int subtaskIndex, String attemptId, String host)
        implements SidecarIdentity {

    public TaskAttempt {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(attemptId, "attemptId");
        if (subtaskIndex < 0) {
            throw new IllegalArgumentException("subtaskIndex must be >= 0, was " + subtaskIndex);
        }
    }

    /** An attempt that names no host. */
    public TaskAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        this(jobId, taskId, subtaskIndex, attemptId, null);
    }

    @Override
    public String toString() {
        return "task " + taskId + " subtask " + subtaskIndex + " of job " + jobId + " (attempt " + attemptId
                + (host == null ? "" : " on " + host) + ")";
    }
}
