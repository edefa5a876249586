package dev.cairn.coordinator.streams;

import dev.cairn.core.state.StateTable;
import dev.cairn.core.state.Storage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@link Storage} over the Kafka Streams stores of one stream task, one store of bytes per {@link StateTable}
 * ({@link CoordinatorStores}): keys and values are encoded by the table's codecs. Every read and write is one key;
 * a group is one prefix scan.
 *
 * <p>Two uses: the processor's ({@link #forTask}), the only writer, which keeps the values of the tables read on
 * every message decoded, so that an ack decodes none of them once they are known, and the hashes of every key of
 * the tables read mostly for keys they do not hold ({@link StateTable#keysKept}: the duplicate-ack check), so that
 * such a read is a hash lookup, not a search of the store's sorted bytes (both live as long as this object, which
 * the processor makes anew whenever Kafka Streams (re)initialises the task); and the interactive queries'
 * ({@link #forQueries}), read-only, which opens a store only when a read needs it and caches nothing. Reads may
 * throw Kafka Streams' {@code InvalidStateStoreException} when the task moves away meanwhile; the API answers 503
 * then.
 */
public final class StreamsStorage implements Storage {

    private final Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> open;
    private final boolean writable;
    /** Each table's store, by {@link StateTable#index()}, opened on first use. */
    private final ReadOnlyKeyValueStore<?, ?>[] stores = new ReadOnlyKeyValueStore<?, ?>[StateTable.ALL.size()];
    /** Decoded values of the tables kept decoded, by table index; {@code null} when nothing is cached. */
    private final Map<?, ?>[] decoded = new Map<?, ?>[StateTable.ALL.size()];
    /**
     * The hashes of every key of the tables whose keys are kept, by group, by table index; {@code null} until first
     * used. A key whose hash is not there is not in the store. Hashes, not keys: a 100,000-subtask job's history
     * holds a million acks, and a boxed hash costs a third of an ack key with its own task id. A removed key's hash
     * stays until its group goes (another key may share it): a hash that is there only costs a store read.
     */
    private final Map<?, ?>[] keptKeys = new Map<?, ?>[StateTable.ALL.size()];

    private StreamsStorage(Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> open, boolean writable) {
        this.open = open;
        this.writable = writable;
        if (writable) {
            StateTable.ALL.stream().filter(StateTable::keptDecoded)
                    .forEach(table -> decoded[table.index()] = new HashMap<>());
        }
    }

    /** The processor's storage over the stores of its task, by name. */
    static StreamsStorage forTask(Function<String, KeyValueStore<Bytes, byte[]>> stores) {
        return new StreamsStorage(stores::apply, true);
    }

    /** A read-only storage over one task's stores as interactive queries find them, by name. */
    public static StreamsStorage forQueries(Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> stores) {
        return new StreamsStorage(stores, false);
    }

    @SuppressWarnings("unchecked")
    private ReadOnlyKeyValueStore<Bytes, byte[]> store(StateTable<?, ?> table) {
        ReadOnlyKeyValueStore<?, ?> store = stores[table.index()];
        if (store == null) {
            store = open.apply(table.store());
            stores[table.index()] = store;
        }
        return (ReadOnlyKeyValueStore<Bytes, byte[]>) store;
    }

    private KeyValueStore<Bytes, byte[]> writable(StateTable<?, ?> table) {
        if (!writable) {
            throw new UnsupportedOperationException("the interactive queries' stores are read-only: " + table);
        }
        return (KeyValueStore<Bytes, byte[]>) store(table);
    }

    @SuppressWarnings("unchecked")
    private <K, V> Map<K, V> decoded(StateTable<K, ?> table) {
        return (Map<K, V>) decoded[table.index()];
    }

    /**
     * The kept keys of {@code table} by group, read from its store on first use; {@code null} for a table whose keys
     * are not kept, or in the queries' storage, which sees the writes of a task it does not own.
     */
    @SuppressWarnings("unchecked")
    private <K> Map<Object, Set<Integer>> keptKeys(StateTable<K, ?> table) {
        if (!writable || !table.keysKept()) {
            return null;
        }
        Map<Object, Set<Integer>> keys = (Map<Object, Set<Integer>>) keptKeys[table.index()];
        if (keys == null) {
            keys = new HashMap<>();
            try (KeyValueIterator<Bytes, byte[]> it = store(table).all()) {
                while (it.hasNext()) {
                    K key = table.keys().decode(it.next().key.get());
                    keys.computeIfAbsent(groupOf(table, key), group -> new HashSet<>()).add(key.hashCode());
                }
            }
            keptKeys[table.index()] = keys;
        }
        return keys;
    }

    private static <K> Object groupOf(StateTable<K, ?> table, K key) {
        return table.grouped() ? table.keys().group(key) : null;
    }

    @Override
    public <K, V extends SpecificRecord> V get(StateTable<K, V> table, K key) {
        Map<Object, Set<Integer>> keys = keptKeys(table);
        if (keys != null) {
            Set<Integer> group = keys.get(groupOf(table, key));
            if (group == null || !group.contains(key.hashCode())) {
                return null;
            }
        }
        Map<K, V> known = decoded(table);
        V value = known == null ? null : known.get(key);
        if (value != null) {
            return value;
        }
        byte[] bytes = store(table).get(Bytes.wrap(table.keys().encode(key)));
        if (bytes == null) {
            return null;
        }
        value = table.decode(bytes);
        if (known != null) {
            known.put(key, value);
        }
        return value;
    }

    @Override
    public <K, V extends SpecificRecord> void put(StateTable<K, V> table, K key, V value) {
        writable(table).put(Bytes.wrap(table.keys().encode(key)), table.encode(value));
        Map<Object, Set<Integer>> keys = keptKeys(table);
        if (keys != null) {
            keys.computeIfAbsent(groupOf(table, key), group -> new HashSet<>()).add(key.hashCode());
        }
        Map<K, V> known = decoded(table);
        if (known != null) {
            known.put(key, value);
        }
    }

    @Override
    public <K, V extends SpecificRecord> void delete(StateTable<K, V> table, K key) {
        writable(table).delete(Bytes.wrap(table.keys().encode(key)));
        Map<K, V> known = decoded(table);
        if (known != null) {
            known.remove(key);
        }
    }

    @Override
    public <K, V extends SpecificRecord> Map<K, V> scan(StateTable<K, V> table, Object group) {
        Map<K, V> entries = new HashMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = iterate(table, group)) {
            it.forEachRemaining(entry -> entries.put(table.keys().decode(entry.key.get()), table.decode(entry.value)));
        }
        return entries;
    }

    /** Deletes one group's keys: a scan of that group's key range, never of the whole store. */
    @Override
    public <K, V extends SpecificRecord> void deleteGroup(StateTable<K, V> table, Object group) {
        KeyValueStore<Bytes, byte[]> store = writable(table);
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = iterate(table, group)) {
            while (it.hasNext()) {
                keys.add(it.peekNextKey());
                it.next();
            }
        }
        keys.forEach(store::delete);
        Map<Object, Set<Integer>> kept = keptKeys(table);
        if (kept != null) {
            if (group == null) {
                kept.clear();
            } else {
                kept.remove(group);
            }
        }
        Map<K, V> known = decoded(table);
        if (known != null) {
            known.keySet().removeIf(key -> group.equals(groupOf(table, key)));
        }
    }

    private KeyValueIterator<Bytes, byte[]> iterate(StateTable<?, ?> table, Object group) {
        return group == null ? store(table).all()
                : store(table).prefixScan(Bytes.wrap(table.keys().encodeGroup(group)), new BytesSerializer());
    }
}
