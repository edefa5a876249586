package dev.cairn.kit.operator;

import dev.cairn.kit.align.InputPositions;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an operator subtask's snapshot holds: whose it is, the checkpoint, the incarnation that took it, where its
 * input is taken up again, and the keyed state: entries held in the snapshot file itself (the format before key
 * groups), and the objects of its key groups ({@link KeyGroupObject}), which are shared objects of the checkpoint's
 * state when {@code groupsShared} (a checkpoint's), the snapshot's own files otherwise (a savepoint's).
 *
 * @param taskId the operator task's id
 * @param subtask the subtask's index
 * @param checkpointId the checkpoint whose barriers it was taken at
 * @param generation the generation of the incarnation that took it
 * @param inputTopic the topic the subtask reads
 * @param positions where a restore seeks and what it drops as already reflected
 * @param entries the keyed state held in the file itself
 * @param groups the objects of the key groups, by ascending group
 * @param groupsShared whether the group objects are shared objects the coordinator counts
 */
public record OperatorState(String taskId, int subtask, long checkpointId, long generation, String inputTopic,
        InputPositions positions, Map<KeyedState.Key, byte[]> entries, List<KeyGroupObject> groups,
        boolean groupsShared) {

    public OperatorState {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(inputTopic, "inputTopic");
        Objects.requireNonNull(positions, "positions");
        entries = new TreeMap<>(Objects.requireNonNull(entries, "entries"));
        groups = List.copyOf(Objects.requireNonNull(groups, "groups"));
        if (subtask < 0 || checkpointId < 0) {
            throw new IllegalArgumentException("a subtask index and a checkpoint id are 0 or more, were " + subtask
                    + " and " + checkpointId);
        }
    }

    /** A state whose keyed entries are all in the file itself. */
    public OperatorState(String taskId, int subtask, long checkpointId, long generation, String inputTopic,
            InputPositions positions, Map<KeyedState.Key, byte[]> entries) {
        this(taskId, subtask, checkpointId, generation, inputTopic, positions, entries, List.of(), false);
    }

    /** This state with its key groups' objects, written or reused, instead of entries held in the file. */
    public OperatorState withGroups(List<KeyGroupObject> objects, boolean shared) {
        return new OperatorState(taskId, subtask, checkpointId, generation, inputTopic, positions, Map.of(), objects,
                shared);
    }
}
