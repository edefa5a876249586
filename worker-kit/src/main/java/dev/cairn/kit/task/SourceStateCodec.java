package dev.cairn.kit.task;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * The snapshot file of a source subtask: a {@link SourceState} in a small binary format.
 *
 * <pre>
 * int    magic 0x434b5353 ("CKSS")     short  format version (1)
 * int    task id length, UTF-8 bytes   int    subtask    long checkpoint id    long generation
 * int    input topic length, UTF-8 bytes
 * int    number of partitions, then per partition (ascending): int partition, long offset
 * long   CRC-32 of every byte before it
 * </pre>
 *
 * <p>A file that is truncated, altered, of another format or version, or followed by extra bytes is refused with an
 * {@link IOException} naming the file and what is wrong. Files are written to a temporary sibling and moved into
 * place, so a crash while writing leaves no partial file under the name.
 */
public final class SourceStateCodec {

    /** The first four bytes of a source state file: "CKSS". */
    public static final int MAGIC = 0x434b5353;
    /** The format version this codec writes and reads. */
    public static final short VERSION = 1;

    private static final int MIN_BYTES = 4 + 2 + 8;
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");

    private SourceStateCodec() {
    }

    /** The bytes of {@code state}. */
    public static byte[] encode(SourceState state) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeInt(MAGIC);
            out.writeShort(VERSION);
            writeText(out, state.taskId());
            out.writeInt(state.subtask());
            out.writeLong(state.checkpointId());
            out.writeLong(state.generation());
            writeText(out, state.inputTopic());
            Map<Integer, Long> sorted = new TreeMap<>(state.positions());
            out.writeInt(sorted.size());
            for (Map.Entry<Integer, Long> position : sorted.entrySet()) {
                out.writeInt(position.getKey());
                out.writeLong(position.getValue());
            }
            CRC32 crc = new CRC32();
            crc.update(buffer.toByteArray());
            out.writeLong(crc.getValue());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: writing to memory failed", e);
        }
        return buffer.toByteArray();
    }

    /**
     * The state in {@code bytes}.
     *
     * @param source what the bytes are (a file name), for the error message
     * @throws IOException when the bytes are not a whole, intact source state of this format
     */
    public static SourceState decode(byte[] bytes, String source) throws IOException {
        if (bytes.length < MIN_BYTES) {
            throw new IOException("the source state " + source + " is truncated: " + bytes.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int magic = in.getInt();
        if (magic != MAGIC) {
            throw new IOException("the file " + source + " is not a source state: it starts with 0x"
                    + Integer.toHexString(magic) + ", not 0x" + Integer.toHexString(MAGIC));
        }
        short version = in.getShort();
        if (version != VERSION) {
            throw new IOException("the source state " + source + " has format version " + version
                    + ", this kit reads version " + VERSION);
        }
        try {
            SourceState state = readBody(in, source);
            verifyChecksum(bytes, in, source);
            return state;
        } catch (BufferUnderflowException e) {
            throw new IOException("the source state " + source + " is truncated: it ends after " + bytes.length
                    + " bytes, in the middle of its content", e);
        }
    }

    /** Writes {@code state} to {@code file} (through a temporary sibling); answers the file's size. */
    public static long write(SourceState state, Path file) throws IOException {
        byte[] bytes = encode(state);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(temporary, bytes);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return bytes.length;
    }

    /** Reads the state in {@code file}. */
    public static SourceState read(Path file) throws IOException {
        try {
            return decode(Files.readAllBytes(file), file.toString());
        } catch (NoSuchFileException e) {
            throw new IOException("the source state " + file + " does not exist", e);
        }
    }

    /**
     * The local path of a storage or state location: a {@code file:} URI or a plain path.
     *
     * @throws IOException for any other scheme (the kit keeps its snapshots in local files)
     */
    public static Path localPath(String location) throws IOException {
        if (!SCHEME.matcher(location).matches()) {
            return Path.of(location);
        }
        if (!location.startsWith("file:")) {
            throw new IOException("the kit keeps its snapshots in local files, and " + location
                    + " is neither a file: URI nor a path");
        }
        try {
            return Path.of(URI.create(location));
        } catch (IllegalArgumentException e) {
            throw new IOException("the location " + location + " is not a valid file: URI: " + e.getMessage(), e);
        }
    }

    private static SourceState readBody(ByteBuffer in, String source) throws IOException {
        String taskId = readText(in, source, "the task id");
        int subtask = in.getInt();
        long checkpointId = in.getLong();
        long generation = in.getLong();
        String inputTopic = readText(in, source, "the input topic");
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / 12) {
            throw new IOException("the source state " + source + " is corrupt: it announces " + count
                    + " partitions with " + in.remaining() + " bytes left");
        }
        Map<Integer, Long> positions = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            int partition = in.getInt();
            if (positions.put(partition, in.getLong()) != null) {
                throw new IOException("the source state " + source + " is corrupt: partition " + partition
                        + " appears twice");
            }
        }
        try {
            return new SourceState(taskId, subtask, checkpointId, generation, inputTopic, positions);
        } catch (IllegalArgumentException e) {
            throw new IOException("the source state " + source + " is inconsistent: " + e.getMessage(), e);
        }
    }

    private static void verifyChecksum(byte[] bytes, ByteBuffer in, String source) throws IOException {
        int contentEnd = in.position();
        long stored = in.getLong();
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, contentEnd);
        if (crc.getValue() != stored) {
            throw new IOException("the source state " + source + " is corrupt: its checksum is 0x"
                    + Long.toHexString(stored) + " but its content sums to 0x" + Long.toHexString(crc.getValue()));
        }
        if (in.hasRemaining()) {
            throw new IOException("the source state " + source + " has " + in.remaining()
                    + " unexpected bytes after its checksum");
        }
    }

    private static String readText(ByteBuffer in, String source, String what) throws IOException {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IOException("the source state " + source + " is corrupt or truncated: " + what + " of "
                    + length + " bytes, with " + in.remaining() + " bytes left");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void writeText(DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
