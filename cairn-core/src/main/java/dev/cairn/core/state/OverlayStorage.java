package dev.cairn.core.state;

import dev.cairn.core.state.StateKeys.AckKey;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.events.CheckpointAcknowledged;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * Copy-on-write {@link Storage}: reads fall through to a base that is never written, writes are kept here. The
 * decider works on a state over one, so that later steps of a decision see the effects of earlier ones while the
 * real state stays untouched; once the decision has succeeded, {@link #applyTo} writes what changed to the real
 * state: all of it, each key once, with its final value. So every event is applied once, and a decision that
 * fails leaves nothing behind.
 *
 * <p>Reads of what was not written here go to the base each time: the base is a map in memory, or the store
 * backing's decoded values, so a read is a lookup, and a decision allocates only for what it writes: one small
 * map per table it writes, in write order, whose values are the values put or {@link #REMOVED}.
 */
public final class OverlayStorage implements Storage {

    /** The value written for a key removed here. */
    private static final Object REMOVED = new Object();

    private final Storage base;
    /** What was written here, by {@link StateTable#index()}; a table's map is made on its first write. */
    @SuppressWarnings("unchecked")
    private final Map<Object, Object>[] written = new Map[StateTable.ALL.size()];
    /** Groups removed here, by table index, in order; made on the first removal. */
    private Set<?>[] removedGroups;
    /** Groups settled here, by table index, in order; made on the first. */
    private Set<?>[] settledGroups;

    public OverlayStorage(Storage base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    /** Writes every change made here to {@code target}: removed groups first, then each written key once. */
    public void applyTo(CoordinatorState target) {
        for (StateTable<?, ?> table : StateTable.ALL) {
            applyTo(target, table);
        }
    }

    @SuppressWarnings("unchecked")
    private <K, V extends SpecificRecord> void applyTo(CoordinatorState target, StateTable<K, V> table) {
        Set<?> groups = removedGroups == null ? null : removedGroups[table.index()];
        if (groups != null) {
            for (Object group : groups) {
                target.deleteGroup(table, group);
            }
        }
        Map<Object, Object> writes = written[table.index()];
        if (writes != null) {
            for (Map.Entry<Object, Object> write : writes.entrySet()) {
                if (write.getValue() == REMOVED) {
                    target.delete(table, (K) write.getKey());
                } else {
                    target.put(table, (K) write.getKey(), (V) write.getValue());
                }
            }
        }
        Set<?> settled = settledGroups == null ? null : settledGroups[table.index()];
        if (settled != null) {
            for (Object group : settled) {
                target.settled(table, group);
            }
        }
    }

    private Map<Object, Object> writes(StateTable<?, ?> table) {
        Map<Object, Object> writes = written[table.index()];
        if (writes == null) {
            writes = new LinkedHashMap<>(4);
            written[table.index()] = writes;
        }
        return writes;
    }

    private boolean removedGroupOf(StateTable<?, ?> table, Object group) {
        Set<?> groups = removedGroups == null ? null : removedGroups[table.index()];
        return groups != null && groups.contains(group);
    }

    private boolean removesGroupsOf(StateTable<?, ?> table) {
        return removedGroups != null && removedGroups[table.index()] != null;
    }

    /**
     * A checkpoint's progress seen through this overlay: {@code base}'s (none when its acks were removed here) plus
     * the acks put here. The decider puts an ack only for a subtask that has none accepted, so none counts twice.
     */
    CheckpointProgress progressOver(CheckpointKey checkpoint, CoordinatorState base) {
        CheckpointProgress progress = removedGroupOf(StateTable.ACKS, checkpoint) ? CheckpointProgress.NONE
                : base.progress(checkpoint);
        Map<Object, Object> acks = written[StateTable.ACKS.index()];
        if (acks != null) {
            for (Map.Entry<Object, Object> write : acks.entrySet()) {
                if (write.getValue() != REMOVED && ((AckKey) write.getKey()).checkpoint().equals(checkpoint)) {
                    progress = progress.plus((CheckpointAcknowledged) write.getValue());
                }
            }
        }
        return progress;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V extends SpecificRecord> V get(StateTable<K, V> table, K key) {
        Map<Object, Object> writes = written[table.index()];
        Object value = writes == null ? null : writes.get(key);
        if (value != null) {
            return value == REMOVED ? null : (V) value;
        }
        if (removesGroupsOf(table) && removedGroupOf(table, table.keys().group(key))) {
            return null;
        }
        return base.get(table, key);
    }

    @Override
    public <K, V extends SpecificRecord> void put(StateTable<K, V> table, K key, V value) {
        writes(table).put(key, Objects.requireNonNull(value));
    }

    @Override
    public <K, V extends SpecificRecord> void delete(StateTable<K, V> table, K key) {
        writes(table).put(key, REMOVED);
    }

    /** The base's entries of the group (none when removed here) with the writes made here applied over them. */
    @Override
    @SuppressWarnings("unchecked")
    public <K, V extends SpecificRecord> Map<K, V> scan(StateTable<K, V> table, Object group) {
        Map<K, V> entries = group != null && removedGroupOf(table, group) ? new HashMap<>()
                : base.scan(table, group);
        if (group == null && removesGroupsOf(table)) {
            entries.keySet().removeIf(key -> removedGroupOf(table, table.keys().group(key)));
        }
        Map<Object, Object> writes = written[table.index()];
        if (writes != null) {
            for (Map.Entry<Object, Object> write : writes.entrySet()) {
                K key = (K) write.getKey();
                if (write.getValue() == REMOVED) {
                    entries.remove(key);
                } else if (group == null || group.equals(table.keys().group(key))) {
                    entries.put(key, (V) write.getValue());
                }
            }
        }
        return entries;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V extends SpecificRecord> void deleteGroup(StateTable<K, V> table, Object group) {
        Map<Object, Object> writes = written[table.index()];
        if (writes != null) {
            writes.keySet().removeIf(key -> group.equals(table.keys().group((K) key)));
        }
        if (removedGroups == null) {
            removedGroups = new Set<?>[StateTable.ALL.size()];
        }
        groupsOf(removedGroups, table).add(group);
    }

    /** Kept until {@link #applyTo}, which passes it on: the base's memory is not the overlay's to change. */
    @Override
    public <K, V extends SpecificRecord> void settled(StateTable<K, V> table, Object group) {
        if (settledGroups == null) {
            settledGroups = new Set<?>[StateTable.ALL.size()];
        }
        groupsOf(settledGroups, table).add(group);
    }

    @SuppressWarnings("unchecked")
    private static Set<Object> groupsOf(Set<?>[] byTable, StateTable<?, ?> table) {
        Set<Object> groups = (Set<Object>) byTable[table.index()];
        if (groups == null) {
            groups = new LinkedHashSet<>();
            byTable[table.index()] = groups;
        }
        return groups;
    }
}
