package dev.cairn.core.evolve;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.FinishedTasks;
import dev.cairn.core.state.StateKeys.AttemptKey;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.state.TaskVertices;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import java.util.Optional;

/**
 * Keeps each subtask's current attempt and whether it finished for good, and the job's count of finished required
 * subtasks (see {@link FinishedTasks}): a {@link TaskStarted} replaces the current attempt, a {@link TaskFinished}
 * records the final state.
 */
final class SubtaskRecorder {

    private SubtaskRecorder() {
    }

    /**
     * The new attempt, on the host it named, replaces the current one; a finished subtask that starts again is no
     * longer finished.
     */
    static void started(CoordinatorState state, TaskStarted e) {
        state.putAttempt(e.getJobId(), e.getTaskId(), e.getSubtaskIndex(), e.getAttemptId(), e.getTimestampMs(),
                e.getHost());
        if (state.finished(e.getJobId(), e.getTaskId(), e.getSubtaskIndex()).isPresent()) {
            state.remove(StateTable.FINISHED, new AttemptKey(e.getJobId(), e.getTaskId(), e.getSubtaskIndex()));
            count(state, e.getJobId(), e.getTaskId(), e.getSubtaskIndex(), -1);
        }
    }

    /** Records that the subtask finished for good, with its final state. */
    static void finished(CoordinatorState state, TaskFinished e) {
        state.put(StateTable.FINISHED, new AttemptKey(e.getJobId(), e.getTaskId(), e.getSubtaskIndex()), e);
        count(state, e.getJobId(), e.getTaskId(), e.getSubtaskIndex(), 1);
    }

    /** Adds {@code delta} to the job's count of finished subtasks when the subtask is one the spec requires. */
    private static void count(CoordinatorState state, String jobId, String taskId, int subtaskIndex, int delta) {
        Optional<TaskVertex> vertex = state.vertex(jobId, taskId);
        if (TaskVertices.hasSubtask(vertex, subtaskIndex) && TaskVertices.isRequired(vertex.get())) {
            CheckpointEvolver.update(state, jobId, job -> job.setFinishedSubtasks(job.getFinishedSubtasks() + delta));
        }
    }
}
