package dev.cairn.core.state;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The values of one {@link StateTable} written in an {@link OverlayStorage}, in write order (an empty value:
 * removed). Reads of keys not written here go to the base every time: the base is a map in memory, or the
 * processor's cache of decoded store values, so a read costs a lookup. The overlay makes one only for a table
 * the decision writes.
 */
final class Slots<K, V> {

    private final Map<K, Optional<V>> written = new LinkedHashMap<>();

    /** What was written for {@code key} here (empty: removed), {@code null} when nothing was. */
    Optional<V> written(K key) {
        return written.get(key);
    }

    void put(K key, V value) {
        set(key, Optional.of(value));
    }

    void remove(K key) {
        set(key, Optional.empty());
    }

    /** Writes every written key to a target: puts present values, removes absent ones. */
    void applyTo(BiConsumer<K, V> put, Consumer<K> remove) {
        written.forEach((key, value) -> {
            if (value.isPresent()) {
                put.accept(key, value.get());
            } else {
                remove.accept(key);
            }
        });
    }

    /**
     * Folds the values present under the keys of {@code group} into {@code start}: the values written here of one
     * group (no lambda captures the group, so a fold allocates nothing but what {@code add} makes).
     */
    <C, R> R fold(R start, C group, java.util.function.BiPredicate<K, C> inGroup,
            java.util.function.BiFunction<R, V, R> add) {
        R result = start;
        for (Map.Entry<K, Optional<V>> entry : written.entrySet()) {
            if (entry.getValue().isPresent() && inGroup.test(entry.getKey(), group)) {
                result = add.apply(result, entry.getValue().get());
            }
        }
        return result;
    }

    /** Forgets what was written for the keys that match, as if they had never been written here. */
    void forget(java.util.function.Predicate<K> keys) {
        written.keySet().removeIf(keys);
    }

    private void set(K key, Optional<V> value) {
        written.put(key, value);
    }
}
