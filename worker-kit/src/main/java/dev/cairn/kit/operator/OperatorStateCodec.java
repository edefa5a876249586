package dev.cairn.kit.operator;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.state.StateFile;
import dev.cairn.kit.storage.SnapshotStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The snapshot file of an operator subtask: an {@link OperatorState} in a small binary format, in the frame every
 * kit state file shares ({@link StateFile}: magic, version, CRC-32), kept in a {@link SnapshotStorage}.
 *
 * <pre>
 * int    magic 0x434b4f53 ("CKOS")     short  format version (2; 1 is read too)
 * int    task id length, UTF-8 bytes   int    subtask    long checkpoint id    long generation
 * int    input topic length, UTF-8 bytes
 * int    number of restart offsets, then per partition (ascending): int partition, long offset
 * int    number of reflected channels, then per channel (ascending): int partition, int upstream, long offset
 * int    number of keys, then per key (ascending): int length, bytes; int length, bytes (the value)
 * int    number of key group objects, then per group (ascending): int group, int length, UTF-8 bytes (the location),
 *        long size                                                                        (version 2 only)
 * byte   1 when the group objects are shared objects the coordinator counts, else 0      (version 2 only)
 * long   CRC-32 of every byte before it
 * </pre>
 *
 * <p>Version 1 files, written before key groups, hold every entry in the file and are read as such.
 *
 * <p>A file that is truncated, altered, of another format or version, or followed by extra bytes is refused with an
 * {@link IOException} naming the file and what is wrong.
 */
public final class OperatorStateCodec {

    /** The first four bytes of an operator state file: "CKOS". */
    public static final int MAGIC = 0x434b4f53;
    /** The format version this codec writes. */
    public static final short VERSION = 2;

    private static final StateFile FILE = new StateFile("operator state", MAGIC, VERSION);
    /** The format of the files written before key groups, still read. */
    private static final StateFile FILE_V1 = new StateFile("operator state", MAGIC, (short) 1);

    private OperatorStateCodec() {
    }

    /** The bytes of {@code state}. */
    public static byte[] encode(OperatorState state) {
        return FILE.encode(out -> {
            StateFile.writeBytes(out, state.taskId().getBytes(StandardCharsets.UTF_8));
            out.writeInt(state.subtask());
            out.writeLong(state.checkpointId());
            out.writeLong(state.generation());
            StateFile.writeBytes(out, state.inputTopic().getBytes(StandardCharsets.UTF_8));
            Map<InputPartition, Long> restart = state.positions().restartOffsets();
            out.writeInt(restart.size());
            for (Map.Entry<InputPartition, Long> offset : restart.entrySet()) {
                out.writeInt(offset.getKey().partition());
                out.writeLong(offset.getValue());
            }
            Map<Channel, Long> reflected = state.positions().reflectedThrough();
            out.writeInt(reflected.size());
            for (Map.Entry<Channel, Long> offset : reflected.entrySet()) {
                out.writeInt(offset.getKey().partition().partition());
                out.writeInt(offset.getKey().upstream());
                out.writeLong(offset.getValue());
            }
            out.writeInt(state.entries().size());
            for (Map.Entry<KeyedState.Key, byte[]> entry : state.entries().entrySet()) {
                StateFile.writeBytes(out, entry.getKey().bytes());
                StateFile.writeBytes(out, entry.getValue());
            }
            out.writeInt(state.groups().size());
            for (KeyGroupObject group : state.groups()) {
                out.writeInt(group.group());
                StateFile.writeBytes(out, group.location().getBytes(StandardCharsets.UTF_8));
                out.writeLong(group.sizeBytes());
            }
            out.writeByte(state.groupsShared() ? 1 : 0);
        });
    }

    /**
     * The state in {@code bytes}.
     *
     * @param source what the bytes are (a file name), for the error message
     * @throws IOException when the bytes are not a whole, intact operator state of this format
     */
    public static OperatorState decode(byte[] bytes, String source) throws IOException {
        boolean first = bytes.length >= 6 && ByteBuffer.wrap(bytes, 4, 2).getShort() == 1;
        return (first ? FILE_V1 : FILE).decode(bytes, source, in -> {
            try {
                OperatorState state = readBody(in, source);
                return first ? state : readGroups(in, source, state);
            } catch (IllegalArgumentException e) {
                throw new IOException("the operator state " + source + " is inconsistent: " + e.getMessage(), e);
            }
        });
    }

