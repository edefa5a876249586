package dev.cairn.kit.task;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A source subtask's snapshot: where to resume reading and which generation wrote it.
 *
 * @param taskId the source task's id (names the file; a restore needs the same id and subtask)
 * @param subtask the subtask's index
 * @param checkpointId the checkpoint the snapshot belongs to
 * @param generation the generation of the incarnation that took it (a restore picks a greater one)
 * @param inputTopic the topic read
 * @param positions per assigned input partition, the offset of the first record not reflected in the snapshot
 *     (an unmodifiable sorted copy)
 * @param ended whether the subtask's input ended: it was drained by a stop-with-savepoint ({@code --drain}), and a
 *     subtask restored from this state reads nothing more
 */
public record SourceState(String taskId, int subtask, long checkpointId, long generation, String inputTopic,
        Map<Integer, Long> positions, boolean ended) {

    /** The state of a subtask whose input has not ended. */
    public SourceState(String taskId, int subtask, long checkpointId, long generation, String inputTopic,
            Map<Integer, Long> positions) {
        this(taskId, subtask, checkpointId, generation, inputTopic, positions, false);
    }

    public SourceState {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(inputTopic, "inputTopic");
        positions = Map.copyOf(new TreeMap<>(Objects.requireNonNull(positions, "positions")));
        if (subtask < 0 || generation < -1) {
            throw new IllegalArgumentException("a subtask is 0 or more and a generation -1 or more, were " + subtask
                    + " and " + generation);
        }
        positions.forEach((partition, offset) -> {
            if (partition < 0 || offset < 0) {
                throw new IllegalArgumentException("partition " + partition + " at offset " + offset
                        + ": partitions and offsets are 0 or more");
            }
        });
    }
}
