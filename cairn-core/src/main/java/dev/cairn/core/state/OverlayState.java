package dev.cairn.core.state;

import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateKeys.SubtaskKey;
import dev.cairn.events.CheckpointAcknowledged;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A copy-on-write {@link CoordinatorState}: reads fall through to a base that is never written, writes are
 * kept here. The decider works on one, so that later steps of a decision see the effects of earlier ones while
 * the real state stays untouched; once the decision has succeeded, {@link #applyTo} writes what changed to the
 * real state: all of it, each key once, with its final value. So every event is applied once, and a decision
 * that fails leaves nothing behind.
 *
 * <p>Reads of what was not written here go to the base each time: the base is a map in memory, or the
 * processor's cache of decoded store values, so a read is a lookup, and a decision allocates only for what it
 * writes.
 */
public final class OverlayState implements CoordinatorState {

    private final CoordinatorState base;
    /** What was written here, by {@link StateTable#index()}; a table's slots are made on its first write. */
    private final Slots<?, ?>[] written = new Slots<?, ?>[StateTable.ALL.size()];
    /** Acks written here, per checkpoint; made on first use. */
    private Map<CheckpointKey, Map<SubtaskKey, CheckpointAcknowledged>> acks;
    /** Checkpoints whose acks were all removed here, in order; acks written after the removal are in acks. */
    private Set<CheckpointKey> removedAcks;

    public OverlayState(CoordinatorState base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    /** Writes every change made here to {@code target}, each key once with its final value. */
    public void applyTo(CoordinatorState target) {
        for (StateTable<?, ?> table : StateTable.ALL) {
            applyTo(target, table);
        }
        if (removedAcks != null) {
            removedAcks.forEach(k -> target.removeAcks(k.jobId(), k.checkpointId()));
        }
        if (acks != null) {
            acks.values().forEach(ofCheckpoint -> ofCheckpoint.values().forEach(target::putAck));
        }
    }

    private <K, V> void applyTo(CoordinatorState target, StateTable<K, V> table) {
        Slots<K, V> slots = slots(table, false);
        if (slots != null) {
            slots.applyTo((key, value) -> target.put(table, key, value), key -> target.remove(table, key));
        }
    }

    /** The table's slots; made when {@code make}, else {@code null} while nothing of the table was written. */
    @SuppressWarnings("unchecked")
    private <K, V> Slots<K, V> slots(StateTable<K, V> table, boolean make) {
        Slots<?, ?> slots = written[table.index()];
        if (slots == null && make) {
            slots = new Slots<K, V>();
            written[table.index()] = slots;
        }
        return (Slots<K, V>) slots;
    }

    @Override
    public <K, V> Optional<V> get(StateTable<K, V> table, K key) {
        Slots<K, V> slots = slots(table, false);
        Optional<V> value = slots == null ? null : slots.written(key);
        return value != null ? value : base.get(table, key);
    }

    @Override
    public <K, V> void put(StateTable<K, V> table, K key, V value) {
        slots(table, true).put(key, Objects.requireNonNull(value));
    }

    @Override
    public <K, V> void remove(StateTable<K, V> table, K key) {
        slots(table, true).remove(table.removable(key));
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        if (acks == null && removedAcks == null) {
            return base.ack(jobId, checkpointId, taskId, subtaskIndex);
        }
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks == null ? null : acks.get(checkpoint);
        if (ofCheckpoint != null) {
            CheckpointAcknowledged written = ofCheckpoint.get(new SubtaskKey(taskId, subtaskIndex));
            if (written != null) {
                return Optional.of(written);
            }
        }
        if (removedAcks != null && removedAcks.contains(checkpoint)) {
            return Optional.empty();
        }
        return base.ack(jobId, checkpointId, taskId, subtaskIndex);
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        if (acks == null) {
            acks = new HashMap<>();
        }
        acks.computeIfAbsent(new CheckpointKey(ack.getJobId(), ack.getCheckpointId()), k -> new HashMap<>())
                .put(new SubtaskKey(ack.getTaskId(), ack.getSubtaskIndex()), ack);
    }

    /** The base's acks of the checkpoint with this overlay's changes applied over them. */
    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        TreeMap<SubtaskKey, CheckpointAcknowledged> merged = new TreeMap<>();
        if (removedAcks == null || !removedAcks.contains(checkpoint)) {
            for (CheckpointAcknowledged ack : base.acks(jobId, checkpointId)) {
                merged.put(new SubtaskKey(ack.getTaskId(), ack.getSubtaskIndex()), ack);
            }
        }
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks == null ? null : acks.get(checkpoint);
        if (ofCheckpoint != null) {
            merged.putAll(ofCheckpoint);
        }
        return List.copyOf(merged.values());
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        if (acks != null) {
            acks.remove(checkpoint);
        }
        if (removedAcks == null) {
            removedAcks = new LinkedHashSet<>();
        }
        removedAcks.add(checkpoint);
    }

    /**
     * The base's progress (none when this overlay removed the checkpoint's acks) plus the acks written here. The
     * decider puts an ack only for a subtask that has none accepted, so a written ack is never counted twice.
     */
    @Override
    public CheckpointProgress progress(String jobId, long checkpointId) {
        if (acks == null && removedAcks == null) {
            return base.progress(jobId, checkpointId);
        }
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        CheckpointProgress progress = removedAcks != null && removedAcks.contains(checkpoint) ? CheckpointProgress.NONE
                : base.progress(jobId, checkpointId);
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks == null ? null : acks.get(checkpoint);
        if (ofCheckpoint != null) {
            for (CheckpointAcknowledged ack : ofCheckpoint.values()) {
                progress = progress.plus(ack);
            }
        }
        return progress;
    }
}
