package dev.cairn.core.state;

/**
 * How the keys of one {@link StateTable} are encoded to bytes, for a store that keeps bytes, and which group a key
 * belongs to, for the tables that are read a group at a time (one checkpoint's acks, one job's vertices).
 *
 * @param <K> the key
 */
public interface KeyCodec<K> {

    byte[] encode(K key);

    K decode(byte[] bytes);

    /** Whether keys belong to groups ({@link #group}) that are read or removed together. */
    default boolean grouped() {
        return false;
    }

    /**
     * The group {@code key} belongs to; every key of a group starts with {@link #encodeGroup} of it.
     *
     * @throws UnsupportedOperationException for a table that is not read by group
     */
    default Object group(K key) {
        throw new UnsupportedOperationException("keys of this table have no group");
    }

    /** The bytes every encoded key of {@code group} starts with. */
    default byte[] encodeGroup(Object group) {
        throw new UnsupportedOperationException("keys of this table have no group");
    }
}
