package dev.cairn.kit.task;

import dev.cairn.kit.state.StateFile;
import dev.cairn.kit.storage.SnapshotStorage;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The snapshot file of a source subtask: a {@link SourceState} in a small binary format.
 *
 * <pre>
 * int    magic 0x434b5353 ("CKSS")     short  format version (2)
 * int    task id length, UTF-8 bytes   int    subtask    long checkpoint id    long generation
 * int    input topic length, UTF-8 bytes
 * int    number of partitions, then per partition (ascending): int partition, long offset
 * byte   1 when the input ended (a drained stop-with-savepoint), else 0
 * long   CRC-32 of every byte before it
 * </pre>
 *
 * <p>Version 1, written before drained stops existed, has no ended byte; it is still read (as not ended).
 *
 * <p>A file that is truncated, altered, of another format or version, or followed by extra bytes is refused with an
 * {@link IOException} naming the file's location and what is wrong. Files are written through a
 * {@link SnapshotStorage}, whole or not at all, so a crash while writing leaves no partial file under the name.
 */
public final class SourceStateCodec {

    /** The first four bytes of a source state file: "CKSS". */
    public static final int MAGIC = 0x434b5353;
    /** The format version this codec writes (it reads version 1 too). */
    public static final short VERSION = 2;
    /** The version before the ended flag. */
    static final short VERSION_WITHOUT_ENDED = 1;

    private static final StateFile FILE = new StateFile("source state", MAGIC, VERSION);
    private static final StateFile FILE_WITHOUT_ENDED = new StateFile("source state", MAGIC, VERSION_WITHOUT_ENDED);

    private SourceStateCodec() {
    }

    /** The bytes of {@code state}. */
    public static byte[] encode(SourceState state) {
        return FILE.encode(out -> {
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
            out.writeByte(state.ended() ? 1 : 0);
        });
    }

    /**
     * The state in {@code bytes}.
     *
     * @param source what the bytes are (a file name), for the error message
     * @throws IOException when the bytes are not a whole, intact source state of this format
     */
    public static SourceState decode(byte[] bytes, String source) throws IOException {
        boolean withoutEnded = bytes.length >= Integer.BYTES + Short.BYTES
                && ByteBuffer.wrap(bytes).getShort(Integer.BYTES) == VERSION_WITHOUT_ENDED;
        return withoutEnded ? FILE_WITHOUT_ENDED.decode(bytes, source, in -> readBody(in, source, false))
                : FILE.decode(bytes, source, in -> readBody(in, source, true));
    }

    /**
     * Writes {@code state} as the file at {@code location} of {@code storage} (whole or not at all, durable when this
     * returns); answers the file's size.
     */
    public static long write(SnapshotStorage storage, String location, SourceState state) throws IOException {
        byte[] bytes = encode(state);
        storage.write(location, bytes);
        return bytes.length;
    }

    /**
     * Reads the state in the file at {@code location} of {@code storage}.
     *
     * @throws IOException naming the location when the file is missing, unreadable or not an intact state
     */
    public static SourceState read(SnapshotStorage storage, String location) throws IOException {
        return decode(FILE.read(storage, location), location);
    }

    private static SourceState readBody(ByteBuffer in, String source, boolean withEnded) throws IOException {
        String taskId = readText(in, source, "the task id");
        int subtask = in.getInt();
        long checkpointId = in.getLong();
        long generation = in.getLong();
        String inputTopic = readText(in, source, "the input topic");
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / 12) {
            throw FILE.corrupt(source, "it announces " + count + " partitions with " + in.remaining()
                    + " bytes left");
        }
        Map<Integer, Long> positions = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            int partition = in.getInt();
            if (positions.put(partition, in.getLong()) != null) {
                throw FILE.corrupt(source, "partition " + partition + " appears twice");
            }
        }
        boolean ended = withEnded && readEnded(in, source);
        try {
            return new SourceState(taskId, subtask, checkpointId, generation, inputTopic, positions, ended);
        } catch (IllegalArgumentException e) {
            throw new IOException("the source state " + source + " is inconsistent: " + e.getMessage(), e);
        }
    }

    private static boolean readEnded(ByteBuffer in, String source) throws IOException {
        byte ended = in.get();
        if (ended != 0 && ended != 1) {
            throw FILE.corrupt(source, "its ended flag is " + ended + ", not 0 or 1");
        }
        return ended == 1;
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
