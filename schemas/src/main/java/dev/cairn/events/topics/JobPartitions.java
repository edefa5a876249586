package dev.cairn.events.topics;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition a job's events live in on every Cairn topic: Kafka's default partitioner applied to the
 * job id as the String serializer writes it (UTF-8), so a sidecar can assign exactly the partition the
 * coordinator writes the job's control events and retained checkpoints to.
 */
public final class JobPartitions {

    private JobPartitions() {
    }

    /** {@code toPositive(murmur2(utf8(jobId))) % partitions}. */
    public static int of(String jobId, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
        }
        return Utils.toPositive(Utils.murmur2(jobId.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
