package dev.cairn.kit.operator;

import dev.cairn.kit.align.InputPositions;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an operator subtask's snapshot holds: whose it is, the checkpoint, the incarnation that took it, where its
 * input is taken up again, and the keyed state.
 *
 * @param taskId the operator task's id
 * @param subtask the subtask's index
 * @param checkpointId the checkpoint whose barriers it was taken at
 * @param generation the generation of the incarnation that took it
 * @param inputTopic the topic the subtask reads
 * @param positions where a restore seeks and what it drops as already reflected
 * @param entries the keyed state
 */
public record OperatorState(String taskId, int subtask, long checkpointId, long generation, String inputTopic,
        InputPositions positions, Map<KeyedState.Key, byte[]> entries) {

    public OperatorState {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(inputTopic, "inputTopic");
        Objects.requireNonNull(positions, "positions");
        entries = new TreeMap<>(Objects.requireNonNull(entries, "entries"));
        if (subtask < 0 || checkpointId < 0) {
            throw new IllegalArgumentException("a subtask index and a checkpoint id are 0 or more, were " + subtask
                    + " and " + checkpointId);
        }
    }
}
