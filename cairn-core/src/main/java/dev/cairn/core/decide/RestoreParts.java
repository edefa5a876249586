package dev.cairn.core.decide;

import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.SubtaskState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cuts the subtask states of a completed checkpoint into {@link RestorePart}s of at most
 * {@link #statesPerPart} states each, so that no record grows with the number of subtasks. The count per part
 * follows from the input limits: even states of the longest ids and locations allowed fit in one record.
 */
public final class RestoreParts {

    /**
     * Field lengths, the subtask indexes, the size, a key-group range and a mode besides the three strings of one
     * state, rounded up.
     */
    private static final int STATE_OVERHEAD_BYTES = 48;
    /** A restored task's three ints and length prefix besides its id, rounded up. */
    private static final int TASK_OVERHEAD_BYTES = 24;
    /** Room in a record for the part's own fields and the record's framing. */
    private static final int PART_OVERHEAD_BYTES = 1024;

    private RestoreParts() {
    }

    /** How many states fit in one part of at most {@code maxRecordBytes}, whatever their ids and locations. */
    public static int statesPerPart(InputLimits limits, int maxRecordBytes) {
        long largestState = 2L * limits.maxIdLength() * 4 + (long) limits.maxLocationLength() * 4
                + STATE_OVERHEAD_BYTES + (long) limits.maxIdLength() * 4 + TASK_OVERHEAD_BYTES;
        return (int) Math.max(1, (maxRecordBytes - PART_OVERHEAD_BYTES - limits.maxIdLength() * 4L) / largestState);
    }

    /** How many parts a checkpoint of {@code subtasks} states has. */
    public static int partCount(int subtasks, int statesPerPart) {
        return (subtasks + statesPerPart - 1) / statesPerPart;
    }

    /**
     * The parts of one restore point's states, in their order (task id, then subtask index), each with the tasks
     * among {@code tasks} whose states it holds.
     */
    public static List<RestorePart> split(String jobId, long checkpointId, List<SubtaskState> states,
            List<RestoredTask> tasks, int statesPerPart) {
        int parts = partCount(states.size(), statesPerPart);
        List<RestorePart> result = new ArrayList<>(parts);
        for (int part = 0; part < parts; part++) {
            List<SubtaskState> slice = List.copyOf(states.subList(part * statesPerPart,
                    Math.min(states.size(), (part + 1) * statesPerPart)));
            Set<String> named = new HashSet<>();
            slice.forEach(state -> named.add(state.getTaskId()));
            List<RestoredTask> sliceTasks = tasks.stream().filter(t -> named.contains(t.getTaskId())).toList();
            result.add(new RestorePart(jobId, checkpointId, part, parts, slice, sliceTasks));
        }
        return result;
    }

    /** The parts of one checkpoint's accepted acks, each subtask's own state (no rescale). */
    public static List<RestorePart> split(String jobId, long checkpointId, List<CheckpointAcknowledged> acks,
            int statesPerPart) {
        List<SubtaskState> states = new ArrayList<>(acks.size());
        for (CheckpointAcknowledged ack : acks) {
            states.add(new SubtaskState(ack.getTaskId(), ack.getSubtaskIndex(), ack.getAttemptId(),
                    ack.getStateHandle(), -1));
        }
        return split(jobId, checkpointId, states, List.of(), statesPerPart);
    }
}
