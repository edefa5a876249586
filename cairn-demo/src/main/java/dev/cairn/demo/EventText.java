package dev.cairn.demo;

import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.stream.Collectors;

/** Describes request events in words for the demo's output. */
final class EventText {

    private EventText() {}

    static String describe(Object event) {
        if (event instanceof JobSpec spec) {
            String tasks = spec.getTasks().stream()
                    .map(EventText::vertex)
                    .collect(Collectors.joining(", "));
            return String.format("job spec for '%s': tasks %s; checkpoint every %d ms, timeout %d ms, min pause %d ms, "
                            + "at most %d concurrent, storage %s",
                    spec.getJobId(), tasks, spec.getConfig().getIntervalMs(), spec.getConfig().getTimeoutMs(),
                    spec.getConfig().getMinPauseMs(), spec.getConfig().getMaxConcurrent(),
                    spec.getConfig().getStorageBaseLocation());
        }
        if (event instanceof TriggerRequest request) {
            PostCheckpointAction action = request.getPostCheckpointAction();
            String kind = action == PostCheckpointAction.TERMINATE ? "stop-with-savepoint (drain)"
                    : action == PostCheckpointAction.SUSPEND ? "stop-with-savepoint"
                    : request.getType().name().toLowerCase(java.util.Locale.ROOT);
            return String.format("%s%s request %s for '%s' from %s",
                    Boolean.TRUE.equals(request.getForce()) ? "forced " : "", kind,
                    request.getRequestId(), request.getJobId(), request.getRequester());
        }
        if (event instanceof JobStatusChange change) {
            return String.format("job '%s' is now %s", change.getJobId(), change.getStatus());
        }
        return String.valueOf(event);
    }

    private static String vertex(TaskVertex vertex) {
        return vertex.getTaskId() + " x" + vertex.getParallelism();
    }
}
