package dev.cairn.coordinator.app;

import dev.cairn.auth.RotatingKeys;
import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.topics.TopicInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Everything a coordinator instance needs to run.
 *
 * @param bootstrapServers Kafka's bootstrap servers
 * @param applicationId the Kafka Streams application id; instances with the same id share the work
 * @param topics the topic names (by prefix)
 * @param partitions partitions of every Cairn topic (created if missing)
 * @param replicationFactor replication factor of the topics the coordinator creates and of Kafka Streams' changelog
 *     topics; {@value #BROKER_DEFAULT_REPLICAS} takes the brokers' {@code default.replication.factor}
 * @param stateDir Kafka Streams' state directory: the process id and the always empty instance store (the tables
 *     live in memory, restored from their changelogs)
 * @param tickInterval how often the wall-clock punctuator looks for due timers
 * @param commitInterval Kafka Streams' commit interval (bounds the latency of every decision under EOS)
 * @param kafkaProperties passed through to the Kafka clients (security settings and the like)
 * @param queryServer where the REST API over the state stores listens; {@code null} runs no REST API
 * @param failover how fast the group notices a lost instance and hands its jobs to another
 * @param sidecarMasterKey the key every job's sidecar key and the requests key are derived from; records on the
 *     acks topic must be signed with their job's key ({@link SigningKey}), records on the requests topic with the
 *     requests key, and the REST API signs what it publishes with it; {@code null} accepts unsigned records on
 *     both topics (for a trusted network only)
 * @param allowUnsignedRequests with a master key, whether a request without signature is accepted too (a signed
 *     one is still checked); meaningless without a master key
 * @param inputLimits what the coordinator accepts of a request (the location schemes it allows among them), checked
 *     by the decider and, so that a client hears of a problem at once, by the REST API
 * @param minReplicationFactor the fewest replicas every Cairn topic must have: the coordinator refuses to start on
 *     a topic with fewer ({@code docs/operations.md}, Start-up checks)
 * @param snapshotInterval how often each stream task writes a snapshot of its journal partition's fold to the
 *     snapshots topic, from which rebuilds start; zero writes none (and then the journal must keep every record)
 * @param previousMasterKey during a key rotation, the master key being replaced: records signed with keys derived
 *     from it are accepted too until {@code previousMasterKeyUntil}, and the REST API signs with its requests key until
 *     then ({@link #masterKeys()}); {@code null} outside a rotation
 * @param previousMasterKeyUntil the end of the rotation's overlap, given exactly when {@code previousMasterKey} is
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
        Failover failover,
        SigningKey sidecarMasterKey,
        boolean allowUnsignedRequests,
        InputLimits inputLimits,
        short minReplicationFactor,
        Duration snapshotInterval,
        SigningKey previousMasterKey,
        Instant previousMasterKeyUntil) {

    /** How often a stream task writes a snapshot unless configured otherwise. */
    public static final Duration DEFAULT_SNAPSHOT_INTERVAL = Duration.ofHours(1);

    /** The replication factor that leaves the count to the brokers' {@code default.replication.factor}. */
    public static final short BROKER_DEFAULT_REPLICAS = TopicInitializer.BROKER_DEFAULT_REPLICAS;

    /**
     * The group membership and task placement settings that decide how long jobs go untriggered when an
     * instance dies, and how soon a restarted instance gets its share back. Passed to Kafka Streams by
     * {@link CoordinatorApp#streamsProperties}; a {@code --kafka-config} entry of the same name wins.
     *
     * @param instanceId {@code group.instance.id} (static membership: a restarted instance with the same id
     *        takes its tasks back without a rebalance and without waiting for the session to time out);
     *        {@code null} for dynamic membership
     * @param sessionTimeout {@code session.timeout.ms}: how long a SIGKILLed instance keeps its tasks
     * @param heartbeatInterval {@code heartbeat.interval.ms}, at most a third of the session timeout
     * @param standbyReplicas {@code num.standby.replicas}: warm copies of every store on other instances
     * @param acceptableRecoveryLag {@code acceptable.recovery.lag}: an instance at most this many changelog
     *        records behind counts as caught up and gets active tasks at once (else it warms up first)
     * @param probingRebalanceInterval {@code probing.rebalance.interval.ms}: how often warming-up instances are
     *        checked (Kafka Streams allows no less than one minute)
     * @param transactionTimeout the producer's {@code transaction.timeout.ms}: how long a killed instance's open
     *        transaction hides later records from read_committed readers (sidecars, other instances)
     */
    public record Failover(String instanceId, Duration sessionTimeout, Duration heartbeatInterval, int standbyReplicas,
            long acceptableRecoveryLag, Duration probingRebalanceInterval, Duration transactionTimeout) {

        /**
         * Cairn's defaults, those of the configuration keys ({@link CoordinatorKeys}): dynamic membership, 6 s
         * sessions, one standby, prompt placement, 5 s transactions.
         */
        public static final Failover DEFAULTS = CoordinatorKeys.defaultFailover();

        public Failover {
            Objects.requireNonNull(sessionTimeout, "sessionTimeout");
            Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
            Objects.requireNonNull(probingRebalanceInterval, "probingRebalanceInterval");
            Objects.requireNonNull(transactionTimeout, "transactionTimeout");
            if (instanceId != null && instanceId.isBlank()) {
                instanceId = null;
            }
            requirePositive("session-timeout", sessionTimeout.toMillis());
            requirePositive("heartbeat-interval", heartbeatInterval.toMillis());
            requirePositive("transaction-timeout", transactionTimeout.toMillis());
            if (heartbeatInterval.toMillis() * 3 > sessionTimeout.toMillis()) {
                throw new IllegalArgumentException("heartbeat-interval (" + heartbeatInterval.toMillis()
                        + " ms) must be at most a third of session-timeout (" + sessionTimeout.toMillis() + " ms)");
            }
            if (standbyReplicas < 0) {
                throw new IllegalArgumentException("standby-replicas must not be negative, was " + standbyReplicas);
            }
            if (acceptableRecoveryLag < 0) {
                throw new IllegalArgumentException("acceptable-recovery-lag must not be negative, was "
                        + acceptableRecoveryLag);
            }
            if (probingRebalanceInterval.toMillis() < 60_000) {
                throw new IllegalArgumentException("probing-rebalance-interval must be at least 60000 ms (a Kafka "
                        + "Streams limit), was " + probingRebalanceInterval.toMillis());
            }
        }

    }

    public CoordinatorConfig {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(stateDir, "stateDir");
        requirePositive("partitions", partitions);
        if (replicationFactor != BROKER_DEFAULT_REPLICAS && replicationFactor < 1) {
            throw new IllegalArgumentException("replication-factor must be " + BROKER_DEFAULT_REPLICAS + " (the "
                    + "brokers' default.replication.factor) or at least 1, was " + replicationFactor);
        }
        requirePositive("min-replication-factor", minReplicationFactor);
        if (replicationFactor != BROKER_DEFAULT_REPLICAS && replicationFactor < minReplicationFactor) {
            throw new IllegalArgumentException("replication-factor (" + replicationFactor + ") is below "
                    + "min-replication-factor (" + minReplicationFactor + "): the coordinator would refuse the "
                    + "topics it creates");
        }
        requirePositive("tick-interval", tickInterval.toMillis());
        requirePositive("commit-interval", commitInterval.toMillis());
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrap-servers must name at least one host:port");
        }
        Objects.requireNonNull(failover, "failover");
        Objects.requireNonNull(inputLimits, "inputLimits");
        Objects.requireNonNull(snapshotInterval, "snapshotInterval");
        if (snapshotInterval.isNegative()) {
            throw new IllegalArgumentException("snapshot-interval must be 0 (no snapshots) or positive, was "
                    + snapshotInterval.toMillis());
        }
        refuseOverrides(kafkaProperties, "kafkaProperties");
        kafkaProperties = Map.copyOf(kafkaProperties);
        if (previousMasterKey != null && sidecarMasterKey == null) {
            throw new IllegalArgumentException("a previous master key needs a current one (sidecarMasterKey)");
        }
        if (sidecarMasterKey != null) {
            // refuses a previous key without the end of its overlap (or the reverse), and one equal to the master key
            new RotatingKeys(sidecarMasterKey, previousMasterKey, previousMasterKeyUntil);
        } else if (previousMasterKeyUntil != null) {
            throw new IllegalArgumentException("previousMasterKeyUntil is set without a previous master key");
        }
    }

    /**
     * Refuses Kafka properties that would change what the coordinator decides for itself: its application id
     * (which names its group, its internal topics and its transactional ids) and exactly-once processing.
     *
     * @param what where the properties come from, for the message
     * @throws IllegalArgumentException naming the entry
     */
    static void refuseOverrides(Map<String, String> kafkaProperties, String what) {
        String guarantee = kafkaProperties.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        if (guarantee != null) {
            throw new IllegalArgumentException(what + " sets " + StreamsConfig.PROCESSING_GUARANTEE_CONFIG + "="
                    + guarantee + ", but the coordinator always processes " + StreamsConfig.EXACTLY_ONCE_V2
                    + " (its decisions and their journal entries commit together); remove the entry");
        }
        if (kafkaProperties.containsKey(StreamsConfig.APPLICATION_ID_CONFIG)) {
            throw new IllegalArgumentException(what + " sets " + StreamsConfig.APPLICATION_ID_CONFIG + ", which the "
                    + "coordinator takes from its own application.id key (--application-id); remove the entry");
        }
    }

    /** With the {@link Failover#DEFAULTS}. */
    public CoordinatorConfig(String bootstrapServers, String applicationId, CairnTopics topics, int partitions,
            short replicationFactor, Path stateDir, Duration tickInterval, Duration commitInterval,
            Map<String, String> kafkaProperties, QueryServerConfig queryServer) {
        this(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir, tickInterval,
                commitInterval, kafkaProperties, queryServer, Failover.DEFAULTS, null, false, InputLimits.DEFAULTS,
                (short) 1, DEFAULT_SNAPSHOT_INTERVAL, null, null);
    }

    /** A coordinator without REST API. */
    public CoordinatorConfig(String bootstrapServers, String applicationId, CairnTopics topics, int partitions,
            short replicationFactor, Path stateDir, Duration tickInterval, Duration commitInterval,
            Map<String, String> kafkaProperties) {
        this(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir, tickInterval,
                commitInterval, kafkaProperties, null, Failover.DEFAULTS, null, false, InputLimits.DEFAULTS,
                (short) 1, DEFAULT_SNAPSHOT_INTERVAL, null, null);
    }

    /** Settings for a coordinator on one broker, as tests and the demo use it. */
    public static CoordinatorConfig forLocalBroker(String bootstrapServers, String applicationId, Path stateDir) {
        return new CoordinatorConfig(bootstrapServers, applicationId, CairnTopics.defaults(), 3, (short) 1, stateDir,
                Duration.ofMillis(50), Duration.ofMillis(20), Map.of());
    }

    public CoordinatorConfig withPartitions(int newPartitions) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, newPartitions, replicationFactor,
                stateDir, tickInterval, commitInterval, kafkaProperties, queryServer, failover,
                sidecarMasterKey, allowUnsignedRequests, inputLimits, minReplicationFactor, snapshotInterval,
                previousMasterKey, previousMasterKeyUntil);
    }

    /** The same settings with the REST API at {@code newQueryServer} ({@code null}: no REST API). */
    public CoordinatorConfig withQueryServer(QueryServerConfig newQueryServer) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, newQueryServer, failover,
                sidecarMasterKey, allowUnsignedRequests, inputLimits, minReplicationFactor, snapshotInterval,
                previousMasterKey, previousMasterKeyUntil);
    }

    /** The same settings, requiring sidecar records and requests signed with keys derived from {@code masterKey}. */
    public CoordinatorConfig withSidecarMasterKey(SigningKey masterKey) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, queryServer, failover,
                masterKey, allowUnsignedRequests, inputLimits, minReplicationFactor, snapshotInterval, null, null);
    }

    /**
     * The same settings in a key rotation: records signed with keys derived from {@code previous} are accepted too
     * until {@code until}, and the REST API signs with {@code previous}'s requests key until then.
     */
    public CoordinatorConfig withPreviousMasterKey(SigningKey previous, Instant until) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, queryServer, failover,
                sidecarMasterKey, allowUnsignedRequests, inputLimits, minReplicationFactor, snapshotInterval,
                previous, until);
    }

    /** The same settings, refusing to start on a Cairn topic with fewer than {@code minimum} replicas. */
    public CoordinatorConfig withMinReplicationFactor(short minimum) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, queryServer, failover,
                sidecarMasterKey, allowUnsignedRequests, inputLimits, minimum, snapshotInterval, previousMasterKey,
                previousMasterKeyUntil);
    }

    /** The same settings, with a snapshot of each journal partition every {@code interval} (zero: none). */
    public CoordinatorConfig withSnapshotInterval(Duration interval) {
        return new CoordinatorConfig(bootstrapServers, applicationId, topics, partitions, replicationFactor, stateDir,
                tickInterval, commitInterval, kafkaProperties, queryServer, failover,
                sidecarMasterKey, allowUnsignedRequests, inputLimits, minReplicationFactor, interval, previousMasterKey,
                previousMasterKeyUntil);
    }

    /**
     * The master keys records are verified with: the master key, and the previous one until the end of a rotation's
     * overlap; {@code null} without a master key.
     */
    public RotatingKeys masterKeys() {
        return sidecarMasterKey == null ? null
                : new RotatingKeys(sidecarMasterKey, previousMasterKey, previousMasterKeyUntil);
    }

    /**
     * The keys requests are signed with, derived from the master keys (the REST API signs with the previous one during
     * a rotation's overlap: {@link RotatingKeys#signingKeyAt}); empty without a master key.
     */
    public Optional<RotatingKeys> requestsKeys() {
        return Optional.ofNullable(masterKeys()).map(keys -> keys.derive(SigningKey::requestsKey));
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
