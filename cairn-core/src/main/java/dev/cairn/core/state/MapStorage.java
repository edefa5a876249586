package dev.cairn.core.state;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@link Storage} in hash maps, one per table, keyed by the tables' typed keys (nothing is encoded). The keys of a
 * grouped table sit in one map per group, so reading or removing a group (one checkpoint's acks) touches only it.
 * Two instances are equal when they hold equal values under equal keys.
 */
public final class MapStorage implements Storage {

    /** Per table, at its {@link StateTable#index()}: key to value, or, grouped, group to (key to value). */
    private final Map<Object, Object>[] tables;

    @SuppressWarnings("unchecked")
    public MapStorage() {
        tables = new Map[StateTable.ALL.size()];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = new HashMap<>();
        }
    }

    /** A copy whose maps are independent of this one's (values are immutable and shared). */
    public MapStorage copy() {
        MapStorage copy = new MapStorage();
        for (StateTable<?, ?> table : StateTable.ALL) {
            Map<Object, Object> mine = tables[table.index()];
            if (table.grouped()) {
                mine.forEach((group, entries) -> copy.tables[table.index()].put(group,
                        new HashMap<>((Map<?, ?>) entries)));
            } else {
                copy.tables[table.index()].putAll(mine);
            }
        }
        return copy;
    }

    @SuppressWarnings("unchecked")
    private <K, V> Map<K, V> entries(StateTable<K, ?> table, K key, boolean make) {
        Map<Object, Object> all = tables[table.index()];
        if (!table.grouped()) {
            return (Map<K, V>) all;
        }
        Object group = table.keys().group(key);
        Map<K, V> ofGroup = (Map<K, V>) all.get(group);
        if (ofGroup == null && make) {
            ofGroup = new HashMap<>();
            all.put(group, ofGroup);
        }
        return ofGroup;
    }

    @Override
    public <K, V extends SpecificRecord> V get(StateTable<K, V> table, K key) {
        Map<K, V> entries = entries(table, key, false);
        return entries == null ? null : entries.get(key);
    }

    @Override
    public <K, V extends SpecificRecord> void put(StateTable<K, V> table, K key, V value) {
        entries(table, key, true).put(key, Objects.requireNonNull(value));
    }

    @Override
    public <K, V extends SpecificRecord> void delete(StateTable<K, V> table, K key) {
        Map<K, V> entries = entries(table, key, false);
        if (entries != null) {
            entries.remove(key);
            if (entries.isEmpty() && table.grouped()) {
                tables[table.index()].remove(table.keys().group(key));
            }
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V extends SpecificRecord> Map<K, V> scan(StateTable<K, V> table, Object group) {
        Map<Object, Object> all = tables[table.index()];
        if (group != null) {
            Map<K, V> ofGroup = (Map<K, V>) all.get(group);
            return ofGroup == null ? new HashMap<>() : new HashMap<>(ofGroup);
        }
        if (!table.grouped()) {
            return new HashMap<>((Map<K, V>) (Map<?, ?>) all);
        }
        Map<K, V> every = new HashMap<>();
        all.values().forEach(ofGroup -> every.putAll((Map<K, V>) ofGroup));
        return every;
    }

    @Override
    public <K, V extends SpecificRecord> void deleteGroup(StateTable<K, V> table, Object group) {
        tables[table.index()].remove(Objects.requireNonNull(group));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MapStorage other && java.util.Arrays.equals(tables, other.tables);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(tables);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        StateTable.ALL.forEach(table -> text.append(table).append('=').append(tables[table.index()]).append(", "));
        return text.append('}').toString();
    }
}
