package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SharedObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Picks what a starting worker restores from: its subtask's (or its participant's) state in the newest retained
 * checkpoint, the job's restore point, which says whether a user chose it ({@link RestorePoint#chosen}) and, for a
 * subtask, which shared objects its state is made of ({@link RestorePoint#shared}). Pure.
 */
public final class RestorePoints {

    private RestorePoints() {
    }

    /**
     * The state of {@code taskId}/{@code subtaskIndex} in the newest (last) checkpoint of {@code retained};
     * empty when nothing is retained or the newest checkpoint holds no state for that subtask (its task does
     * not acknowledge, or the job's plan changed). The states are in the restore parts of that checkpoint; a
     * version 1 completion lists them itself.
     *
     * @param retained the job's latest value on {@code cairn.completed}, if any
     * @param parts the job's restore parts on {@code cairn.completed} (the latest value of each part key)
     */
    public static Optional<RestorePoint> latest(Optional<RetainedCheckpoints> retained, Collection<RestorePart> parts,
            String taskId, int subtaskIndex) {
        List<CheckpointCompleted> checkpoints = retained.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
        if (checkpoints.isEmpty()) {
            return Optional.empty();
        }
        CheckpointCompleted newest = checkpoints.get(checkpoints.size() - 1);
        boolean chosen = newest.getCheckpointId() == retained.get().getChosenRestoreId();
        if (newest.getSubtaskCount() < 0) {
            return find(newest.getSubtaskStates(), newest.getCheckpointId(), taskId, subtaskIndex, chosen);
        }
        for (RestorePart part : parts) {
            if (part.getCheckpointId() == newest.getCheckpointId()) {
                Optional<RestorePoint> found = find(part.getStates(), newest.getCheckpointId(), taskId, subtaskIndex,
                        chosen);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The state of participant {@code name} in the newest (last) checkpoint of {@code retained}: the entry of its
     * {@code participantStates} with that name. Empty when nothing is retained, when the newest checkpoint has no
     * entry for it (it was not a participant then), and when its entry holds no state (it snapshotted nothing).
     *
     * @param retained the job's latest value on {@code cairn.completed}, if any
     */
    public static Optional<RestorePoint> participant(Optional<RetainedCheckpoints> retained, String name) {
        List<CheckpointCompleted> checkpoints = retained.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
        if (checkpoints.isEmpty()) {
            return Optional.empty();
        }
        CheckpointCompleted newest = checkpoints.get(checkpoints.size() - 1);
        for (ParticipantState state : newest.getParticipantStates()) {
            if (state.getParticipant().equals(name) && state.getState() != null) {
                return Optional.of(new RestorePoint(newest.getCheckpointId(), state.getState().getLocation(),
                        state.getState().getSizeBytes()));
            }
        }
        return Optional.empty();
    }

    /** The shared objects a state handle names, as the hook SPI has them. */
    static List<SharedObject> sharedOf(StateHandle handle) {
        List<SharedObject> shared = new ArrayList<>(handle.getShared().size());
        for (SharedState object : handle.getShared()) {
            shared.add(new SharedObject(object.getLocation(), object.getSizeBytes(), object.getReused()));
        }
        return shared;
    }

    private static Optional<RestorePoint> find(List<SubtaskState> states, long checkpointId, String taskId,
            int subtaskIndex, boolean chosen) {
        for (SubtaskState state : states) {
            if (state.getTaskId().equals(taskId) && state.getSubtaskIndex() == subtaskIndex) {
                return Optional.of(new RestorePoint(checkpointId, state.getHandle().getLocation(),
                        state.getHandle().getSizeBytes(), chosen, sharedOf(state.getHandle())));
            }
        }
        return Optional.empty();
    }
}
