package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.hook.RestorePoint;
import java.util.List;
import java.util.Optional;

/** Picks what a starting worker restores from: its subtask's state in the newest retained checkpoint. Pure. */
public final class RestorePoints {

    private RestorePoints() {
    }

    /**
     * The state of {@code taskId}/{@code subtaskIndex} in the newest (last) checkpoint of {@code retained};
     * empty when nothing is retained or the newest checkpoint holds no state for that subtask (its task does
     * not acknowledge, or the job's plan changed).
     *
     * @param retained the job's latest value on {@code cairn.completed}, if any
     */
    public static Optional<RestorePoint> latest(Optional<RetainedCheckpoints> retained, String taskId,
            int subtaskIndex) {
        List<CheckpointCompleted> checkpoints = retained.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
        if (checkpoints.isEmpty()) {
            return Optional.empty();
        }
        CheckpointCompleted newest = checkpoints.get(checkpoints.size() - 1);
        for (SubtaskState state : newest.getSubtaskStates()) {
            if (state.getTaskId().equals(taskId) && state.getSubtaskIndex() == subtaskIndex) {
                return Optional.of(new RestorePoint(newest.getCheckpointId(), state.getHandle().getLocation(),
                        state.getHandle().getSizeBytes()));
            }
        }
        return Optional.empty();
    }
}
