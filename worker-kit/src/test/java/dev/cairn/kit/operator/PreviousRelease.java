package dev.cairn.kit.operator;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.state.StateFile;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;

/**
 * Operator state files as the release before key-group routing (0.3.0) wrote them: format 1, every entry in the
 * file, its writers routing a key to partition {@code murmur2(key) % partitions} and its subtask {@code i} reading
 * the partitions {@code p % parallelism == i}.
 */
final class PreviousRelease {

    private PreviousRelease() {
    }

    /** The partition that release's writers routed {@code key} to. */
    static int partitionOf(byte[] key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /** Whether that release's subtask {@code subtask} of {@code parallelism} read {@code partition}. */
    static boolean readBy(int partition, int parallelism, int subtask) {
        return partition % parallelism == subtask;
    }

    /** The bytes of a format-1 operator state file with these contents. */
    static byte[] stateFile(String taskId, int subtask, long checkpointId, long generation, String topic,
            InputPositions positions, Map<KeyedState.Key, byte[]> entries) {
        return new StateFile("operator state", OperatorStateCodec.MAGIC, (short) 1).encode(out -> {
            StateFile.writeBytes(out, taskId.getBytes(StandardCharsets.UTF_8));
            out.writeInt(subtask);
            out.writeLong(checkpointId);
            out.writeLong(generation);
            StateFile.writeBytes(out, topic.getBytes(StandardCharsets.UTF_8));
            out.writeInt(positions.restartOffsets().size());
            for (Map.Entry<InputPartition, Long> offset : positions.restartOffsets().entrySet()) {
                out.writeInt(offset.getKey().partition());
                out.writeLong(offset.getValue());
            }
            out.writeInt(positions.reflectedThrough().size());
            for (Map.Entry<Channel, Long> offset : positions.reflectedThrough().entrySet()) {
                out.writeInt(offset.getKey().partition().partition());
                out.writeInt(offset.getKey().upstream());
                out.writeLong(offset.getValue());
            }
            out.writeInt(entries.size());
            for (Map.Entry<KeyedState.Key, byte[]> entry : entries.entrySet()) {
                StateFile.writeBytes(out, entry.getKey().bytes());
                StateFile.writeBytes(out, entry.getValue());
            }
        });
    }
}
