package dev.cairn.core.state;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The points a job can be restored from: its retained checkpoints (the newest is its restore point) and its
 * savepoints, until a user disposes of one. Their subtask states are the accepted acks of their ids, which the
 * coordinator keeps while anything refers to them.
 */
public final class RestorePoints {

    private RestorePoints() {
    }

    /**
     * The retained checkpoint or savepoint of the job with {@code checkpointId}, or else stored at {@code location};
     * with neither, the job's restore point (its newest retained entry). Savepoints are looked up first: a retained
     * entry of the same id is the same completion.
     */
    public static Optional<CheckpointCompleted> find(CoordinatorState state, String jobId, Long checkpointId,
            String location) {
        if (checkpointId == null && location == null) {
            return Retention.newest(state.retained(jobId));
        }
        return savepoint(state, jobId, checkpointId, location).or(() -> named(
                state.retained(jobId).map(RetainedCheckpoints::getCheckpoints).orElse(List.of()), checkpointId,
                location));
    }

    /** The job's savepoint with {@code checkpointId}, or else stored at {@code location}. */
    public static Optional<CheckpointCompleted> savepoint(CoordinatorState state, String jobId, Long checkpointId,
            String location) {
        return named(state.savepoints(jobId), checkpointId, location);
    }

    /** The newest of {@code points} with {@code checkpointId}, or else stored at {@code location}. */
    private static Optional<CheckpointCompleted> named(List<CheckpointCompleted> points, Long checkpointId,
            String location) {
        for (int i = points.size() - 1; i >= 0; i--) {
            CheckpointCompleted point = points.get(i);
            if (checkpointId != null ? point.getCheckpointId() == checkpointId
                    : location != null && sameLocation(point.getStorageLocation(), location)) {
                return Optional.of(point);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the accepted acks of checkpoint {@code id} must stay: it is pending, retained, a kept savepoint, or in
     * the job's history (its acks are its per-subtask stats there).
     */
    public static boolean keepsAcks(CoordinatorState state, JobState job, long id) {
        return PendingCheckpoints.find(job, id).isPresent()
                || Retention.contains(state.retained(job.getJobId()), id)
                || state.savepoints(job.getJobId()).stream().anyMatch(s -> s.getCheckpointId() == id)
                || job.getHistoryIds().contains(id);
    }

    /** Locations name the same place when they are equal but for trailing slashes. */
    static boolean sameLocation(String a, String b) {
        return trimmed(a).equals(trimmed(b));
    }

    private static String trimmed(String location) {
        String s = location;
        while (s.length() > 1 && s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    /**
     * The subtask states of a completed checkpoint: its accepted acks and, when it counts more subtasks than it has
     * acks, the final states of the subtasks that had finished before it was triggered (those of acknowledging
     * vertices of the current spec without an ack in it), each as an ack of its finishing attempt; ordered by
     * (taskId, subtaskIndex). The finished subtasks are read only when the checkpoint counts some.
     */
    public static List<CheckpointAcknowledged> statesOf(CheckpointCompleted completed,
            List<CheckpointAcknowledged> acks,
            Supplier<List<TaskFinished>> finished, Function<String, Optional<TaskVertex>> vertexOf) {
        if (completed.getSubtaskCount() <= acks.size()) {
            return acks;
        }
        Set<String> acked = new HashSet<>();
        acks.forEach(a -> acked.add(a.getTaskId() + '\u0000' + a.getSubtaskIndex()));
        List<CheckpointAcknowledged> states = new ArrayList<>(acks);
        for (TaskFinished f : finished.get()) {
            Optional<TaskVertex> vertex = vertexOf.apply(f.getTaskId());
            if (TaskVertices.hasSubtask(vertex, f.getSubtaskIndex()) && vertex.get().getAcknowledges()
                    && !acked.contains(f.getTaskId() + '\u0000' + f.getSubtaskIndex())) {
                states.add(CheckpointAcknowledged.newBuilder()
                        .setJobId(f.getJobId())
                        .setCheckpointId(completed.getCheckpointId())
                        .setTaskId(f.getTaskId())
                        .setSubtaskIndex(f.getSubtaskIndex())
                        .setAttemptId(f.getAttemptId())
                        .setStateHandle(FinishedTasks.finalState(f))
                        .setMetrics(SubtaskMetrics.newBuilder().build())
                        .setTimestampMs(f.getTimestampMs())
                        .build());
            }
        }
        states.sort(Comparator.comparing(CheckpointAcknowledged::getTaskId)
                .thenComparingInt(CheckpointAcknowledged::getSubtaskIndex));
        return states;
    }
}
