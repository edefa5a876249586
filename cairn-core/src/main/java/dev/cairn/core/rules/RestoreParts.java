package dev.cairn.core.rules;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RestorePart;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.SubtaskState;
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
 * Cuts the subtask states of a completed checkpoint into {@link RestorePart}s of at most
 * {@link #statesPerPart} states each, so that no record grows with the number of subtasks. The count per part
 * follows from the input limits: even states of the longest ids and locations allowed fit in one record.
 */
public final class RestoreParts {

    /** Field lengths, the subtask index and the size besides the three strings of one state, rounded up. */
    private static final int STATE_OVERHEAD_BYTES = 32;
    /** Room in a record for the part's own fields and the record's framing. */
    private static final int PART_OVERHEAD_BYTES = 1024;

    private RestoreParts() {
    }

    /** How many states fit in one part of at most {@code maxRecordBytes}, whatever their ids and locations. */
    public static int statesPerPart(InputLimits limits, int maxRecordBytes) {
        long largestState = 2L * limits.maxIdLength() * 4 + (long) limits.maxLocationLength() * 4 + STATE_OVERHEAD_BYTES;
        return (int) Math.max(1, (maxRecordBytes - PART_OVERHEAD_BYTES - limits.maxIdLength() * 4L) / largestState);
    }

    /** How many parts a checkpoint of {@code subtasks} states has. */
    public static int partCount(int subtasks, int statesPerPart) {
        return (subtasks + statesPerPart - 1) / statesPerPart;
    }

    /** The parts of one checkpoint's accepted acks, in the acks' order (task id, then subtask index). */
    public static List<RestorePart> split(String jobId, long checkpointId, List<CheckpointAcknowledged> acks,
            int statesPerPart) {
        int parts = partCount(acks.size(), statesPerPart);
        List<RestorePart> result = new ArrayList<>(parts);
        for (int part = 0; part < parts; part++) {
            List<CheckpointAcknowledged> slice = acks.subList(part * statesPerPart,
                    Math.min(acks.size(), (part + 1) * statesPerPart));
            List<SubtaskState> states = new ArrayList<>(slice.size());
            for (CheckpointAcknowledged ack : slice) {
                states.add(new SubtaskState(ack.getTaskId(), ack.getSubtaskIndex(), ack.getAttemptId(),
                        ack.getStateHandle()));
            }
            result.add(new RestorePart(jobId, checkpointId, part, parts, states));
        }
        return result;
    }

    /**
     * The subtask states of a completed checkpoint: its accepted acks and, when it counts more subtasks than it has
     * acks, the final states of the subtasks that had finished before it was triggered (those of acknowledging
     * vertices of the current spec without an ack in it), each as an ack of its finishing attempt; ordered by
     * (taskId, subtaskIndex). The finished subtasks are read only when the checkpoint counts some.
     */
    public static List<CheckpointAcknowledged> statesOf(CheckpointCompleted completed, List<CheckpointAcknowledged> acks,
            Supplier<List<TaskFinished>> finished, Function<String, Optional<TaskVertex>> vertexOf) {
        if (completed.getSubtaskCount() <= acks.size()) {
            return acks;
        }
        Set<String> acked = new HashSet<>();
        acks.forEach(a -> acked.add(a.getTaskId() + '\u0000' + a.getSubtaskIndex()));
        List<CheckpointAcknowledged> states = new ArrayList<>(acks);
        for (TaskFinished f : finished.get()) {
            Optional<TaskVertex> vertex = vertexOf.apply(f.getTaskId());
            if (JobSpecs.hasSubtask(vertex, f.getSubtaskIndex()) && vertex.get().getAcknowledges()
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
