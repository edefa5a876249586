package dev.cairn.core.state;

import dev.cairn.events.TaskVertex;
import java.util.Optional;

/** Questions about a registered job's tasks: which subtasks it has, and which must run for a trigger. */
public final class TaskVertices {

    private TaskVertices() {
    }

    /** Whether the vertex (as looked up by task id; empty when the spec has no such task) has that subtask. */
    public static boolean hasSubtask(Optional<TaskVertex> vertex, int subtaskIndex) {
        return vertex.map(v -> subtaskIndex >= 0 && subtaskIndex < v.getParallelism()).orElse(false);
    }

    /** A subtask of this vertex must run for a trigger: it is triggered or acknowledges. */
    public static boolean isRequired(TaskVertex vertex) {
        return vertex.getTriggered() || vertex.getAcknowledges();
    }
}
