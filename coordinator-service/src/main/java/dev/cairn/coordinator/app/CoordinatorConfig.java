package dev.cairn.coordinator.app;

import dev.cairn.coordinator.query.QueryServerConfig;
import dev.cairn.events.auth.SigningKey;
import dev.cairn.events.topics.CairnTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a coordinator instance needs to run.
 *
 * @param bootstrapServers Kafka's bootstrap servers
 * @param applicationId the Kafka Streams application id; instances with the same id share the work
 * @param topics the topic names (by prefix)
 * @param partitions partitions of every Cairn topic (created if missing)
 * @param replicationFactor replication factor of topics the coordinator creates
 * @param stateDir where Kafka Streams keeps its RocksDB stores
 * @param tickInterval how often the wall-clock punctuator looks for due timers
 * @param commitInterval Kafka Streams' commit interval (bounds the latency of every decision under EOS)
 * @param kafkaProperties passed through to the Kafka clients (security settings and the like)
 * @param queryServer where the REST API over the state stores listens; {@code null} runs no REST API
 * @param sidecarMasterKey the key every job's sidecar key is derived from; records on the acks topic must
 *     be signed with their job's key ({@link dev.cairn.events.auth.SigningKey}); {@code null} accepts unsigned
 *     records (for a trusted network only)
 */
public record CoordinatorConfig(
        String bootstrapServers,
        String applicationId,
        CairnTopics topics,
        int partitions,
        short replicationFactor,
        Path stateDir,
        Duration tickInterval,
        Duration commitInterval,
        Map<String, String> kafkaProperties,
        QueryServerConfig queryServer,
        SigningKey sidecarMasterKey) {

    public CoordinatorConfig {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(stateDir, "stateDir");
        requirePositive("partitions", partitions);
        requirePositive("replication-factor", replicationFactor);
        requirePositive("tick-interval", tickInterval.toMillis());
        requirePositive("commit-interval", commitInterval.toMillis());
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrap-servers must name at least one host:port");
        }
        kafkaProperties = Map.copyOf(kafkaProperties);
    }

    /** Without a sidecar master key: unsigned sidecar records are accepted. */
    public CoordinatorConfig(String bootstrapServers, String applicationId, CairnTopics topics, int partitions,
            short replicationFactor, Path stateDir, Duration tickInterval, Duration commitInterval,
            Map<String, String> kafkaProperties, QueryServerConfig queryServer) {
        this(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir, tickInterval,
                commitInterval, kafkaProperties, queryServer, null);
    }

    /** A coordinator without REST API. */
    public CoordinatorConfig(String bootstrapServers, String applicationId, CairnTopics topics, int partitions,
            short replicationFactor, Path stateDir, Duration tickInterval, Duration commitInterval,
            Map<String, String> kafkaProperties) {
        this(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir, tickInterval,
                commitInterval, kafkaProperties, null);
    }

    /** Settings for a coordinator on one broker, as tests and the demo use it. */
    public static CoordinatorConfig forLocalBroker(String bootstrapServers, String applicationId, Path stateDir) {
        return new CoordinatorConfig(bootstrapServers, applicationId, CairnTopics.defaults(), 3, (short) 1, stateDir,
                Duration.ofMillis(50), Duration.ofMillis(20), Map.of());
    }

    public CoordinatorConfig withPartitions(int newPartitions) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, newPartitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, queryServer, sidecarMasterKey);
    }

    public CoordinatorConfig withStateDir(Path newStateDir) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, newStateDir,
                tickInterval, commitInterval, kafkaProperties, queryServer, sidecarMasterKey);
    }

    /** The same settings with the REST API at {@code newQueryServer} ({@code null}: no REST API). */
    public CoordinatorConfig withQueryServer(QueryServerConfig newQueryServer) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, newQueryServer, sidecarMasterKey);
    }

    /** The same settings, requiring sidecar records signed with keys derived from {@code masterKey}. */
    public CoordinatorConfig withSidecarMasterKey(SigningKey masterKey) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, queryServer, masterKey);
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
