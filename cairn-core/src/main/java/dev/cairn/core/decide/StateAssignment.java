package dev.cairn.core.decide;

import dev.cairn.core.contract.JobSpecs;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobSpec;
import dev.cairn.events.KeyGroupRange;
import dev.cairn.events.OperatorStateMode;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.TaskParallelism;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.keygroups.KeyGroupRanges;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hands a restore point's subtask states to the subtasks of the job as it restores (Flink:
 * {@code StateAssignmentOperation}). In: the point, its subtask states (accepted acks and final states) and the job's
 * spec now. Out: for every task whose parallelism is what the point was taken with, each subtask's own state; for a
 * rescaled task, one entry per (new subtask, state it reads): a keyed state (one that declares its key groups) to every
 * new subtask whose key groups overlap it, a {@code SPLIT_DISTRIBUTE} state of old subtask {@code i} to new subtask
 * {@code i % parallelism}, a {@code UNION} state to every new subtask. Or why the point cannot be handed out: a task's
 * max parallelism differs from the point's (the key groups would not match, as Flink refuses too), a parallelism above
 * the max parallelism, a state that declares nothing to redistribute by, a key-group range outside the task's groups.
 * Pure: the same point and spec always give the same answer.
 */
public final class StateAssignment {

    /** What one recorded task adds besides its id: a length prefix and two ints, rounded up. */
    private static final int TASK_PARALLELISM_BYTES = 16;

    private StateAssignment() {
    }

    /** What a point becomes for the job's spec: the states in restore-part order, and every task's shape. */
    public record Assigned(List<SubtaskState> states, List<RestoredTask> tasks) {
    }

