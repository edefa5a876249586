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
 */
public record TaskAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) implements SidecarIdentity {

    public TaskAttempt {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(attemptId, "attemptId");
        if (subtaskIndex < 0) {
            throw new IllegalArgumentException("subtaskIndex must be >= 0, was " + subtaskIndex);
        }
    }

    @Override
    public String toString() {
        return "task " + taskId + " subtask " + subtaskIndex + " of job " + jobId + " (attempt " + attemptId + ")";
    }
}
