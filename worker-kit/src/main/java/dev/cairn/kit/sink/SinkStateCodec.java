package dev.cairn.kit.sink;

import dev.cairn.kit.state.StateFile;
import dev.cairn.kit.storage.SnapshotStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The snapshot file of a write-ahead sink subtask: a {@link SinkState} in a small length-prefixed binary format.
 *
 * <pre>
 * int    magic 0x43574153 ("CWAS")     short  format version (1)
 * int    sink id length, UTF-8 bytes   int    subtask              long  checkpoint id
 * int    number of epochs, then per epoch:
 *        long checkpoint id, int number of records, then per record:
 *             int key length (-1: null), key bytes, int value length (-1: null), value bytes
 * long   CRC-32 of every byte before it
 * </pre>
 *
 * <p>A file that is truncated, altered, of another format or version, or followed by extra bytes is refused with an
 * {@link IOException} that names the file's location and what is wrong; nothing is half-restored. Files are written
 * through a {@link SnapshotStorage}, whole or not at all, so a crash while writing leaves no partial file under the
 * name.
 */
public final class SinkStateCodec {

    /** The first four bytes of a sink state file: "CWAS". */
    public static final int MAGIC = 0x43574153;
    /** The format version this codec writes and reads. */
    public static final short VERSION = 1;

    private static final StateFile FILE = new StateFile("sink state", MAGIC, VERSION);

    private SinkStateCodec() {
    }

    /** The bytes of {@code state}. */
    public static byte[] encode(SinkState state) {
        return FILE.encode(out -> {
            StateFile.writeBytes(out, state.sinkId().getBytes(StandardCharsets.UTF_8));
            out.writeInt(state.subtask());
            out.writeLong(state.checkpointId());
            out.writeInt(state.pending().size());
            for (Epoch epoch : state.pending()) {
                out.writeLong(epoch.checkpointId());
                out.writeInt(epoch.records().size());
                for (SinkRecord record : epoch.records()) {
                    StateFile.writeBytes(out, record.key());
                    StateFile.writeBytes(out, record.value());
                }
            }
        });
    }

    /**
     * The state in {@code bytes}.
     *
     * @param source what the bytes are (a file name), for the error message
     * @throws IOException when the bytes are not a whole, intact sink state of this format
     */
    public static SinkState decode(byte[] bytes, String source) throws IOException {
        return FILE.decode(bytes, source, in -> readBody(in, source));
    }

    /**
     * Writes {@code state} as the file at {@code location} of {@code storage} (whole or not at all, durable when this
     * returns); answers the file's size.
     */
    public static long write(SnapshotStorage storage, String location, SinkState state) throws IOException {
        byte[] bytes = encode(state);
        storage.write(location, bytes);
        return bytes.length;
    }

    /**
     * Reads the state in the file at {@code location} of {@code storage}.
     *
     * @throws IOException naming the location when the file is missing, unreadable or not an intact state
     */
    public static SinkState read(SnapshotStorage storage, String location) throws IOException {
        return decode(FILE.read(storage, location), location);
    }

    private static SinkState readBody(ByteBuffer in, String source) throws IOException {
        byte[] sinkIdBytes = FILE.readBytes(in, source, "the sink id");
        if (sinkIdBytes == null) {
            throw FILE.corrupt(source, "it has no sink id");
        }
        String sinkId = new String(sinkIdBytes, StandardCharsets.UTF_8);
        int subtask = in.getInt();
        long checkpointId = in.getLong();
        int epochs = FILE.count(in, source, "epochs", 1);
        List<Epoch> pending = new ArrayList<>(epochs);
        for (int e = 0; e < epochs; e++) {
            long epochId = in.getLong();
            int records = FILE.count(in, source, "records of epoch " + epochId, 1);
            List<SinkRecord> list = new ArrayList<>(records);
            for (int r = 0; r < records; r++) {
                byte[] key = FILE.readBytes(in, source, "a key of epoch " + epochId);
                byte[] value = FILE.readBytes(in, source, "a value of epoch " + epochId);
                list.add(new SinkRecord(key, value));
            }
            pending.add(new Epoch(epochId, list));
        }
        try {
            return new SinkState(sinkId, subtask, checkpointId, pending);
        } catch (IllegalArgumentException e) {
            throw new IOException("the sink state " + source + " is inconsistent: " + e.getMessage(), e);
        }
    }
}
