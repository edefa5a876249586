package dev.cairn.coordinator.domain;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One kind of value written in an {@link OverlayState}, in write order (an empty value: removed). Reads of keys
 * not written here go to the base every time: the base is a map in memory, or the processor's cache of
 * decoded store values, so a read costs a lookup, and a decision that writes nothing of a kind allocates
 * nothing for it.
 */
final class Slots<K, V> {

    private Map<K, Optional<V>> written;

    /** Whether nothing of this kind was written: readers then go to the base without building a key. */
    boolean isEmpty() {
        return written == null;
    }

    Optional<V> get(K key, Function<K, Optional<V>> fromBase) {
        if (written != null) {
            Optional<V> value = written.get(key);
            if (value != null) {
                return value;
            }
        }
        return fromBase.apply(key);
    }

    void put(K key, V value) {
        set(key, Optional.of(value));
    }

    void remove(K key) {
        set(key, Optional.empty());
    }

    /** Writes every written key to a target: puts present values, removes absent ones. */
    void applyTo(BiConsumer<K, V> put, Consumer<K> remove) {
        if (written == null) {
            return;
        }
        written.forEach((key, value) -> {
            if (value.isPresent()) {
                put.accept(key, value.get());
            } else {
                remove.accept(key);
            }
        });
    }

    private void set(K key, Optional<V> value) {
        if (written == null) {
            written = new LinkedHashMap<>();
        }
        written.put(key, value);
    }
}
