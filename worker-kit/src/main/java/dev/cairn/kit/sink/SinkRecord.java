package dev.cairn.kit.sink;

import java.util.Arrays;

/**
 * One record the sink will write to its output topic: serialized key and value, either may be {@code null}.
 * Equal when the bytes are equal (unlike a plain record of arrays).
 *
 * @param key the serialized key, {@code null} for none
 * @param value the serialized value, {@code null} for a tombstone
 */
public record SinkRecord(byte[] key, byte[] value) {

    /** The number of key and value bytes (what the record costs in memory and in a snapshot, roughly). */
    public long sizeBytes() {
        return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SinkRecord that && Arrays.equals(key, that.key) && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "SinkRecord[key " + (key == null ? "null" : key.length + " bytes") + ", value "
                + (value == null ? "null" : value.length + " bytes") + "]";
    }
}
