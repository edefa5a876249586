package dev.cairn.coordinator.domain;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One kind of value in an {@link OverlayState}: what was read from the base (remembered, absent included) and
 * what was written, in write order. Maps are made on first use, so a decision that never touches a kind pays
 * nothing for it.
 */
final class Slots<K, V> {

    private Map<K, Optional<V>> known;
    private Set<K> written;

    Optional<V> get(K key, Function<K, Optional<V>> fromBase) {
        if (known == null) {
            known = new HashMap<>();
        }
        Optional<V> value = known.get(key);
        if (value == null) {
            value = fromBase.apply(key);
            known.put(key, value);
        }
        return value;
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
        for (K key : written) {
            Optional<V> value = known.get(key);
            if (value.isPresent()) {
                put.accept(key, value.get());
            } else {
                remove.accept(key);
            }
        }
    }

    private void set(K key, Optional<V> value) {
        if (known == null) {
            known = new HashMap<>();
        }
        if (written == null) {
            written = new LinkedHashSet<>();
        }
        known.put(key, value);
        written.add(key);
    }
}
