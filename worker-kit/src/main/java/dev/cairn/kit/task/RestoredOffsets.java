package dev.cairn.kit.task;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the input positions a task restores against what its input partitions still hold. A position below a
 * partition's first offset (retention deleted the records it would read) or past its end (the topic was deleted and
 * created again, or an unclean leader election cut it short) no longer exists. By default that is an error naming the
 * partition, the position and the offsets left, never a silent jump: the kit's consumers run with
 * {@code auto.offset.reset=none}, so a position that goes missing while the task runs fails it too. A task whose
 * client settings choose {@code auto.offset.reset=earliest} or {@code latest} explicitly goes on from that end of the
 * partition instead, and logs the offsets it skips.
 */
public final class RestoredOffsets {

    private static final Logger LOG = LoggerFactory.getLogger(RestoredOffsets.class);

    private RestoredOffsets() {
    }

    /**
     * The offsets to seek to: {@code restored}, each checked against the partition's first and end offsets, moved to
     * one of them where the consumer's {@code auto.offset.reset} ({@code policy}) says so.
     *
     * @param who the task, as logs and errors name it
     * @throws IllegalStateException when a position no longer exists and the policy is {@code none}
     */
    public static Map<TopicPartition, Long> check(Consumer<?, ?> consumer, Map<TopicPartition, Long> restored,
            Object policy, String who) {
        if (restored.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, Long> firsts = consumer.beginningOffsets(restored.keySet());
        Map<TopicPartition, Long> ends = consumer.endOffsets(restored.keySet());
        String reset = String.valueOf(policy).toLowerCase(Locale.ROOT);
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        restored.forEach((partition, position) -> {
            long first = firsts.get(partition);
            long end = ends.get(partition);
            if (position >= first && position <= end) {
                offsets.put(partition, position);
                return;
            }
            String missing = position < first
                    ? String.format("%s: the restored position %d of %s no longer exists: the earliest offset left is "
                            + "%d (retention deleted %d records before it)", who, position, partition, first,
                            first - position)
                    : String.format("%s: the restored position %d of %s is past the partition's end %d (the topic was "
                            + "created again, or an unclean leader election cut it short)", who, position, partition,
                            end);
            switch (reset) {
                case "earliest" -> {
                    LOG.warn("{}; auto.offset.reset=earliest: reading on from offset {}{}", missing, first,
                            position < first ? ", the deleted records are skipped" : ", again from the start");
                    offsets.put(partition, first);
                }
                case "latest" -> {
                    LOG.warn("{}; auto.offset.reset=latest: reading on from the end, offset {}, skipping {} records",
                            missing, end, Math.max(0, end - Math.max(position, first)));
                    offsets.put(partition, end);
                }
                default -> throw new IllegalStateException(missing + "; restore a newer checkpoint, or set "
                        + ConsumerConfig.AUTO_OFFSET_RESET_CONFIG + "=earliest (or latest) in the task's client "
                        + "settings to skip what is gone");
            }
        });
        return offsets;
    }
}
