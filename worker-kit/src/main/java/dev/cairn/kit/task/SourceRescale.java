package dev.cairn.kit.task;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a source subtask restores after a rescale: its snapshots are {@code UNION} states (every new subtask gets
 * every old subtask's state), and it keeps the positions of the input partitions it reads now
 * ({@link Partitioning#assigned}: {@code p % parallelism == subtask}), whichever old subtask read them, and whether
 * the input ended (a drained savepoint). Pure.
 */
final class SourceRescale {

    private SourceRescale() {
    }

    /**
     * The state of subtask {@code subtask} of {@code parallelism} made of the old subtasks' states {@code olds} of
     * checkpoint {@code checkpointId}: the positions of its partitions, the newest generation, ended when any ended.
     *
     * @throws IllegalStateException when two old states name a position of one partition that differ
     */
    static SourceState merge(SourceTaskConfig config, long checkpointId, List<SourceState> olds) {
        Map<Integer, Long> positions = new TreeMap<>();
        long generation = -1;
        boolean ended = false;
        for (SourceState old : olds) {
            generation = Math.max(generation, old.generation());
            ended |= old.ended();
            old.positions().forEach((partition, offset) -> {
                if (partition % config.parallelism() != config.subtask()) {
                    return;
                }
                Long before = positions.putIfAbsent(partition, offset);
                if (before != null && before.longValue() != offset) {
                    throw new IllegalStateException("source " + config.taskId() + "-" + config.subtask() + ": two "
                            + "states of checkpoint " + checkpointId + " hold partition " + partition
                            + " at offsets " + before + " and " + offset);
                }
            });
        }
        return new SourceState(config.taskId(), config.subtask(), checkpointId, generation, config.inputTopic(),
                positions, ended);
    }
}
