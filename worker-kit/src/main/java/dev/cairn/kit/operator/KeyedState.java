package dev.cairn.kit.operator;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The keyed state of one operator subtask: a value (bytes) per key (bytes), for the keys routed to the subtask.
 * The operator's function reads and writes it; a snapshot copies it whole, a restore replaces it. Not thread-safe:
 * the task's loop thread owns it.
 */
public final class KeyedState {

    private final Map<Key, byte[]> values = new HashMap<>();

    /** The value of {@code key}, or {@code null} when it has none. */
    public byte[] get(byte[] key) {
        return values.get(new Key(key));
    }

    /** Sets the value of {@code key}. */
    public void put(byte[] key, byte[] value) {
        values.put(new Key(key), Objects.requireNonNull(value, "value"));
    }

    /** Removes the value of {@code key}. */
    public void remove(byte[] key) {
        values.remove(new Key(key));
    }

    /** How many keys have a value. */
    public int size() {
        return values.size();
    }

    /** The entries, read-only, in no particular order. */
    public Map<Key, byte[]> entries() {
        return Collections.unmodifiableMap(values);
    }

    /** Replaces every entry by those of {@code restored}. */
    void replaceWith(Map<Key, byte[]> restored) {
        values.clear();
        values.putAll(restored);
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
