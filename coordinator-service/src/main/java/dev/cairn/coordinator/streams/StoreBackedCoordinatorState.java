package dev.cairn.coordinator.streams;

import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateKeys.AttemptKey;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.TaskFinished;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * {@link CoordinatorState} over the Kafka Streams stores of one stream task. Every read and write is one key,
 * except {@link #acks} and {@link #removeAcks}, which scan one checkpoint's key prefix.
 *
 * <p>Each {@link StateTable} is bound to its store. The processor is the only writer of these stores, so the
 * values it reads often are kept decoded here (jobs, specs, vertices, attempts) and a checkpoint's progress is derived from its acks once, then kept up to
 * date: an ack decodes none of them once they are known. Writes go
 * through to the stores (and their changelogs) at once. The cache lives as long as this object, which the
 * processor makes anew whenever Kafka Streams (re)initialises the task, after a restore included.
 */
final class StoreBackedCoordinatorState implements CoordinatorState {

    /** One table's store, how its keys are encoded, and its decoded values when they are remembered. */
    private record Binding<K, S, V>(KeyValueStore<S, V> store, Function<K, S> encode, Map<K, V> known) {
    }

    private record CheckpointRef(String jobId, long checkpointId) {
    }

    /** Each table's store, by {@link StateTable#index()}. */
    private final Binding<?, ?, ?>[] bindings = new Binding<?, ?, ?>[StateTable.ALL.size()];
    private final KeyValueStore<Bytes, byte[]> acks;
    private final StoreReader reader;
    /** Derived from the acks: computed by one scan when first needed, then kept up to date by putAck. */
    private final Map<CheckpointRef, CheckpointProgress> knownProgress = new HashMap<>();

    /** Over the stores of the task the processor runs in. */
    StoreBackedCoordinatorState(Function<String, KeyValueStore<?, ?>> stores) {
        bind(stores, StateTable.JOBS, CoordinatorStores.JOBS, Function.identity(), true);
        bind(stores, StateTable.SPECS, CoordinatorStores.SPECS, Function.identity(), true);
        bind(stores, StateTable.VERTICES, CoordinatorStores.VERTICES, k -> StoreKeys.vertex(k.jobId(), k.taskId()),
                true);
        Function<AttemptKey, Bytes> subtask = k -> StoreKeys.attempt(k.jobId(), k.taskId(), k.subtaskIndex());
        bind(stores, StateTable.ATTEMPTS, CoordinatorStores.ATTEMPTS, subtask, true);
        bind(stores, StateTable.FINISHED, CoordinatorStores.FINISHED, subtask, false);
        bind(stores, StateTable.SUMMARIES, CoordinatorStores.SUMMARIES,
                k -> StoreKeys.checkpoint(k.jobId(), k.checkpointId()), false);
        bind(stores, StateTable.RETAINED, CoordinatorStores.RETAINED, Function.identity(), false);
        bind(stores, StateTable.REQUESTS, CoordinatorStores.REQUESTS,
                k -> StoreKeys.request(k.jobId(), k.requestId()), false);
        bind(stores, StateTable.REQUEST_INDEXES, CoordinatorStores.REQUEST_INDEX, Function.identity(), false);
        this.acks = cast(stores.apply(CoordinatorStores.ACKS));
        this.reader = new StoreReader(new StoreReader.Stores() {
            @Override
            public <K, V> org.apache.kafka.streams.state.ReadOnlyKeyValueStore<K, V> store(String name) {
                return cast(stores.apply(name));
            }
        });
    }

    /**
     * Binds a table to its store. Remembered tables keep the decoded values of the keys that exist (absent keys
     * are not remembered, so bad input cannot grow them): those an ack reads.
     */
    private <K, S, V> void bind(Function<String, KeyValueStore<?, ?>> stores, StateTable<K, V> table, String store,
            Function<K, S> encode, boolean remembered) {
        bindings[table.index()] = new Binding<>(cast(stores.apply(store)), encode, remembered ? new HashMap<>() : null);
    }

    @SuppressWarnings("unchecked")
    private <K, V> Binding<K, Object, V> binding(StateTable<K, V> table) {
        return (Binding<K, Object, V>) bindings[table.index()];
    }

    @SuppressWarnings("unchecked")
    private static <K, V> KeyValueStore<K, V> cast(KeyValueStore<?, ?> store) {
        return (KeyValueStore<K, V>) store;
    }

    @Override
    public <K, V> Optional<V> get(StateTable<K, V> table, K key) {
        Binding<K, Object, V> binding = binding(table);
        V value = binding.known() == null ? null : binding.known().get(key);
        if (value != null) {
            return Optional.of(value);
        }
        V stored = binding.store().get(binding.encode().apply(key));
        if (stored != null && binding.known() != null) {
            binding.known().put(key, stored);
        }
        return Optional.ofNullable(stored);
    }

    @Override
    public <K, V> void put(StateTable<K, V> table, K key, V value) {
        Binding<K, Object, V> binding = binding(table);
        binding.store().put(binding.encode().apply(key), value);
        if (binding.known() != null) {
            binding.known().put(key, value);
        }
    }

    @Override
    public <K, V> void remove(StateTable<K, V> table, K key) {
        Binding<K, Object, V> binding = binding(table);
        binding.store().delete(binding.encode().apply(table.removable(key)));
        if (binding.known() != null) {
            binding.known().remove(key);
        }
    }

    /** Every finished subtask of the job (for the restore parts of a completion). */
    List<TaskFinished> finished(String jobId) {
        return reader.finished(jobId);
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return reader.ack(jobId, checkpointId, taskId, subtaskIndex);
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        acks.put(StoreKeys.ack(ack.getJobId(), ack.getCheckpointId(), ack.getTaskId(), ack.getSubtaskIndex()),
                CoordinatorStores.ACK_VALUES.serialize(CoordinatorStores.ACKS, ack));
        knownProgress.computeIfPresent(new CheckpointRef(ack.getJobId(), ack.getCheckpointId()),
                (k, progress) -> progress.plus(ack));
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        return reader.acks(jobId, checkpointId);
    }

    /** Deletes one checkpoint's acks: a scan of that checkpoint's key range, never of the whole store. */
    @Override
    public void removeAcks(String jobId, long checkpointId) {
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it =
                     acks.prefixScan(StoreKeys.checkpoint(jobId, checkpointId), new BytesSerializer())) {
            while (it.hasNext()) {
                keys.add(it.peekNextKey());
                it.next();
            }
        }
        keys.forEach(acks::delete);
        knownProgress.remove(new CheckpointRef(jobId, checkpointId));
    }

    /** The decider puts an ack only for a subtask that has none accepted, so putAck's increment is exact. */
    @Override
    public CheckpointProgress progress(String jobId, long checkpointId) {
        return knownProgress.computeIfAbsent(new CheckpointRef(jobId, checkpointId),
                k -> reader.progress(jobId, checkpointId));
    }
}
