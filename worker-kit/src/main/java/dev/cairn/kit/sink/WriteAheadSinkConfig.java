package dev.cairn.kit.sink;

import dev.cairn.kit.state.Settings;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.kit.storage.SnapshotStorages;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Where a write-ahead sink subtask writes and how it reaches Kafka.
 *
 * @param sinkId the sink's id, shared by its subtasks: letters, digits, '.', '_' and '-'
 * @param subtask this subtask's index (0 or more); a restore reads a snapshot of the same sink id and subtask (after
 *     a rescale, see {@link SinkHandover})
 * @param outputTopic the topic the sink writes; its commit markers go to {@link #commitsTopic()}
 * @param clientConfig settings for the sink's producer, consumer and admin client ({@code bootstrap.servers} and
 *     security); the sink sets the transactional id, idempotence and the isolation level itself
 * @param timeout how long initialising the producer and reading the commit marker back may take; make it longer
 *     than the producers' {@code transaction.timeout.ms}
 * @param storage where the sink writes and reads its snapshot files (the checkpoint's storage location says where
 *     in it); {@link SnapshotStorages#defaults()} unless given: local files, and S3 as the environment says
 */
public record WriteAheadSinkConfig(String sinkId, int subtask, String outputTopic, Map<String, Object> clientConfig,
        Duration timeout, SnapshotStorage storage) {

    public WriteAheadSinkConfig {
        Objects.requireNonNull(sinkId, "sinkId");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(outputTopic, "outputTopic");
        Objects.requireNonNull(timeout, "timeout");
        clientConfig = Map.copyOf(Objects.requireNonNull(clientConfig, "clientConfig"));
        Settings.requireId("a sink id", sinkId);
        if (subtask < 0) {
            throw new IllegalArgumentException("a subtask index is 0 or more, was " + subtask);
        }
        if (outputTopic.isBlank()) {
            throw new IllegalArgumentException("the output topic must not be blank");
        }
        Settings.requireClientSettings("the sink", clientConfig, ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        Settings.requirePositive("the timeout", timeout);
    }

    /** A sink subtask keeping its snapshots in {@link SnapshotStorages#defaults()}. */
    public WriteAheadSinkConfig(String sinkId, int subtask, String outputTopic, Map<String, Object> clientConfig,
            Duration timeout) {
        this(sinkId, subtask, outputTopic, clientConfig, timeout, SnapshotStorages.defaults());
    }

    /** This sink subtask keeping its snapshots in {@code storage} (the caller closes it, after the sink). */
    public WriteAheadSinkConfig withStorage(SnapshotStorage storage) {
        return new WriteAheadSinkConfig(sinkId, subtask, outputTopic, clientConfig, timeout, storage);
    }

    /**
     * A subtask's settings with only a bootstrap address and a 2 minute timeout: longer than the producers' default
     * {@code transaction.timeout.ms} (1 minute), since reading the marker back waits for the transactions other
     * subtasks left open on the commits topic (see {@link KafkaEpochCommitter}).
     */
    public static WriteAheadSinkConfig of(String sinkId, int subtask, String outputTopic, String bootstrapServers) {
        return new WriteAheadSinkConfig(sinkId, subtask, outputTopic,
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), Duration.ofMinutes(2));
    }

    /**
     * The settings of subtask {@code index} of the same sink: after a rescale, a subtask resolves the pending epochs
     * of an old index with them ({@link SinkHandover}).
     */
    public WriteAheadSinkConfig forSubtask(int index) {
        return new WriteAheadSinkConfig(sinkId, index, outputTopic, clientConfig, timeout, storage);
    }

    /** The compacted topic of the commit markers: {@code <output>.commits}. */
    public String commitsTopic() {
        return outputTopic + ".commits";
    }

    /**
     * {@code <sinkId>-<subtask>}: the producer's transactional id (so a restarted incarnation fences a zombie) and
     * the key of this subtask's commit marker.
     */
    public String transactionalId() {
        return sinkId + "-" + subtask;
    }

    /** The name of this subtask's snapshot file in a checkpoint's storage location. */
    public String snapshotFileName() {
        return "sink-" + transactionalId() + ".state";
    }
}
