package dev.cairn.kit.operator;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The keyed state of one operator subtask: a value (bytes) per key (bytes), for the keys routed to the subtask, kept
 * by key group ({@link KeyGroups}). The operator's function reads and writes it; each group has a version that every
 * change raises, so that a snapshot writes only the groups whose version moved since the snapshot it builds on. Not
 * thread-safe: the task's loop thread owns it.
 */
public final class KeyedState {

    @SuppressWarnings("unchecked")
    private final Map<Key, byte[]>[] groups = new Map[KeyGroups.COUNT];
    private final long[] versions = new long[KeyGroups.COUNT];
    private int size;

    public KeyedState() {
        for (int group = 0; group < KeyGroups.COUNT; group++) {
            groups[group] = new HashMap<>();
        }
    }

    /** The value of {@code key}, or {@code null} when it has none. */
    public byte[] get(byte[] key) {
        return groups[KeyGroups.of(key)].get(new Key(key));
    }

    /** Sets the value of {@code key}. */
    public void put(byte[] key, byte[] value) {
        int group = KeyGroups.of(key);
        if (groups[group].put(new Key(key), Objects.requireNonNull(value, "value")) == null) {
            size++;
        }
        versions[group]++;
    }

    /** Removes the value of {@code key}. */
    public void remove(byte[] key) {
        int group = KeyGroups.of(key);
        if (groups[group].remove(new Key(key)) != null) {
            size--;
            versions[group]++;
        }
    }

    /** How many keys have a value. */
    public int size() {
        return size;
    }

    /** The entries, a read-only copy, in no particular order. */
    public Map<Key, byte[]> entries() {
        Map<Key, byte[]> all = new HashMap<>(size * 2);
        for (Map<Key, byte[]> group : groups) {
            all.putAll(group);
        }
        return Collections.unmodifiableMap(all);
    }

    /** The entries of one key group, read-only. */
    Map<Key, byte[]> group(int group) {
        return Collections.unmodifiableMap(groups[group]);
    }

    /** Each group's version now: a snapshot records them, the next one compares. */
    long[] versions() {
        return versions.clone();
    }

    /** Replaces every entry by those of {@code restored}; every group's version goes up. */
    void replaceWith(Map<Key, byte[]> restored) {
        for (int group = 0; group < KeyGroups.COUNT; group++) {
            groups[group].clear();
            versions[group]++;
        }
        restored.forEach((key, value) -> groups[KeyGroups.of(key.bytes())].put(key, value));
        size = restored.size();
    }

    /**
     * A key compared by content.
     *
     * @param bytes the key's bytes (not copied: a key handed to the state must not be changed afterwards)
     */
    public record Key(byte[] bytes) implements Comparable<Key> {

        public Key {
            Objects.requireNonNull(bytes, "a keyed state's key must not be null");
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Arrays.equals(bytes, key.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public int compareTo(Key other) {
            return Arrays.compareUnsigned(bytes, other.bytes);
        }

        @Override
        public String toString() {
            return "Key" + Arrays.toString(bytes);
        }
    }
}
