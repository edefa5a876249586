package dev.cairn.core.state;

import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * Where a {@link CoordinatorState} keeps its tables: point reads and writes, and reads and removals of one group
 * of keys ({@link KeyCodec#group}). Backings: {@link MapStorage} (hash maps: tests, benchmarks, the rebuild's fold
 * and the audit's replay), the Kafka Streams stores of a stream task, and {@link OverlayStorage} over either.
 */
public interface Storage {

    /** The value under {@code key}, {@code null} when there is none. */
    <K, V extends SpecificRecord> V get(StateTable<K, V> table, K key);

    <K, V extends SpecificRecord> void put(StateTable<K, V> table, K key, V value);

    <K, V extends SpecificRecord> void delete(StateTable<K, V> table, K key);

    /**
     * Every entry of one group of a grouped table, in no particular order; with a {@code null} group, every entry
     * of the table.
     */
    <K, V extends SpecificRecord> Map<K, V> scan(StateTable<K, V> table, Object group);

    /** Removes every entry of one group of a grouped table. */
    <K, V extends SpecificRecord> void deleteGroup(StateTable<K, V> table, Object group);

    /**
     * One group of a grouped table takes no more writes (the acks of a checkpoint that ended): a backing may let go of
     * what it keeps of the group in memory besides its store. Changes no value.
     */
    default <K, V extends SpecificRecord> void settled(StateTable<K, V> table, Object group) {
    }
}
