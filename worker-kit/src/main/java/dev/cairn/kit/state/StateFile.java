package dev.cairn.kit.state;

import dev.cairn.kit.storage.LocationNotFoundException;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * One kind of the kit's snapshot files, and what every kind shares: a 4-byte magic number and a 2-byte format
 * version, the kind's content, then the CRC-32 of all that as 8 bytes. The files are kept in a
 * {@link SnapshotStorage} (local files or S3), which writes each whole or not at all. Reading checks all of it and
 * names the file's location and what is wrong in a {@link StateUnreadableException}: missing, not this kind, another
 * version, truncated, corrupt (its CRC-32 does not match), or bytes after the checksum.
 *
 * @param kind what the file holds, for messages ({@code "sink state"}, {@code "source state"})
 * @param magic the kind's first four bytes
 * @param version the format version this kit writes and reads
 */
public record StateFile(String kind, int magic, short version) {

    /** Magic number, version and checksum: the bytes of a file with empty content. */
    public static final int FRAME_BYTES = 4 + 2 + 8;

    /** Reads a kind's content from a buffer positioned after the version. */
    @FunctionalInterface
    public interface ContentReader<T> {
        T read(ByteBuffer in) throws IOException;
    }

    /** Writes a kind's content after the version. */
    @FunctionalInterface
    public interface ContentWriter {
        void write(DataOutputStream out) throws IOException;
    }

    /** The bytes of a file of this kind whose content {@code content} writes. */
    public byte[] encode(ContentWriter content) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeInt(magic);
            out.writeShort(version);
            content.write(out);
            CRC32 crc = new CRC32();
            crc.update(buffer.toByteArray());
            out.writeLong(crc.getValue());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: writing to memory failed", e);
        }
        return buffer.toByteArray();
    }

    /**
     * The content of {@code bytes}, read by {@code content} once the frame checked out.
     *
     * @param source what the bytes are (a file name), for the messages
     * @throws IOException when the bytes are not a whole, intact file of this kind and version
     */
    public <T> T decode(byte[] bytes, String source, ContentReader<T> content) throws IOException {
        if (bytes.length < FRAME_BYTES) {
            throw new StateUnreadableException("the " + kind + " " + source + " is truncated: " + bytes.length
                    + " bytes, fewer than the " + FRAME_BYTES + " of an empty one");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int foundMagic = in.getInt();
        if (foundMagic != magic) {
            throw new StateUnreadableException("the file " + source + " is not a " + kind + ": it starts with 0x"
                    + Integer.toHexString(foundMagic) + ", not 0x" + Integer.toHexString(magic));
        }
        short foundVersion = in.getShort();
        if (foundVersion != version) {
            throw new StateUnreadableException("the " + kind + " " + source + " has format version " + foundVersion
                    + ", this kit reads version " + version);
        }
        try {
            T value = content.read(in);
            verifyChecksum(bytes, in, source);
            return value;
        } catch (BufferUnderflowException e) {
            throw new StateUnreadableException("the " + kind + " " + source + " is truncated: it ends after "
                    + bytes.length + " bytes, in the middle of its content", e);
        }
    }

    private void verifyChecksum(byte[] bytes, ByteBuffer in, String source) throws IOException {
        int contentEnd = in.position();
        long stored = in.getLong();
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, contentEnd);
        if (crc.getValue() != stored) {
            throw new StateUnreadableException("the " + kind + " " + source + " is corrupt: its checksum is 0x"
                    + Long.toHexString(stored) + " but its content sums to 0x" + Long.toHexString(crc.getValue()));
        }
        if (in.hasRemaining()) {
            throw new StateUnreadableException("the " + kind + " " + source + " has " + in.remaining()
                    + " unexpected bytes after its checksum");
        }
    }

    /**
     * Reads a count of entries, each at least {@code minimumBytesEach} long, checked against the bytes left.
     *
     * @param what the entries ("keys", "epochs"), for the message
     */
    public int count(ByteBuffer in, String source, String what, int minimumBytesEach) throws IOException {
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / minimumBytesEach) {
            throw corrupt(source, "it announces " + count + " " + what + " with " + in.remaining() + " bytes left");
        }
        return count;
    }

    /** Reads bytes written by {@link #writeBytes}; {@code null} when a null was written. */
    public byte[] readBytes(ByteBuffer in, String source, String what) throws IOException {
        int length = in.getInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.remaining()) {
            throw corrupt(source, what + " of " + length + " bytes, with " + in.remaining() + " bytes left");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    /** Writes {@code bytes} (or {@code null}) with their length first. */
    public static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /** A {@link StateUnreadableException} saying the file {@code source} of this kind is corrupt: {@code what}. */
    public StateUnreadableException corrupt(String source, String what) {
        return new StateUnreadableException("the " + kind + " " + source + " is corrupt: " + what);
    }

    /**
     * The bytes of the file of this kind at {@code location}, read from {@code storage}.
     *
     * @throws IOException naming the location: it does not exist, or cannot be read
     */
    public byte[] read(SnapshotStorage storage, String location) throws IOException {
        try {
            return storage.read(location);
        } catch (LocationNotFoundException e) {
            throw new StateUnreadableException("the " + kind + " " + location + " does not exist", e);
        }
    }
}
