package dev.cairn.core.state;

import dev.cairn.events.JobSpec;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import java.util.List;

/**
 * Subtasks that finished for good (Flink: checkpoints after tasks finish, FLIP-147). A finished subtask is not
 * triggered again and counts as acknowledged, with its final state if it has one: a checkpoint triggered after
 * it finished expects no ack from it and holds its final state; a checkpoint that was waiting for its ack takes
 * the final state as that ack. When every subtask the spec requires has finished, the job is FINISHED and
 * triggering stops. A new attempt of a finished subtask makes it run again. These are the counts and states both
 * the decider ({@code TaskAttempts}) and the evolver ({@code SubtaskRecorder}) read.
 */
public final class FinishedTasks {

    /** The state of a subtask that finished without one: nothing to restore. */
    public static final StateHandle NO_STATE = new StateHandle("", 0L, List.of(), null, null);

    private FinishedTasks() {
    }

    /** The final state the subtask finished with, {@link #NO_STATE} when it had none. */
    public static StateHandle finalState(TaskFinished finished) {
        return finished.getFinalState() != null ? finished.getFinalState() : NO_STATE;
    }

    /** How many subtasks of the spec must run for a trigger. */
    public static int required(JobSpec spec) {
        int required = 0;
        for (TaskVertex vertex : spec.getTasks()) {
            if (TaskVertices.isRequired(vertex)) {
                required += vertex.getParallelism();
            }
        }
        return required;
    }

    /** How many of the spec's required subtasks have finished: one lookup each, done once per registration. */
    public static int countFinished(CoordinatorState state, JobSpec spec) {
        int finished = 0;
        for (TaskVertex vertex : spec.getTasks()) {
            if (!TaskVertices.isRequired(vertex)) {
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
}
