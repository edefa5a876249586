package dev.cairn.coordinator.domain;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.Optional;

/**
 * Subtasks that finished for good (Flink: checkpoints after tasks finish, FLIP-147). A finished subtask is not
 * triggered again and counts as acknowledged, with its final state if it has one: a checkpoint triggered after
 * it finished expects no ack from it and holds its final state; a checkpoint that was waiting for its ack takes
 * the final state as that ack. When every subtask the spec requires has finished, the job is FINISHED and
 * triggering stops. A new attempt of a finished subtask makes it run again.
 */
final class FinishedTasks {

    /** The state of a subtask that finished without one: nothing to restore. */
    static final StateHandle NO_STATE = new StateHandle("", 0L);

    private FinishedTasks() {
    }

    static void finish(Decision d, Command command, TaskFinished finished) {
        String jobId = finished.getJobId();
        Optional<TaskVertex> vertex = d.state.vertex(jobId, finished.getTaskId());
        if (!JobSpecs.hasSubtask(vertex, finished.getSubtaskIndex())) {
            d.reject(jobId, command, "unknown task " + finished.getTaskId() + " subtask " + finished.getSubtaskIndex());
            return;
        }
        Optional<String> current = d.state.attempt(jobId, finished.getTaskId(), finished.getSubtaskIndex());
        if (current.isEmpty() || !current.get().equals(finished.getAttemptId())) {
            d.reject(jobId, command, "attempt " + finished.getAttemptId() + " of task " + finished.getTaskId()
                    + " subtask " + finished.getSubtaskIndex() + " is not the running one ("
                    + current.orElse("none started") + ")");
            return;
        }
        if (d.state.finished(jobId, finished.getTaskId(), finished.getSubtaskIndex()).isPresent()) {
            return;
        }
        d.emit(finished);
        if (vertex.get().getAcknowledges()) {
            acknowledgePending(d, finished);
        }
        JobState job = d.job(jobId);
        boolean ended = job.getStatus() == JobStatus.FINISHED || job.getStatus() == JobStatus.CANCELED
                || job.getStatus() == JobStatus.FAILED;
        if (!ended && job.getFinishedSubtasks() >= job.getRequiredSubtasks()) {
            JobStatuses.change(d, jobId, JobStatus.FINISHED, 0, "every task of job " + jobId + " finished");
        }
        RequestQueue.run(d, jobId);
    }

    /** The final state answers every pending checkpoint whose tasks were triggered and that still waits for it. */
    private static void acknowledgePending(Decision d, TaskFinished finished) {
        String jobId = finished.getJobId();
        for (PendingCheckpoint pending : new ArrayList<>(d.job(jobId).getPending())) {
            boolean stillPending = CheckpointEvolver.pending(d.job(jobId), pending.getCheckpointId()).isPresent();
            if (!stillPending || !Participants.tasksTriggered(pending) || d.state.ack(jobId, pending.getCheckpointId(),
                    finished.getTaskId(), finished.getSubtaskIndex()).isPresent()) {
                continue;
            }
            CheckpointAcknowledged ack = CheckpointAcknowledged.newBuilder()
                    .setJobId(jobId)
                    .setCheckpointId(pending.getCheckpointId())
                    .setTaskId(finished.getTaskId())
                    .setSubtaskIndex(finished.getSubtaskIndex())
                    .setAttemptId(finished.getAttemptId())
                    .setStateHandle(finalState(finished))
                    .setMetrics(SubtaskMetrics.newBuilder().build())
                    .setTimestampMs(d.now)
                    .build();
            TaskMessages.accept(d, jobId, pending, ack);
        }
    }

    static StateHandle finalState(TaskFinished finished) {
        return finished.getFinalState() != null ? finished.getFinalState() : NO_STATE;
    }

    /** How many subtasks of the spec must run for a trigger. */
    static int required(JobSpec spec) {
        int required = 0;
        for (TaskVertex vertex : spec.getTasks()) {
            if (JobSpecs.isRequired(vertex)) {
                required += vertex.getParallelism();
            }
        }
        return required;
    }

    /** How many of the spec's required subtasks have finished: one lookup each, done once per registration. */
    static int countFinished(CoordinatorState state, JobSpec spec) {
        int finished = 0;
        for (TaskVertex vertex : spec.getTasks()) {
            if (!JobSpecs.isRequired(vertex)) {
                continue;
            }
            for (int subtask = 0; subtask < vertex.getParallelism(); subtask++) {
                if (state.finished(spec.getJobId(), vertex.getTaskId(), subtask).isPresent()) {
                    finished++;
                }
            }
        }
        return finished;
    }

    /** Records that the subtask finished for good, with its final state. */
    static void evolve(CoordinatorState state, TaskFinished e) {
        state.putFinished(e);
        count(state, e.getJobId(), e.getTaskId(), e.getSubtaskIndex(), 1);
    }

    /** Adds {@code delta} to the job's count of finished subtasks when the subtask is one the spec requires. */
    static void count(CoordinatorState state, String jobId, String taskId, int subtaskIndex, int delta) {
        if (isRequiredSubtask(state, jobId, taskId, subtaskIndex)) {
            state.job(jobId).ifPresent(job -> {
                JobState next = Values.copy(job, JobState::new);
                next.setFinishedSubtasks(job.getFinishedSubtasks() + delta);
                state.putJob(next);
            });
        }
    }

    static boolean isRequiredSubtask(CoordinatorState state, String jobId, String taskId, int subtaskIndex) {
        Optional<TaskVertex> vertex = state.vertex(jobId, taskId);
        return JobSpecs.hasSubtask(vertex, subtaskIndex) && JobSpecs.isRequired(vertex.get());
    }
}
