package dev.cairn.core.decide;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.FinishedTasks;
import dev.cairn.core.state.TaskVertices;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskRoles;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Who takes part in one checkpoint (Flink: DefaultCheckpointPlanCalculator), from the job's spec, its running
 * attempts and its finished subtasks; one lookup per subtask, once per trigger.
 * <ul>
 *   <li>Every required subtask that has not finished must have a running attempt, else the trigger fails.</li>
 *   <li>Finished subtasks are not triggered and count as acknowledged: they are not in {@code acksExpected};
 *       those of acknowledging vertices add their final states to {@code finishedSubtasks} and
 *       {@code finishedStateBytes}. A vertex whose subtasks all finished is left out of the roles.</li>
 *   <li>When every triggered vertex has finished, the acknowledging vertices that still run are triggered
 *       instead (Flink triggers the running tasks whose inputs all finished; Cairn has no edges, so it triggers
 *       every running acknowledging task).</li>
 * </ul>
 *
 * @param failure why no checkpoint can start, or null
 * @param roles the roles of the tasks whose roles differ from the default (all three true)
 */
record TriggerPlan(String failure, int acksExpected, List<TaskRoles> roles, int finishedSubtasks,
        long finishedStateBytes) {

    boolean failed() {
        return failure != null;
    }

    static TriggerPlan of(CoordinatorState state, JobSpec spec, boolean anyFinished) {
        String jobId = spec.getJobId();
        int acksExpected = 0;
        int finished = 0;
        long finishedBytes = 0;
        List<TaskVertex> running = new ArrayList<>();
        boolean anyTriggeredRuns = false;
        for (TaskVertex vertex : spec.getTasks()) {
            int runningSubtasks = 0;
            for (int subtask = 0; subtask < vertex.getParallelism(); subtask++) {
                Optional<TaskFinished> done = anyFinished ? state.finished(jobId, vertex.getTaskId(), subtask)
                        : Optional.empty();
                if (done.isPresent()) {
                    if (vertex.getAcknowledges()) {
                        finished++;
                        finishedBytes += FinishedTasks.finalState(done.get()).getSizeBytes();
                    }
                    continue;
                }
                runningSubtasks++;
                if (TaskVertices.isRequired(vertex) && state.attempt(jobId, vertex.getTaskId(), subtask).isEmpty()) {
                    return failure("Not all required tasks are currently running for job " + jobId + ": task "
                            + vertex.getTaskId() + " subtask " + subtask + " has no running attempt");
                }
            }
            if (runningSubtasks > 0) {
                running.add(vertex);
                anyTriggeredRuns |= vertex.getTriggered();
                if (vertex.getAcknowledges()) {
                    acksExpected += runningSubtasks;
                }
            }
        }
        if (!anyTriggeredRuns && acksExpected == 0) {
            return failure("Every task of job " + jobId + " that takes part in checkpoints has finished");
        }
        return new TriggerPlan(null, acksExpected, roles(running, anyTriggeredRuns), finished, finishedBytes);
    }

    /**
     * The roles of the running tasks that differ from the default; when no triggered task runs, the acknowledging
     * ones are triggered instead.
     */
    private static List<TaskRoles> roles(List<TaskVertex> running, boolean anyTriggeredRuns) {
        List<TaskRoles> roles = new ArrayList<>();
        for (TaskVertex vertex : running) {
            boolean triggered = vertex.getTriggered() || (!anyTriggeredRuns && vertex.getAcknowledges());
            if (!triggered || !vertex.getAcknowledges() || !vertex.getNotified()) {
                roles.add(new TaskRoles(vertex.getTaskId(), triggered, vertex.getAcknowledges(), vertex.getNotified()));
            }
        }
        return roles;
    }

    private static TriggerPlan failure(String message) {
        return new TriggerPlan(message, 0, List.of(), 0, 0);
    }
}