    /**
     * Reads the state in the file at {@code location} of {@code storage}.
     *
     * @throws IOException naming the location when the file is missing, unreadable or not an intact state
     */
    public static OperatorState read(SnapshotStorage storage, String location) throws IOException {
        return readVersioned(storage, location).state();
    }

    /**
     * As {@link #read}, with the file's format version: 1 for a file of the release before key groups, whose
     * subtasks read other partitions than this release's ({@link OperatorRestore#readOwn}).
     */
    static Versioned readVersioned(SnapshotStorage storage, String location) throws IOException {
        byte[] bytes = FILE.read(storage, location);
        OperatorState state = decode(bytes, location);
        return new Versioned(state, ByteBuffer.wrap(bytes, 4, 2).getShort());
    }

    /** A state read from its file, and the file's format version. */
    record Versioned(OperatorState state, short version) {

        /** Whether the file is of format 1, written by the release before key groups. */
        boolean formatOne() {
            return version == 1;
        }
    }

    private static OperatorState readBody(ByteBuffer in, String source) throws IOException {
        String taskId = new String(bytes(in, source, "the task id"), StandardCharsets.UTF_8);
        int subtask = in.getInt();
        long checkpointId = in.getLong();
        long generation = in.getLong();
        String topic = new String(bytes(in, source, "the input topic"), StandardCharsets.UTF_8);
        Map<InputPartition, Long> restart = new TreeMap<>();
        int partitions = FILE.count(in, source, "restart offsets", 12);
        for (int i = 0; i < partitions; i++) {
            InputPartition partition = new InputPartition(topic, in.getInt());
            if (restart.put(partition, in.getLong()) != null) {
                throw FILE.corrupt(source, "the restart offset of " + partition + " appears twice");
            }
        }
        Map<Channel, Long> reflected = new TreeMap<>();
        int channels = FILE.count(in, source, "reflected channels", 16);
        for (int i = 0; i < channels; i++) {
            Channel channel = Channel.of(topic, in.getInt(), in.getInt());
            if (reflected.put(channel, in.getLong()) != null) {
                throw FILE.corrupt(source, "channel " + channel + " appears twice");
            }
        }
        Map<KeyedState.Key, byte[]> entries = new TreeMap<>();
        int keys = FILE.count(in, source, "keys", 8);
        for (int i = 0; i < keys; i++) {
            KeyedState.Key key = new KeyedState.Key(bytes(in, source, "a key"));
            if (entries.put(key, bytes(in, source, "a value")) != null) {
                throw FILE.corrupt(source, "a key appears twice");
            }
        }
        return new OperatorState(taskId, subtask, checkpointId, generation, topic,
                new InputPositions(restart, reflected), entries);
    }

    private static OperatorState readGroups(ByteBuffer in, String source, OperatorState state) throws IOException {
        List<KeyGroupObject> groups = new ArrayList<>();
        int count = FILE.count(in, source, "key group objects", 16);
        int previous = -1;
        for (int i = 0; i < count; i++) {
            int group = in.getInt();
            if (group <= previous) {
                throw FILE.corrupt(source, "key group " + group + " comes after group " + previous);
            }
            previous = group;
            groups.add(new KeyGroupObject(group, new String(bytes(in, source, "a key group's location"),
                    StandardCharsets.UTF_8), in.getLong()));
        }
        byte shared = in.get();
        if (shared != 0 && shared != 1) {
            throw FILE.corrupt(source, "the shared flag is " + shared);
        }
        return new OperatorState(state.taskId(), state.subtask(), state.checkpointId(), state.generation(),
                state.inputTopic(), state.positions(), state.entries(), groups, shared == 1);
    }

    private static byte[] bytes(ByteBuffer in, String source, String what) throws IOException {
        byte[] bytes = FILE.readBytes(in, source, what);
        if (bytes == null) {
            throw FILE.corrupt(source, what + " is missing");
        }
        return bytes;
    }
}
