package dev.cairn.sidecar.kafka;

import dev.cairn.auth.SigningKey;
import dev.cairn.events.topics.CairnTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What the Kafka side of a sidecar needs: where the broker and topics are, which subtask (or participant) it
 * stands for, and its time limits. Built from {@code dev.cairn.sidecar.app.SidecarConfig}.
 *
 * @param bootstrapServers Kafka's bootstrap servers
 * @param topics Cairn's topic names (by prefix)
 * @param jobId the job
 * @param taskId the task; {@code null} for a participant
 * @param subtaskIndex the subtask; -1 for a participant
 * @param snapshotTimeout how long one snapshot may take before the sidecar declines it
 * @param startupTimeout how long start-up may wait for the topics, the restore point and the registration (and
 *     {@code finish} for its record to be written)
 * @param kafkaProperties passed to the consumers and the producer as they are (security settings, tuning)
 * @param authKey the job's key that signs every record sent; {@code null}: unsigned
 * @param participant the coordinator-side participant it runs as; {@code null} for a task sidecar
 * @param authKeyFile the file {@code authKey} was read from, re-read when it changes ({@link ReloadingKeyFile});
 *     {@code null}: the key never changes
 * @param host the host a task sidecar's {@code TaskStarted} names; {@code null}: this machine's name
 *     ({@link HostNames#orLocal})
 */
public record RuntimeSettings(String bootstrapServers, CairnTopics topics, String jobId, String taskId,
        int subtaskIndex, Duration snapshotTimeout, Duration startupTimeout, Map<String, String> kafkaProperties,
        SigningKey authKey, String participant, Path authKeyFile, String host) {

    public RuntimeSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(jobId, "jobId");
        if ((participant == null) == (taskId == null)) {
            throw new IllegalArgumentException("a sidecar stands for a task or a participant, was task " + taskId
                    + " and participant " + participant);
        }
        Objects.requireNonNull(snapshotTimeout, "snapshotTimeout");
        Objects.requireNonNull(startupTimeout, "startupTimeout");
        kafkaProperties = Map.copyOf(kafkaProperties);
        if (authKeyFile != null) {
            Objects.requireNonNull(authKey, "authKey (read from authKeyFile)");
        }
        if (host != null && HostNames.problem(host) != null) {
            throw new IllegalArgumentException("host " + HostNames.problem(host));
        }
    }

    /** Settings whose key, if any, never changes. */
    public RuntimeSettings(String bootstrapServers, CairnTopics topics, String jobId, String taskId, int subtaskIndex,
            Duration snapshotTimeout, Duration startupTimeout, Map<String, String> kafkaProperties,
            SigningKey authKey, String participant) {
        this(bootstrapServers, topics, jobId, taskId, subtaskIndex, snapshotTimeout, startupTimeout, kafkaProperties,
                authKey, participant, null, null);
    }

    /** A task sidecar's settings. */
    public RuntimeSettings(String bootstrapServers, CairnTopics topics, String jobId, String taskId, int subtaskIndex,
            Duration snapshotTimeout, Duration startupTimeout, Map<String, String> kafkaProperties,
            SigningKey authKey) {
        this(bootstrapServers, topics, jobId, taskId, subtaskIndex, snapshotTimeout, startupTimeout, kafkaProperties,
                authKey, null, null, null);
    }

    /** Whether it runs as a coordinator-side participant. */
    public boolean isParticipant() {
        return participant != null;
    }

    /**
     * A short name for client ids and thread names: {@code <job>/<task>-<subtask>}, or
     * {@code <job>/participant-<name>}.
     */
    public String name() {
        return jobId + "/" + (isParticipant() ? "participant-" + participant : taskId + "-" + subtaskIndex);
    }
}
