package dev.cairn.core.state;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * The values of one {@link StateTable} written in an {@link OverlayStorage}, in write order ({@link #REMOVED}: the
 * key was removed). Reads of keys not written here go to the base every time: the base is a map in memory, or the
 * processor's cache of decoded store values, so a read costs a lookup. The overlay makes one only for a table the
 * decision writes.
 */
final class Slots<K, V> {

    /** What {@link #written} answers for a key removed here. */
    static final Object REMOVED = new Object();

    /** Small at first: a decision writes a few keys of a table (an accepted ack: one). */
    private final Map<K, Object> written = new LinkedHashMap<>(4);

    /** What was written for {@code key} here: its value, {@link #REMOVED}, or {@code null} when nothing was. */
    Object written(K key) {
        return written.get(key);
    }

    void put(K key, V value) {
        written.put(key, value);
    }

    void remove(K key) {
        written.put(key, REMOVED);
    }

    /** Writes every written key to {@code target}'s {@code table}: puts values, removes removed keys. */
    @SuppressWarnings("unchecked")
    <R extends SpecificRecord> void applyTo(CoordinatorState target, StateTable<K, R> table) {
        for (Map.Entry<K, Object> entry : written.entrySet()) {
            if (entry.getValue() == REMOVED) {
                target.remove(table, entry.getKey());
            } else {
                target.put(table, entry.getKey(), (R) entry.getValue());
            }
        }
    }

    /** Writes every written key to a target: puts values, removes removed keys. */
    @SuppressWarnings("unchecked")
    void applyTo(BiConsumer<K, V> put, Consumer<K> remove) {
        for (Map.Entry<K, Object> entry : written.entrySet()) {
            if (entry.getValue() == REMOVED) {
                remove.accept(entry.getKey());
            } else {
                put.accept(entry.getKey(), (V) entry.getValue());
            }
        }
    }

    /**
     * Folds the values present under the keys of {@code group} into {@code start}: the values written here of one
     * group (no lambda captures the group, so a fold allocates nothing but what {@code add} makes).
     */
    @SuppressWarnings("unchecked")
    <C, R> R fold(R start, C group, BiPredicate<K, C> inGroup, BiFunction<R, V, R> add) {
        R result = start;
        for (Map.Entry<K, Object> entry : written.entrySet()) {
            if (entry.getValue() != REMOVED && inGroup.test(entry.getKey(), group)) {
                result = add.apply(result, (V) entry.getValue());
            }
        }
        return result;
    }

    /** Forgets what was written for the keys that match, as if they had never been written here. */
    void forget(Predicate<K> keys) {
        written.keySet().removeIf(keys);
    }
}
