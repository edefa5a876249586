package dev.cairn.kit.operator;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an operator subtask restores from a restore point: its own snapshot, or after a rescale
 * ({@link RestorePoint#rescaled()}) the snapshots its sidecar hands it, combined: of each, the key groups this
 * subtask owns; their input positions merged ({@link #merge}); the newest generation among them.
 */
final class OperatorRestore {

    private OperatorRestore() {
    }

    /**
     * The state {@code point} gives this subtask.
     *
     * @throws IllegalStateException when the point's max parallelism, parallelism or key groups differ from the
     *     subtask's configuration, or a rescaled point hands it no state
     * @throws IOException when a state cannot be read, is corrupt or belongs to another task
     */
    static OperatorState read(OperatorTaskConfig config, RestorePoint point) throws IOException {
        check(config, point);
        if (!point.rescaled()) {
            String location = point.location() != null ? point.location()
                    : point.states().isEmpty() ? null : point.states().get(0).location();
            if (location == null) {
                throw new IllegalStateException("operator " + config.name() + ": the restore point of checkpoint "
                        + point.checkpointId() + " names no state of it");
            }
            return SnapshotFiles.read(config, location);
        }
        if (point.states().isEmpty()) {
            throw new IllegalStateException("operator " + config.name() + ": the rescaled restore point of checkpoint "
                    + point.checkpointId() + " hands it no state, so it cannot know where its input stands (the key "
                    + "groups " + config.keyGroups() + " must overlap a state of the "
                    + point.previousParallelism() + " subtasks it was taken with)");
        }
        List<OperatorState> parts = new ArrayList<>();
        for (RestoredState state : point.states()) {
            if (state.keyGroups() == null || state.keyGroups().overlaps(config.keyGroups())) {
                parts.add(SnapshotFiles.read(config, state.location(), state.fromSubtask()));
            }
        }
        return combine(config, point.checkpointId(), parts);
    }

    /** Whether the point and the configuration agree on the task's max parallelism, parallelism and key groups. */
    static void check(OperatorTaskConfig config, RestorePoint point) {
        if (point.maxParallelism() > 0 && point.maxParallelism() != config.maxParallelism()) {
            throw new IllegalStateException("operator " + config.name() + " is configured with max parallelism "
                    + config.maxParallelism() + ", but its job's restore point of checkpoint " + point.checkpointId()
                    + " has max parallelism " + point.maxParallelism() + ": the key groups of a task are fixed for "
                    + "its life; configure the subtask with max parallelism " + point.maxParallelism());
        }
        if (point.parallelism() > 0 && point.parallelism() != config.parallelism()) {
            throw new IllegalStateException("operator " + config.name() + " is configured as one of "
                    + config.parallelism() + " subtasks, but its job runs the task with " + point.parallelism()
                    + " (restore point of checkpoint " + point.checkpointId() + ")");
        }
        if (point.keyGroups() != null && !point.keyGroups().equals(config.keyGroups())) {
            throw new IllegalStateException("operator " + config.name() + " owns the key groups "
                    + config.keyGroups() + ", but its restore point of checkpoint " + point.checkpointId()
                    + " hands it " + point.keyGroups());
        }
    }

    /** One state of this subtask made of {@code parts}, states of checkpoint {@code checkpointId}. */
    static OperatorState combine(OperatorTaskConfig config, long checkpointId, List<OperatorState> parts) {
        Map<KeyedState.Key, byte[]> entries = new HashMap<>();
        long generation = -1;
        List<InputPositions> positions = new ArrayList<>();
        for (OperatorState part : parts) {
            entries.putAll(part.entries());
            generation = Math.max(generation, part.generation());
            positions.add(part.positions());
        }
        return new OperatorState(config.taskId(), config.subtask(), checkpointId, generation, config.inputTopic(),
                merge(positions), entries);
    }

    /**
     * The input positions of several states of one checkpoint: every partition's restart offset and every
     * channel's offset, from whichever state read them. States of one checkpoint agree where they overlap (two
     * subtasks reading one partition aligned the same barriers).
     *
     * @throws IllegalStateException when two states disagree on an offset
     */
    static InputPositions merge(List<InputPositions> parts) {
        Map<InputPartition, Long> restart = new TreeMap<>();
        Map<Channel, Long> reflected = new TreeMap<>();
        for (InputPositions part : parts) {
            part.restartOffsets().forEach((partition, offset) -> agree(restart, partition, offset));
            part.reflectedThrough().forEach((channel, offset) -> agree(reflected, channel, offset));
        }
        return new InputPositions(restart, reflected);
    }

    /** The channels of {@code positions} in {@code partitions} whose upstream subtask is beyond the parallelism now. */
    static List<Channel> retired(InputPositions positions, List<Integer> partitions, int upstreamParallelism) {
        return positions.reflectedThrough().keySet().stream()
                .filter(channel -> channel.upstream() >= upstreamParallelism
                        && partitions.contains(channel.partition().partition()))
                .toList();
    }

    /**
     * Checks that a restore knows where every partition the subtask reads now stands (after a rescale some handed
     * state read each of them, since its key groups overlap the partition's): reading one from its beginning instead
     * would count its records twice. A snapshot of the release before key-group routing, which read other partitions,
     * fails here rather than reading a partition it did not read from its beginning.
     *
     * @throws IllegalStateException naming the partitions no state holds a position of
     */
    static void requireEveryPartition(OperatorTaskConfig config, InputPositions positions, List<Integer> partitions,
            long checkpointId) {
        List<Integer> missing = partitions.stream().filter(partition -> positions.restartOffset(
                new InputPartition(config.inputTopic(), partition)).isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("operator " + config.name() + ": no state of checkpoint " + checkpointId
                    + " it restores holds a position of the partitions " + missing + " of " + config.inputTopic()
                    + " it reads now (a snapshot of a release before key-group routing, or partitions added to the "
                    + "topic?); reading them from their beginning would count their records twice");
        }
    }

    private static <K> void agree(Map<K, Long> merged, K key, long offset) {
        Long before = merged.putIfAbsent(key, offset);
        if (before != null && before != offset) {
            throw new IllegalStateException("the states of one checkpoint disagree on where " + key + " stands: "
                    + before + " and " + offset);
        }
    }

    /** The state of a restore point, when there is one. */
    static Optional<OperatorState> read(OperatorTaskConfig config, Optional<RestorePoint> from) throws IOException {
        return from.isPresent() ? Optional.of(read(config, from.get())) : Optional.empty();
    }

    /**
     * The location the lineage keeps for the restored checkpoint: the own state's; after a rescale the first state
     * handed (a rollback to that checkpoint reads the rescaled restore point again).
     */
    static Optional<String> lineageLocation(Optional<RestorePoint> from) {
        if (from.isEmpty() || !from.get().rescaled()) {
            return from.map(RestorePoint::location);
        }
        return from.get().states().stream().findFirst().map(RestoredState::location);
    }
}
