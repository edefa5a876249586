package dev.cairn.kit.operator;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The keyed state of one operator subtask: a value (bytes) per key (bytes), for the keys routed to the subtask, kept
 * by key group ({@link KeyGroups}, as many as the task's max parallelism). The operator's function reads and writes
 * it; each group has a version that every change raises, so that a snapshot writes only the groups whose version moved
 * since the snapshot it builds on. Not thread-safe: the task's loop thread owns it.
 */
public final class KeyedState {

    private final int maxParallelism;
    private final Map<Key, byte[]>[] groups;
    private final long[] versions;
    private int size;

    /** A state of {@link KeyGroups#COUNT} groups. */
    public KeyedState() {
        this(KeyGroups.COUNT);
    }

    /** A state of {@code maxParallelism} groups (the task's max parallelism). */
    @SuppressWarnings("unchecked")
    public KeyedState(int maxParallelism) {
        this.maxParallelism = maxParallelism;
        KeyGroups.of(new byte[0], maxParallelism);
        this.groups = new Map[maxParallelism];
        this.versions = new long[maxParallelism];
    }

    /** How many key groups the state is cut into. */
    public int maxParallelism() {
        return maxParallelism;
    }

    private Map<Key, byte[]> groupOf(byte[] key) {
        int group = KeyGroups.of(key, maxParallelism);
        if (groups[group] == null) {
            groups[group] = new HashMap<>();
        }
        return groups[group];
    }

    /** The value of {@code key}, or {@code null} when it has none. */
    public byte[] get(byte[] key) {
        Map<Key, byte[]> group = groups[KeyGroups.of(key, maxParallelism)];
        return group == null ? null : group.get(new Key(key));
    }

    /** Sets the value of {@code key}. */
    public void put(byte[] key, byte[] value) {
        Objects.requireNonNull(value, "value");
        if (groupOf(key).put(new Key(key), value) == null) {
            size++;
        }
        versions[KeyGroups.of(key, maxParallelism)]++;
    }

    /** Removes the value of {@code key}. */
    public void remove(byte[] key) {
        int group = KeyGroups.of(key, maxParallelism);
        if (groups[group] != null && groups[group].remove(new Key(key)) != null) {
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
            if (group != null) {
                all.putAll(group);
            }
        }
        return Collections.unmodifiableMap(all);
    }

    /** The entries of one key group, read-only. */
    Map<Key, byte[]> group(int group) {
        return groups[group] == null ? Map.of() : Collections.unmodifiableMap(groups[group]);
    }

    /** Each group's version now: a snapshot records them, the next one compares. */
    long[] versions() {
        return versions.clone();
    }

    /** Replaces every entry by those of {@code restored}; every group's version goes up. */
    void replaceWith(Map<Key, byte[]> restored) {
        for (int group = 0; group < maxParallelism; group++) {
            groups[group] = null;
            versions[group]++;
        }
        restored.forEach((key, value) -> groupOf(key.bytes()).put(key, value));
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