    /** Why {@code point} cannot be handed to {@code spec}'s tasks, or empty when it can. */
    public static Optional<String> problem(CheckpointCompleted point, List<CheckpointAcknowledged> states,
            JobSpec spec) {
        Map<String, List<CheckpointAcknowledged>> byTask = byTask(states);
        Map<String, TaskParallelism> recorded = recorded(point);
        for (TaskVertex vertex : spec.getTasks()) {
            List<CheckpointAcknowledged> taskStates = byTask.getOrDefault(vertex.getTaskId(), List.of());
            RestoredTask task = shape(recorded, vertex, taskStates);
            Optional<String> problem = problem(point, recorded, task, taskStates);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    /**
     * The states every subtask of {@code spec} reads from {@code point}; call {@link #problem} first: the states of a
     * task it finds a problem with go to their own subtasks only, as before rescaling existed, and the task is named
     * as not rescaled.
     */
    public static Assigned assign(CheckpointCompleted point, List<CheckpointAcknowledged> states, JobSpec spec) {
        Map<String, List<CheckpointAcknowledged>> byTask = byTask(states);
        Map<String, TaskVertex> vertices = new LinkedHashMap<>();
        spec.getTasks().forEach(v -> vertices.put(v.getTaskId(), v));
        List<SubtaskState> assigned = new ArrayList<>(states.size());
        List<RestoredTask> tasks = new ArrayList<>();
        Map<String, TaskParallelism> recorded = recorded(point);
        for (Map.Entry<String, List<CheckpointAcknowledged>> entry : byTask.entrySet()) {
            TaskVertex vertex = vertices.get(entry.getKey());
            if (vertex == null) {
                entry.getValue().forEach(ack -> assigned.add(own(ack)));
                continue;
            }
            RestoredTask task = shape(recorded, vertex, entry.getValue());
            if (task.getParallelism() == task.getPreviousParallelism()
                    || problem(point, recorded, task, entry.getValue()).isPresent()) {
                tasks.add(RestoredTask.newBuilder(task).setPreviousParallelism(task.getParallelism()).build());
                entry.getValue().forEach(ack -> assigned.add(own(ack)));
            } else {
                tasks.add(task);
                assigned.addAll(redistributed(task, entry.getValue()));
            }
        }
        return new Assigned(assigned, tasks);
    }

    /**
     * The parallelism and max parallelism of the tasks of {@code spec} that acknowledge (those with state), as a
     * checkpoint taken now records them ({@code CheckpointCompleted.parallelism}); none when their ids would take more
     * than {@link JobSpecs#MAX_ROLES_BYTES} (a completion stays far below Kafka's record limit whatever the job; a
     * restore then counts each task's states, as for a point of an earlier release).
     */
    public static List<TaskParallelism> parallelismOf(JobSpec spec) {
        List<TaskParallelism> tasks = new ArrayList<>();
        long bytes = 0;
        for (TaskVertex vertex : spec.getTasks()) {
            if (vertex.getAcknowledges()) {
                tasks.add(new TaskParallelism(vertex.getTaskId(), vertex.getParallelism(),
                        JobSpecs.maxParallelism(vertex)));
                bytes += vertex.getTaskId().getBytes(StandardCharsets.UTF_8).length + TASK_PARALLELISM_BYTES;
            }
        }
        return bytes > JobSpecs.MAX_ROLES_BYTES ? List.of() : tasks;
    }

    /**
     * A task as it restores from {@code point}: its parallelism and max parallelism now, and the parallelism the
     * point was taken with (recorded in the point; in a point of an earlier release, its number of subtask states;
     * with no state, the parallelism now).
     */
    static RestoredTask shape(Map<String, TaskParallelism> recorded, TaskVertex vertex,
            List<CheckpointAcknowledged> states) {
        int previous = Optional.ofNullable(recorded.get(vertex.getTaskId())).map(TaskParallelism::getParallelism)
                .orElseGet(() -> states.isEmpty() ? vertex.getParallelism()
                        : states.stream().mapToInt(CheckpointAcknowledged::getSubtaskIndex).max().orElse(0) + 1);
        return new RestoredTask(vertex.getTaskId(), vertex.getParallelism(), JobSpecs.maxParallelism(vertex),
                previous);
    }

    private static Optional<String> problem(CheckpointCompleted point, Map<String, TaskParallelism> taken,
            RestoredTask task, List<CheckpointAcknowledged> states) {
        String taskId = task.getTaskId();
        Optional<TaskParallelism> recorded = Optional.ofNullable(taken.get(taskId));
        if (recorded.isPresent() && recorded.get().getMaxParallelism() != task.getMaxParallelism()) {
            return Optional.of("task " + taskId + " has max parallelism " + task.getMaxParallelism() + " but "
                    + describe(point) + " was taken with " + recorded.get().getMaxParallelism()
                    + ": its keyed state is split into that many key groups, which a restore cannot change (as in"
                    + " Flink); set the task's maxParallelism back to " + recorded.get().getMaxParallelism());
        }
        String bounds = KeyGroupRanges.problem(task.getMaxParallelism(), task.getParallelism());
        if (bounds != null) {
            return Optional.of("task " + taskId + ": " + bounds);
        }
        for (CheckpointAcknowledged ack : states) {
            Optional<String> problem = handleProblem(point, task, ack);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> handleProblem(CheckpointCompleted point, RestoredTask task,
            CheckpointAcknowledged ack) {
        StateHandle handle = ack.getStateHandle();
        String which = "the state of subtask " + ack.getSubtaskIndex() + " of task " + task.getTaskId() + " in "
                + describe(point);
        KeyGroupRange range = handle.getKeyGroups();
        boolean rescaled = task.getParallelism() != task.getPreviousParallelism();
        if (rescaled && range != null && (range.getStartKeyGroup() < 0
                || range.getEndKeyGroup() < range.getStartKeyGroup()
                || range.getEndKeyGroup() >= task.getMaxParallelism())) {
            return Optional.of(which + " declares key groups " + KeyGroupRanges.describe(range) + ", which are not"
                    + " within the task's " + task.getMaxParallelism() + " key groups");
        }
        if (rescaled && hasState(handle) && range == null && handle.getOperatorStateMode() == null) {
            return Optional.of("task " + task.getTaskId() + " cannot go from parallelism "
                    + task.getPreviousParallelism() + " to " + task.getParallelism() + ": " + which
                    + " declares neither key groups nor an operator state mode, so nothing says how to split it"
                    + " (its worker must declare them, see docs/rescaling.md)");
        }
        return Optional.empty();
    }

    private static List<SubtaskState> redistributed(RestoredTask task, List<CheckpointAcknowledged> states) {
        List<SubtaskState> entries = new ArrayList<>();
        int parallelism = task.getParallelism();
        for (CheckpointAcknowledged ack : states) {
            StateHandle handle = ack.getStateHandle();
            if (!hasState(handle)) {
                continue;
            }
            KeyGroupRange range = handle.getKeyGroups();
            if (range != null) {
                int first = KeyGroupRanges.subtaskOf(task.getMaxParallelism(), parallelism, range.getStartKeyGroup());
                int last = KeyGroupRanges.subtaskOf(task.getMaxParallelism(), parallelism, range.getEndKeyGroup());
                for (int subtask = first; subtask <= last; subtask++) {
                    entries.add(entry(ack, subtask));
                }
            } else if (handle.getOperatorStateMode() == OperatorStateMode.SPLIT_DISTRIBUTE) {
                entries.add(entry(ack, ack.getSubtaskIndex() % parallelism));
            } else {
                for (int subtask = 0; subtask < parallelism; subtask++) {
                    entries.add(entry(ack, subtask));
                }
            }
        }
        entries.sort(Comparator.comparingInt(SubtaskState::getSubtaskIndex)
                .thenComparingInt(SubtaskState::getFromSubtaskIndex));
        return entries;
    }

    private static SubtaskState entry(CheckpointAcknowledged ack, int subtask) {
        return new SubtaskState(ack.getTaskId(), subtask, ack.getAttemptId(), ack.getStateHandle(),
                ack.getSubtaskIndex());
    }

    private static SubtaskState own(CheckpointAcknowledged ack) {
        return new SubtaskState(ack.getTaskId(), ack.getSubtaskIndex(), ack.getAttemptId(), ack.getStateHandle(), -1);
    }

    /** A final state of a subtask that finished with nothing to keep has no location: nothing to hand out. */
    private static boolean hasState(StateHandle handle) {
        return handle != null && handle.getLocation() != null && !handle.getLocation().isEmpty();
    }

    /** The parallelism the point recorded, by task id (none in a point of an earlier release). */
    private static Map<String, TaskParallelism> recorded(CheckpointCompleted point) {
        Map<String, TaskParallelism> recorded = new HashMap<>();
        point.getParallelism().forEach(t -> recorded.putIfAbsent(t.getTaskId(), t));
        return recorded;
    }

    private static Map<String, List<CheckpointAcknowledged>> byTask(List<CheckpointAcknowledged> states) {
        Map<String, List<CheckpointAcknowledged>> byTask = new LinkedHashMap<>();
        for (CheckpointAcknowledged ack : states) {
            byTask.computeIfAbsent(ack.getTaskId(), t -> new ArrayList<>()).add(ack);
        }
        return byTask;
    }

    private static String describe(CheckpointCompleted point) {
        return (point.getType() == dev.cairn.events.CheckpointType.SAVEPOINT ? "savepoint " : "checkpoint ")
                + point.getCheckpointId();
    }
}
