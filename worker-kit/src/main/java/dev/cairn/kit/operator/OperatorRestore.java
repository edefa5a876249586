package dev.cairn.kit.operator;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an operator subtask restores from a restore point: its own snapshot (of the release before key-group routing,
 * the snapshots of all its subtasks, {@link #readOwn}), or after a rescale
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
            return readOwn(config, location);
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

    /**
     * The subtask's own state at {@code location}, for a restore that is not rescaled or a rollback. A state file of
     * format 1 is a snapshot of the release before key-group routing, whose subtask {@code i} read the partitions
     * {@code p % parallelism == i} and held every key routed there, while this subtask owns its key groups and reads
     * the partitions overlapping them: it reads the format-1 files of every subtask of that checkpoint, which that
     * release wrote beside each other ({@link SnapshotFiles#stateFileBeside}; a restore that is not rescaled runs the
     * task with the parallelism it was taken with), and {@link #combine combines} them as after a rescale.
     *
     * @throws StateUnreadableException naming the file when the own file, or another subtask's file of a format-1
     *     snapshot, is missing, truncated or corrupt
     * @throws IOException when a file cannot be read, belongs to another task, subtask or checkpoint, or is not of
     *     format 1 beside a file of format 1
     */
    static OperatorState readOwn(OperatorTaskConfig config, String location) throws IOException {
        OperatorStateCodec.Versioned own = SnapshotFiles.readVersioned(config, location, config.subtask());
        if (!own.formatOne()) {
            return own.state();
        }
        long checkpointId = own.state().checkpointId();
        List<OperatorState> parts = new ArrayList<>();
        for (int subtask = 0; subtask < config.parallelism(); subtask++) {
            parts.add(subtask == config.subtask() ? own.state()
                    : previousRelease(config, location, checkpointId, subtask));
        }
        return combine(config, checkpointId, parts);
    }

    /** Subtask {@code subtask}'s format-1 file beside the own format-1 file at {@code own}, of its key groups. */
    private static OperatorState previousRelease(OperatorTaskConfig config, String own, long checkpointId,
            int subtask) throws IOException {
        String location = SnapshotFiles.stateFileBeside(config, own, subtask);
        String why = "operator " + config.name() + " restores checkpoint " + checkpointId + " of the release before "
                + "key-group routing (its state file " + own + " is of format 1), so it reads the files of all "
                + config.parallelism() + " subtasks of that checkpoint, and the file of subtask " + subtask;
        OperatorStateCodec.Versioned sibling;
        try {
            sibling = SnapshotFiles.readVersioned(config, location, subtask);
        } catch (StateUnreadableException e) {
            throw new StateUnreadableException(why + " cannot be read: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IOException(why + " cannot be restored: " + e.getMessage(), e);
        }
        if (!sibling.formatOne() || sibling.state().checkpointId() != checkpointId) {
            throw new IOException(why + ", " + location + ", is of format " + sibling.version() + " and checkpoint "
                    + sibling.state().checkpointId() + ", not of format 1 and checkpoint " + checkpointId
                    + ": a checkpoint taken by workers of both releases (a rolling upgrade) cannot be restored");
        }
        return sibling.state();
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
     * would count its records twice; a snapshot of the release before key-group routing, which read other partitions,
     * is read with the files of all its subtasks ({@link #readOwn}). Partitions added to the topic since fail here
     * rather than being read from their beginning.
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
                    + " it reads now (partitions added to the topic?); reading them from their beginning would "
                    + "count their records twice");
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
