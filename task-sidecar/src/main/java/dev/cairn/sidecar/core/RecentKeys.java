package dev.cairn.sidecar.core;

import java.util.LinkedHashSet;
import java.util.Set;

/** A set that remembers only its newest {@code capacity} keys, forgetting the oldest first. */
final class RecentKeys<K> {

    private final int capacity;
    private final Set<K> keys = new LinkedHashSet<>();

    RecentKeys(int capacity) {
        this.capacity = capacity;
    }

    /** Adds {@code key}; false when it was already there. */
    boolean add(K key) {
        if (!keys.add(key)) {
            return false;
        }
        if (keys.size() > capacity) {
            var oldest = keys.iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }

    boolean contains(K key) {
        return keys.contains(key);
    }
}
