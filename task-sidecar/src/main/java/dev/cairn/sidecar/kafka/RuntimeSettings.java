package dev.cairn.sidecar.kafka;

import dev.cairn.events.auth.SigningKey;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What the Kafka side of a sidecar needs: where the broker and topics are, which subtask it stands for, and
 * its time limits. Built from {@code dev.cairn.sidecar.app.SidecarConfig}.
 *
 * @param bootstrapServers Kafka's bootstrap servers
 * @param topics Cairn's topic names (by prefix)
 * @param jobId the job
 * @param taskId the task
 * @param subtaskIndex the subtask
 * @param snapshotTimeout how long one snapshot may take before the sidecar declines it
 * @param startupTimeout how long start-up may wait for the topics, the restore point and the registration
 * @param kafkaProperties passed to the consumers and the producer as they are (security settings, tuning)
 * @param authKey the job's key that signs every record sent; {@code null}: unsigned
 */
public record RuntimeSettings(String bootstrapServers, CairnTopics topics, String jobId, String taskId,
        int subtaskIndex, Duration snapshotTimeout, Duration startupTimeout, Map<String, String> kafkaProperties,
        SigningKey authKey) {

    public RuntimeSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(snapshotTimeout, "snapshotTimeout");
        Objects.requireNonNull(startupTimeout, "startupTimeout");
        kafkaProperties = Map.copyOf(kafkaProperties);
    }

    /** A short name for client ids and thread names: {@code <job>/<task>-<subtask>}. */
    public String name() {
        return jobId + "/" + taskId + "-" + subtaskIndex;
    }
}
