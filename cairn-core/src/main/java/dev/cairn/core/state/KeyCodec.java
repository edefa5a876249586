package dev.cairn.core.state;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Function;

/**
 * How the keys of one {@link StateTable} are encoded to bytes, for a store that keeps bytes, and which group a key
 * belongs to, for the tables that are read a group at a time (one checkpoint's acks, one job's vertices). Built by
 * {@link #of} or {@link #grouped}; the codecs themselves are in {@link StateKeys}.
 *
 * @param <K> the key
 */
public final class KeyCodec<K> {

    private final Function<K, byte[]> encoder;
    private final Function<ByteBuffer, K> decoder;
    private final Function<K, Object> grouper;
    private final Function<Object, byte[]> groupEncoder;

    private KeyCodec(Function<K, byte[]> encoder, Function<ByteBuffer, K> decoder, Function<K, Object> grouper,
            Function<Object, byte[]> groupEncoder) {
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.grouper = grouper;
        this.groupEncoder = groupEncoder;
    }

    /** Keys that are read and removed one at a time. */
    static <K> KeyCodec<K> of(Function<K, byte[]> encoder, Function<ByteBuffer, K> decoder) {
        return new KeyCodec<>(encoder, decoder, null, null);
    }

    /**
     * Keys that belong to groups read or removed together: {@code grouper} names a key's group, and every encoded
     * key of a group starts with {@code groupEncoder}'s bytes for it.
     */
    static <K> KeyCodec<K> grouped(Function<K, byte[]> encoder, Function<ByteBuffer, K> decoder,
            Function<K, Object> grouper, Function<Object, byte[]> groupEncoder) {
        return new KeyCodec<>(encoder, decoder, Objects.requireNonNull(grouper, "grouper"),
                Objects.requireNonNull(groupEncoder, "groupEncoder"));
    }

    public byte[] encode(K key) {
        return encoder.apply(key);
    }

    public K decode(byte[] bytes) {
        return decoder.apply(ByteBuffer.wrap(bytes));
    }

    /** Whether keys belong to groups ({@link #group}) that are read or removed together. */
    public boolean grouped() {
        return grouper != null;
    }

    /**
     * The group {@code key} belongs to; every key of a group starts with {@link #encodeGroup} of it.
     *
     * @throws UnsupportedOperationException for a table that is not read by group
     */
    public Object group(K key) {
        return requireGrouped(grouper).apply(key);
    }

    /** The bytes every encoded key of {@code group} starts with. */
    public byte[] encodeGroup(Object group) {
        return requireGrouped(groupEncoder).apply(group);
    }

    private static <T> T requireGrouped(T function) {
        if (function == null) {
            throw new UnsupportedOperationException("keys of this table have no group");
        }
        return function;
    }
}
