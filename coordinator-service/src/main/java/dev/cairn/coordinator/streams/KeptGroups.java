package dev.cairn.coordinator.streams;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the processor's {@link StreamsStorage} keeps in memory of a grouped table read mostly for keys it does not
 * hold (the acks, by checkpoint), so that the commonest reads touch no sorted store:
 * <ul>
 *   <li>the hash of every key, by group: a key whose hash is not there is not in the store (a duplicate-ack check
 *       that finds none), and a group with none has no key at all. Hashes, not keys: a 100,000-subtask job's
 *       history holds a million acks, and a boxed hash costs a third of an ack key with its own task id. A hash
 *       stays until its group goes (another key may share it); one that is there only costs a store read.</li>
 *   <li>the values of each group this storage wrote whole, that is, one that had no key when its first value was
 *       put (a checkpoint whose first ack came after the task started), until the group is first read whole (its
 *       completion), settled (its checkpoint aborted) or removed, so that reading it decodes nothing. These are the
 *       acks of the checkpoints in progress, which Flink's coordinator holds in memory too. At most
 *       {@value #MAX_VALUES} values are kept, checked at every put: a value that would pass the bound lets go of
 *       its whole group, which is read from the store when its checkpoint ends, so a burst of checkpoints that
 *       start together (the first tick after a failover) cannot fill the heap.</li>
 * </ul>
 *
 * @param <K> the table's key
 * @param <V> the table's value
 */
final class KeptGroups<K, V> {

    /** The most values kept at once. */
    static final int MAX_VALUES = 100_000;

    /** One group: the hashes of its keys, and its values while this storage wrote them all ({@code null} after). */
    private static final class Group<K, V> {
        final Set<Integer> hashes = new HashSet<>();
        Map<K, V> whole;
    }

    private final Map<Object, Group<K, V>> groups = new HashMap<>();
    private int values;

    /** Starts with the keys the store holds, as (group, key) pairs. */
    void stored(Object group, K key) {
        groups.computeIfAbsent(group, g -> new Group<>()).hashes.add(key.hashCode());
    }

    /** {@code false} when {@code key} is surely not in the store; {@code true} when it may be. */
    boolean mayHold(Object group, K key) {
        Group<K, V> ofGroup = groups.get(group);
        return ofGroup != null && ofGroup.hashes.contains(key.hashCode());
    }

    /** Whether the store surely holds no key of {@code group}. */
    boolean holdsNone(Object group) {
        return !groups.containsKey(group);
    }

    void put(Object group, K key, V value) {
        Group<K, V> ofGroup = groups.get(group);
        if (ofGroup == null) {
            ofGroup = new Group<>();
            ofGroup.whole = values < MAX_VALUES ? new HashMap<>() : null;
            groups.put(group, ofGroup);
        }
        ofGroup.hashes.add(key.hashCode());
        if (ofGroup.whole == null) {
            return;
        }
        if (!ofGroup.whole.containsKey(key) && values >= MAX_VALUES) {
            values -= ofGroup.whole.size();
            ofGroup.whole = null;
            return;
        }
        if (ofGroup.whole.put(key, value) == null) {
            values++;
        }
    }

    /** How many values are kept now: never more than {@link #MAX_VALUES}. */
    int valuesKept() {
        return values;
    }

    /** The group will take no more values (its checkpoint ended): its values are let go, its hashes stay. */
    void settled(Object group) {
        takeWhole(group);
    }

    /** A key was removed: its group's values are no longer whole here (its hash stays, see the class). */
    void removed(Object group) {
        takeWhole(group);
    }

    /**
     * Every value of {@code group} when this storage wrote them all, and forgets them (the group is being read
     * whole: its checkpoint ended); {@code null} when it did not, and the store must be read.
     */
    Map<K, V> takeWhole(Object group) {
        Group<K, V> ofGroup = groups.get(group);
        Map<K, V> whole = ofGroup == null ? null : ofGroup.whole;
        if (whole != null) {
            ofGroup.whole = null;
            values -= whole.size();
        }
        return whole;
    }

    void removeGroup(Object group) {
        Group<K, V> removed = groups.remove(group);
        if (removed != null && removed.whole != null) {
            values -= removed.whole.size();
        }
    }
}
