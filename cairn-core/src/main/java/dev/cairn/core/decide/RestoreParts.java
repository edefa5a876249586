package dev.cairn.core.decide;

import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RestorePart;
import dev.cairn.events.SubtaskState;
import java.util.ArrayList;
import java.util.List;

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
        long largestState = 2L * limits.maxIdLength() * 4 + (long) limits.maxLocationLength() * 4
                + STATE_OVERHEAD_BYTES;
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
                        ack.getStateHandle(), -1));
            }
            result.add(new RestorePart(jobId, checkpointId, part, parts, states, List.of()));
        }
        return result;
    }
}
