package dev.cairn.core.state;

import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateKeys.RequestKey;
import dev.cairn.core.state.StateKeys.SubtaskKey;
import dev.cairn.core.state.StateKeys.VertexKey;
import dev.cairn.events.CheckpointAcknowledged;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link CoordinatorState} in hash maps: for tests, property tests, benchmarks of the core and audit replay.
 * Point reads and writes are one hash lookup; one checkpoint's acks sit in a map of their own, so removing
 * them is one operation and listing them sorts only them. Two instances are equal when they hold equal values
 * under equal keys.
 */
public final class InMemoryCoordinatorState implements CoordinatorState {

    /** One map per {@link StateTable}, at its {@link StateTable#index()}. */
    private final List<Map<Object, Object>> tables = new ArrayList<>();
    /** Never holds an empty inner map. */
    private final Map<CheckpointKey, Map<SubtaskKey, CheckpointAcknowledged>> acks = new HashMap<>();
    /** Derived from the acks, kept up to date by putAck and removeAcks; not part of equality. */
    private final Map<CheckpointKey, CheckpointProgress> progress = new HashMap<>();

    public InMemoryCoordinatorState() {
        StateTable.ALL.forEach(table -> tables.add(new HashMap<>()));
    }

    /** A copy whose maps are independent of this one (values are immutable and shared). */
    public InMemoryCoordinatorState copy() {
        InMemoryCoordinatorState copy = new InMemoryCoordinatorState();
        for (int i = 0; i < tables.size(); i++) {
            copy.tables.get(i).putAll(tables.get(i));
        }
        acks.forEach((key, value) -> copy.acks.put(key, new HashMap<>(value)));
        copy.progress.putAll(progress);
        return copy;
    }

    /** Ids of every job, sorted. */
    public List<String> jobIds() {
        return entries(StateTable.JOBS).keySet().stream().sorted().toList();
    }

    /** Ids of the stored vertices of one job, sorted. */
    public List<String> vertexIds(String jobId) {
        return entries(StateTable.VERTICES).keySet().stream().filter(k -> k.jobId().equals(jobId))
                .map(VertexKey::taskId).sorted().toList();
    }

    /** Ids of the job's stored request records, sorted. */
    public List<String> requestIds(String jobId) {
        return entries(StateTable.REQUESTS).keySet().stream().filter(k -> k.jobId().equals(jobId))
                .map(RequestKey::requestId).sorted().toList();
    }

    /**
     * Puts every entry of this state into {@code target}, table by table, then every accepted ack: how a state
     * folded from the journal becomes the stores of a stream task.
     *
     * @return how many entries were put
     */
    public long copyTo(CoordinatorState target) {
        long copied = 0;
        for (StateTable<?, ?> table : StateTable.ALL) {
            copied += copyTable(table, target);
        }
        for (Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint : acks.values()) {
            ofCheckpoint.values().forEach(target::putAck);
            copied += ofCheckpoint.size();
        }
        return copied;
    }

    private <K, V> int copyTable(StateTable<K, V> table, CoordinatorState target) {
        Map<K, V> entries = entries(table);
        entries.forEach((key, value) -> target.put(table, key, value));
        return entries.size();
    }

    @SuppressWarnings("unchecked")
    private <K, V> Map<K, V> entries(StateTable<K, V> table) {
        return (Map<K, V>) (Map<?, ?>) tables.get(table.index());
    }

    @Override
    public <K, V> Optional<V> get(StateTable<K, V> table, K key) {
        return Optional.ofNullable(entries(table).get(key));
    }

    @Override
    public <K, V> void put(StateTable<K, V> table, K key, V value) {
        entries(table).put(key, Objects.requireNonNull(value));
    }

    @Override
    public <K, V> void remove(StateTable<K, V> table, K key) {
        entries(table).remove(table.removable(key));
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks.get(new CheckpointKey(jobId, checkpointId));
        return ofCheckpoint == null ? Optional.empty()
                : Optional.ofNullable(ofCheckpoint.get(new SubtaskKey(taskId, subtaskIndex)));
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        CheckpointKey checkpoint = new CheckpointKey(ack.getJobId(), ack.getCheckpointId());
        CheckpointAcknowledged replaced = acks.computeIfAbsent(checkpoint, k -> new HashMap<>())
                .put(new SubtaskKey(ack.getTaskId(), ack.getSubtaskIndex()), ack);
        if (replaced == null) {
            progress.put(checkpoint, progress.getOrDefault(checkpoint, CheckpointProgress.NONE).plus(ack));
        } else {
            progress.put(checkpoint, CheckpointProgress.of(acks.get(checkpoint).values()));
        }
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks.get(new CheckpointKey(jobId, checkpointId));
        return ofCheckpoint == null ? List.of() : new ArrayList<>(new TreeMap<>(ofCheckpoint).values());
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        acks.remove(new CheckpointKey(jobId, checkpointId));
        progress.remove(new CheckpointKey(jobId, checkpointId));
    }

    @Override
    public CheckpointProgress progress(String jobId, long checkpointId) {
        return progress.getOrDefault(new CheckpointKey(jobId, checkpointId), CheckpointProgress.NONE);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InMemoryCoordinatorState other && tables.equals(other.tables) && acks.equals(other.acks);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tables, acks);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("InMemoryCoordinatorState{");
        StateTable.ALL.forEach(table -> text.append(table).append('=').append(tables.get(table.index())).append(", "));
        return text.append("acks=").append(acks).append('}').toString();
    }
}
