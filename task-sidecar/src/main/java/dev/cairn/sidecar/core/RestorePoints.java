package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.keygroups.KeyGroupRanges;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SharedObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Picks what a starting worker restores from: its subtask's (or its participant's) state in the newest retained
 * checkpoint, the job's restore point, which says whether a user chose it ({@link RestorePoint#chosen}) and, for a
 * subtask, which shared objects its state is made of ({@link RestorePoint#shared}). When the restore parts say how
 * the subtask's task restores ({@link RestoredTask}), the point also says its parallelism now and then, its max
 * parallelism and the key groups the subtask owns now; after a rescale it holds every state the coordinator handed
 * to the subtask, gathered over all the parts ({@link RestorePoint#states}). Pure.
 */
public final class RestorePoints {

    private RestorePoints() {
    }

    /**
     * The state of {@code taskId}/{@code subtaskIndex} in the newest (last) checkpoint of {@code retained};
     * empty when nothing is retained or the newest checkpoint holds no state for that subtask (its task does
     * not acknowledge, or the job's plan changed), and when the subtask's index is not below its task's parallelism
     * as the job restores (the job no longer has that subtask). The states are in the restore parts of that
     * checkpoint; a version 1 completion lists them itself.
     *
     * <ul>
     *   <li>Parts that do not name the task (a coordinator written before rescaling): the subtask's own state, its
     *       task's parallelism unknown (0), as before.</li>
     *   <li>A task that restores with the parallelism the point was taken with: its own state, with the task's
     *       parallelism, max parallelism and the subtask's key groups; {@link RestorePoint#states} holds the own
     *       state with the key groups or the mode its snapshot declared.</li>
     *   <li>A rescaled task: no own state ({@code null} location), and every state handed to the subtask in any part
     *       of the checkpoint, which may be none: a point even then, so that the subtask learns its key groups.</li>
     * </ul>
     *
     * <p>Gather every part first ({@link #missingParts}): with a part missing, a rescaled subtask would miss states.
     *
     * @param retained the job's latest value on {@code cairn.completed}, if any
     * @param parts the job's restore parts on {@code cairn.completed} (the latest value of each part key)
     * @throws IllegalStateException when the parts name the task with a parallelism or max parallelism that cannot
     *     be, or hand it a state whose key-group range cannot be
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
            return own(newest.getSubtaskStates(), newest.getCheckpointId(), taskId, subtaskIndex, chosen);
        }
        NewestRestoreParts newestParts = NewestRestoreParts.of(newest, parts);
        List<SubtaskState> entries = newestParts.entriesOf(taskId, subtaskIndex);
        Optional<RestoredTask> task = newestParts.task(taskId);
        if (task.isEmpty()) {
            return own(entries, newest.getCheckpointId(), taskId, subtaskIndex, chosen);
        }
        RestoredTask restored = task.get();
        KeyGroupRange keyGroups = keyGroupsOf(restored, newest.getCheckpointId(), subtaskIndex);
        if (keyGroups == null) {
            return Optional.empty();
        }
        Layout layout = new Layout(restored.getParallelism(), restored.getPreviousParallelism(),
                restored.getMaxParallelism(), keyGroups);
        return restored.getParallelism() != restored.getPreviousParallelism()
                ? Optional.of(rescaled(entries, newest.getCheckpointId(), chosen, layout, subtaskIndex))
                : entries.stream().findFirst().map(own -> unrescaled(own, newest.getCheckpointId(), chosen, layout,
                        subtaskIndex));
    }

    /**
     * What is missing of the restore parts of the newest retained checkpoint, as start-up says it; empty when every
     * part was read, when none was (a checkpoint without subtask states has none) and when the newest checkpoint
     * lists its states itself (version 1). A restore point is read whole or not at all: with a part missing, a
     * rescaled subtask would miss some of the states handed to it.
     */
    public static Optional<String> missingParts(Optional<RetainedCheckpoints> retained,
            Collection<RestorePart> parts) {
        List<CheckpointCompleted> checkpoints = retained.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
        if (checkpoints.isEmpty() || checkpoints.get(checkpoints.size() - 1).getSubtaskCount() < 0) {
            return Optional.empty();
        }
        NewestRestoreParts newest = NewestRestoreParts.of(checkpoints.get(checkpoints.size() - 1), parts);
        return newest.complete() ? Optional.empty() : Optional.of(newest.describeMissing());
    }

    /**
     * How the restore parts of the newest retained checkpoint say {@code taskId} restores; empty when nothing is
     * retained or no part names the task (a coordinator written before rescaling).
     */
    public static Optional<RestoredTask> restoredTask(Optional<RetainedCheckpoints> retained,
            Collection<RestorePart> parts, String taskId) {
        List<CheckpointCompleted> checkpoints = retained.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
        return checkpoints.isEmpty() ? Optional.empty()
                : NewestRestoreParts.of(checkpoints.get(checkpoints.size() - 1), parts).task(taskId);
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

    /** The task's parallelism now and then, its max parallelism, and the key groups the subtask owns now. */
    private record Layout(int parallelism, int previousParallelism, int maxParallelism, KeyGroupRange keyGroups) {
    }

    /** The first entry of the subtask, as a point of its own state whose task's parallelism is unknown. */
    private static Optional<RestorePoint> own(List<SubtaskState> states, long checkpointId, String taskId,
            int subtaskIndex, boolean chosen) {
        for (SubtaskState state : states) {
            if (state.getTaskId().equals(taskId) && state.getSubtaskIndex() == subtaskIndex) {
                return Optional.of(new RestorePoint(checkpointId, state.getHandle().getLocation(),
                        state.getHandle().getSizeBytes(), chosen, sharedOf(state.getHandle())));
            }
        }
        return Optional.empty();
    }

    private static RestorePoint unrescaled(SubtaskState own, long checkpointId, boolean chosen, Layout layout,
            int subtaskIndex) {
        StateHandle handle = own.getHandle();
        List<SharedObject> shared = sharedOf(handle);
        return new RestorePoint(checkpointId, handle.getLocation(), handle.getSizeBytes(), chosen, shared,
                layout.parallelism(), layout.previousParallelism(), layout.maxParallelism(), layout.keyGroups(),
                List.of(restored(own, subtaskIndex, checkpointId)));
    }

    private static RestorePoint rescaled(List<SubtaskState> entries, long checkpointId, boolean chosen,
            Layout layout, int subtaskIndex) {
        List<RestoredState> states = new ArrayList<>(entries.size());
        for (SubtaskState entry : entries) {
            states.add(restored(entry, entry.getFromSubtaskIndex() >= 0 ? entry.getFromSubtaskIndex()
                    : subtaskIndex, checkpointId));
        }
        return new RestorePoint(checkpointId, null, 0, chosen, List.of(), layout.parallelism(),
                layout.previousParallelism(), layout.maxParallelism(), layout.keyGroups(), states);
    }

    /** An entry of a part as a state the subtask reads, with the key groups or the mode its snapshot declared. */
    private static RestoredState restored(SubtaskState entry, int fromSubtask, long checkpointId) {
        StateHandle handle = entry.getHandle();
        dev.cairn.events.KeyGroupRange declared = handle.getKeyGroups();
        KeyGroupRange keyGroups = null;
        if (declared != null) {
            try {
                keyGroups = new KeyGroupRange(declared.getStartKeyGroup(), declared.getEndKeyGroup());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("the restore parts of checkpoint " + checkpointId + " hand task "
                        + entry.getTaskId() + " subtask " + entry.getSubtaskIndex() + " the state of subtask "
                        + fromSubtask + " (" + handle.getLocation() + ") with a key-group range that cannot be: "
                        + e.getMessage(), e);
            }
        }
        OperatorStateMode mode = handle.getOperatorStateMode() == null ? null
                : OperatorStateMode.valueOf(handle.getOperatorStateMode().name());
        return new RestoredState(fromSubtask, handle.getLocation(), handle.getSizeBytes(), sharedOf(handle),
                keyGroups, mode);
    }

    /**
     * The key groups subtask {@code subtaskIndex} owns as {@code task} restores; {@code null} when the task has no
     * such subtask any more.
     */
    private static KeyGroupRange keyGroupsOf(RestoredTask task, long checkpointId, int subtaskIndex) {
        String problem = task.getParallelism() < 1 ? "parallelism must be >= 1, not " + task.getParallelism()
                : KeyGroupRanges.problem(task.getMaxParallelism(), task.getParallelism());
        if (problem == null && task.getPreviousParallelism() < 0) {
            problem = "previous parallelism must be >= 0, not " + task.getPreviousParallelism();
        }
        if (problem != null) {
            throw new IllegalStateException("the restore parts of checkpoint " + checkpointId + " name task "
                    + task.getTaskId() + " with parallelism " + task.getParallelism() + " (previously "
                    + task.getPreviousParallelism() + ") and max parallelism " + task.getMaxParallelism() + ": "
                    + problem);
        }
        return subtaskIndex < task.getParallelism()
                ? KeyGroupRange.forSubtask(task.getMaxParallelism(), task.getParallelism(), subtaskIndex) : null;
    }
}
