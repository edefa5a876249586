package dev.cairn.coordinator.streams;

import dev.cairn.core.state.StateTable;
import dev.cairn.core.state.Storage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * every message decoded, so that an ack decodes none of them once they are known, and what {@link KeptGroups} keeps
 * of the tables read mostly for keys they do not hold ({@link StateTable#keysKept}: the acks), so that the
 * duplicate-ack check is a hash lookup, not a search of the store's sorted bytes, and a completion reads its acks
 * without decoding them (all of it lives as long as this object, which the processor makes anew whenever Kafka
 * Streams (re)initialises the task); and the interactive queries' ({@link #forQueries}), read-only, which opens a
 * store only when a read needs it and caches nothing. Reads may throw Kafka Streams'
 * {@code InvalidStateStoreException} when the task moves away meanwhile; the API answers 503 then.
 */
public final class StreamsStorage implements Storage {

    private final Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> open;
    private final boolean writable;
    /** Each table's store, by {@link StateTable#index()}, opened on first use. */
    private final ReadOnlyKeyValueStore<?, ?>[] stores = new ReadOnlyKeyValueStore<?, ?>[StateTable.ALL.size()];
    /** Decoded values of the tables kept decoded, by table index; {@code null} when nothing is cached. */
    private final Map<?, ?>[] decoded = new Map<?, ?>[StateTable.ALL.size()];
    /** What is kept in memory of the tables whose keys are kept, by table index; {@code null} until first used. */
    private final KeptGroups<?, ?>[] kept = new KeptGroups<?, ?>[StateTable.ALL.size()];

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
     * What is kept of {@code table}, its keys read from the store on first use; {@code null} for a table whose keys
     * are not kept, or in the queries' storage, which sees the writes of a task it does not own.
     */
    @SuppressWarnings("unchecked")
    private <K, V extends SpecificRecord> KeptGroups<K, V> kept(StateTable<K, V> table) {
        if (!writable || !table.keysKept()) {
            return null;
        }
        KeptGroups<K, V> groups = (KeptGroups<K, V>) kept[table.index()];
        if (groups == null) {
            groups = new KeptGroups<>();
            try (KeyValueIterator<Bytes, byte[]> it = store(table).all()) {
                while (it.hasNext()) {
                    K key = table.keys().decode(it.next().key.get());
                    groups.stored(groupOf(table, key), key);
                }
            }
            kept[table.index()] = groups;
        }
        return groups;
    }

    private static <K> Object groupOf(StateTable<K, ?> table, K key) {
        return table.grouped() ? table.keys().group(key) : null;
    }

    @Override
    public <K, V extends SpecificRecord> V get(StateTable<K, V> table, K key) {
        KeptGroups<K, V> groups = kept(table);
        if (groups != null && !groups.mayHold(groupOf(table, key), key)) {
            return null;
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
        KeptGroups<K, V> groups = kept(table);
        if (groups != null) {
            groups.put(groupOf(table, key), key, value);
        }
        Map<K, V> known = decoded(table);
        if (known != null) {
            known.put(key, value);
        }
    }

    @Override
    public <K, V extends SpecificRecord> void delete(StateTable<K, V> table, K key) {
        writable(table).delete(Bytes.wrap(table.keys().encode(key)));
        KeptGroups<K, V> groups = kept(table);
        if (groups != null) {
            groups.removed(groupOf(table, key));
        }
        Map<K, V> known = decoded(table);
        if (known != null) {
            known.remove(key);
        }
    }

    @Override
    public <K, V extends SpecificRecord> Map<K, V> scan(StateTable<K, V> table, Object group) {
        KeptGroups<K, V> groups = group == null ? null : kept(table);
        if (groups != null && groups.holdsNone(group)) {
            return new HashMap<>();
        }
        Map<K, V> whole = groups == null ? null : groups.takeWhole(group);
        if (whole != null) {
            return whole;
        }
        Map<K, V> entries = new HashMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = iterate(table, group)) {
            it.forEachRemaining(entry -> entries.put(table.keys().decode(entry.key.get()), table.decode(entry.value)));
        }
        return entries;
    }

    @Override
    public <K, V extends SpecificRecord> void settled(StateTable<K, V> table, Object group) {
        KeptGroups<K, V> groups = kept(table);
        if (groups != null) {
            groups.settled(group);
        }
    }

    /** How many values of {@code table} are kept in memory beside its store: at most {@link KeptGroups#MAX_VALUES}. */
    int valuesKept(StateTable<?, ?> table) {
        KeptGroups<?, ?> groups = kept[table.index()];
        return groups == null ? 0 : groups.valuesKept();
    }

    /** Deletes one group's keys: a scan of that group's key range, never of the whole store. */
    @Override
    public <K, V extends SpecificRecord> void deleteGroup(StateTable<K, V> table, Object group) {
        KeyValueStore<Bytes, byte[]> store = writable(table);
        KeptGroups<K, V> groups = kept(table);
        if (groups != null && groups.holdsNone(group)) {
            return;
        }
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = iterate(table, group)) {
            while (it.hasNext()) {
                keys.add(it.peekNextKey());
                it.next();
            }
        }
        keys.forEach(store::delete);
        if (groups != null) {
            groups.removeGroup(group);
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
