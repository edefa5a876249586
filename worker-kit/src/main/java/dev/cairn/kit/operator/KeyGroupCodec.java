package dev.cairn.kit.operator;

import dev.cairn.kit.state.StateFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The file of one key group of an operator subtask's keyed state, written once and shared by every checkpoint whose
 * snapshot found the group unchanged (a shared object: the coordinator counts its references). In the frame every
 * kit state file shares ({@link StateFile}: magic, version, CRC-32).
 *
 * <pre>
 * int    magic 0x434b4b47 ("CKKG")     short  format version (1)
 * int    task id length, UTF-8 bytes   int    subtask    int key group
 * int    number of keys, then per key (ascending): int length, bytes; int length, bytes (the value)
 * long   CRC-32 of every byte before it
 * </pre>
 */
final class KeyGroupCodec {

    /** The first four bytes of a key group file: "CKKG". */
    static final int MAGIC = 0x434b4b47;
    private static final StateFile FILE = new StateFile("key group", MAGIC, (short) 1);

    private KeyGroupCodec() {
    }

    static byte[] encode(String taskId, int subtask, int group, Map<KeyedState.Key, byte[]> entries) {
        return FILE.encode(out -> {
            StateFile.writeBytes(out, taskId.getBytes(StandardCharsets.UTF_8));
            out.writeInt(subtask);
            out.writeInt(group);
            Map<KeyedState.Key, byte[]> sorted = new TreeMap<>(entries);
            out.writeInt(sorted.size());
            for (Map.Entry<KeyedState.Key, byte[]> entry : sorted.entrySet()) {
                StateFile.writeBytes(out, entry.getKey().bytes());
                StateFile.writeBytes(out, entry.getValue());
            }
        });
    }

    /**
     * The entries of the key group file in {@code bytes}.
     *
     * @param source where the bytes were read (a location), for the messages
     * @param subtask the subtask that wrote it (after a rescale, another than the reader)
     * @param maxParallelism the task's max parallelism, which the key's groups were computed with
     * @throws IOException when the bytes are not an intact key group file of this subtask and group
     */
    static Map<KeyedState.Key, byte[]> decode(byte[] bytes, String source, String taskId, int subtask, int group,
            int maxParallelism) throws IOException {
        return FILE.decode(bytes, source, in -> {
            String foundTask = new String(bytes(in, source, "the task id"), StandardCharsets.UTF_8);
            int foundSubtask = in.getInt();
            int foundGroup = in.getInt();
            if (!foundTask.equals(taskId) || foundSubtask != subtask || foundGroup != group) {
                throw new IOException("the key group file " + source + " holds group " + foundGroup + " of operator "
                        + foundTask + " subtask " + foundSubtask + ", not group " + group + " of " + taskId
                        + " subtask " + subtask);
            }
            Map<KeyedState.Key, byte[]> entries = new TreeMap<>();
            int keys = FILE.count(in, source, "keys", 8);
            for (int i = 0; i < keys; i++) {
                KeyedState.Key key = new KeyedState.Key(bytes(in, source, "a key"));
                int found = KeyGroups.of(key.bytes(), maxParallelism);
                if (found != group) {
                    throw FILE.corrupt(source, "a key of group " + found + " of " + maxParallelism + " is in group "
                            + group + " (was the state written with another max parallelism?)");
                }
                if (entries.put(key, bytes(in, source, "a value")) != null) {
                    throw FILE.corrupt(source, "a key appears twice");
                }
            }
            return entries;
        });
    }

    private static byte[] bytes(ByteBuffer in, String source, String what) throws IOException {
        byte[] bytes = FILE.readBytes(in, source, what);
        if (bytes == null) {
            throw FILE.corrupt(source, what + " is missing");
        }
        return bytes;
    }
}
