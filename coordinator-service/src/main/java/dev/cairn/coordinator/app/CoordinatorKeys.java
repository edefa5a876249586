package dev.cairn.coordinator.app;

import static dev.cairn.coordinator.app.CoordinatorConfig.BROKER_DEFAULT_REPLICAS;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.ConfigSchema;
import dev.cairn.config.LayeredConfig;
import dev.cairn.config.PropertiesFile;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.topics.CairnTopics;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The coordinator's configuration keys, defined once ({@link #SCHEMA}: flags, {@code CAIRN_*} environment
 * variables, {@code --config} file and the configuration reference are generated from it), and the
 * {@link CoordinatorConfig} they describe ({@link #toConfig}).
 */
public final class CoordinatorKeys {

    static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    static final String APPLICATION_ID = "application.id";
    static final String TOPIC_PREFIX = "topic.prefix";
    static final String PARTITIONS = "partitions";
    static final String REPLICATION_FACTOR = "replication.factor";
    static final String MIN_REPLICATION_FACTOR = "min.replication.factor";
    static final String STATE_DIR = "state.dir";
    static final String TICK_INTERVAL_MS = "tick.interval.ms";
    static final String COMMIT_INTERVAL_MS = "commit.interval.ms";
    static final String KAFKA_CONFIG = "kafka.config";
    static final String SIDECAR_MASTER_KEY_FILE = "sidecar.master.key.file";
    static final String PREVIOUS_MASTER_KEY_FILE = "sidecar.previous.master.key.file";
    static final String PREVIOUS_MASTER_KEY_UNTIL = "sidecar.previous.master.key.until";
    static final String ALLOW_UNSIGNED = "allow.unsigned.sidecar.records";
    static final String ALLOW_UNSIGNED_REQUESTS = "allow.unsigned.requests";
    static final String LOCATION_SCHEMES = "location.schemes";
    static final String INSTANCE_ID = "instance.id";
    static final String SESSION_TIMEOUT_MS = "session.timeout.ms";
    static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
    static final String STANDBY_REPLICAS = "standby.replicas";
    static final String ACCEPTABLE_RECOVERY_LAG = "acceptable.recovery.lag";
    static final String PROBING_REBALANCE_INTERVAL_MS = "probing.rebalance.interval.ms";
    static final String TRANSACTION_TIMEOUT_MS = "transaction.timeout.ms";
    static final String SNAPSHOT_INTERVAL_MS = "snapshot.interval.ms";
    static final String REQUEST_FRESHNESS_MS = "request.freshness.ms";

    /** -1 (the brokers' default) or a replica count of at least 1. */
    private static final ConfigDef.Validator REPLICAS_OR_BROKER_DEFAULT = ConfigDef.LambdaValidator.with(
            (name, value) -> {
                if (value instanceof Short replicas && replicas != BROKER_DEFAULT_REPLICAS && replicas < 1) {
                    throw new ConfigException(name, value, "Value must be -1 (the brokers' "
                            + "default.replication.factor) or at least 1");
                }
            }, () -> "-1 or [1,...]");

    /** Every key of the coordinator, its environment variables {@code CAIRN_<KEY>}. */
    public static final ConfigSchema SCHEMA = new ConfigSchema("cairn-coordinator", HttpKeys.define(definition()),
            "CAIRN_", null);

    private CoordinatorKeys() {
    }

    private static ConfigDef definition() {
        return signingKeys(new ConfigDef()
                .define(BOOTSTRAP_SERVERS, Type.STRING, "localhost:9092", new NonEmptyString(), Importance.HIGH,
                        "Kafka bootstrap servers.")
                .define(APPLICATION_ID, Type.STRING, "cairn-coordinator", new NonEmptyString(), Importance.HIGH,
                        "Kafka Streams application id; instances with the same id share the jobs.")
                .define(TOPIC_PREFIX, Type.STRING, CairnTopics.defaults().prefix(), Importance.MEDIUM,
                        "Prefix of every topic name.")
                .define(PARTITIONS, Type.INT, 6, Range.atLeast(1), Importance.MEDIUM,
                        "Partitions of every Cairn topic (created if missing).")
                .define(REPLICATION_FACTOR, Type.SHORT, BROKER_DEFAULT_REPLICAS, REPLICAS_OR_BROKER_DEFAULT,
                        Importance.MEDIUM, "Replication factor of the topics the coordinator creates and of Kafka "
                                + "Streams' changelog topics; -1 takes the brokers' default.replication.factor, as "
                                + "Kafka Streams does.")
                .define(MIN_REPLICATION_FACTOR, Type.SHORT, (short) 1, Range.atLeast(1), Importance.MEDIUM,
                        "The fewest replicas every Cairn topic must have: the coordinator refuses to start when one "
                                + "has fewer (docs/operations.md, Start-up checks).")
                .define(STATE_DIR, Type.STRING, "/tmp/cairn-coordinator", new NonEmptyString(), Importance.MEDIUM,
                        "Where Kafka Streams keeps this instance's process id and task directories; the stores "
                                + "themselves live in the heap and are restored from their changelogs "
                                + "(docs/operations.md, Sizing the heap).")
                .define(TICK_INTERVAL_MS, Type.LONG, 100L, Range.atLeast(1), Importance.LOW,
                        "How often due timers are looked for.")
                .define(COMMIT_INTERVAL_MS, Type.LONG, 20L, Range.atLeast(1), Importance.MEDIUM,
                        "Kafka Streams commit interval: under exactly-once every decision becomes visible at the next "
                                + "commit; a completed checkpoint asks for a commit at once (at most once per "
                                + "interval).")
                .define(KAFKA_CONFIG, Type.STRING, null, Importance.MEDIUM,
                        "Properties file passed to the Kafka clients as it is (security settings, Kafka Streams "
                                + "settings); it may not set application.id or processing.guarantee."))
                .define(LOCATION_SCHEMES, Type.LIST, String.join(",",
                                new TreeSet<>(InputLimits.DEFAULT_LOCATION_SCHEMES)), Importance.MEDIUM,
                        "URI schemes a job's storage base or a savepoint target may have; any other location is "
                                + "refused, since tasks are told to write there (default: the file systems Flink "
                                + "writes checkpoints to).")
                .define(ALLOW_UNSIGNED_REQUESTS, Type.BOOLEAN, false, Importance.HIGH,
                        "Accept unsigned job specs, trigger requests and status changes on the requests topic "
                                + "(signed ones are still checked): only where nobody untrusted can write that "
                                + "topic. Required without sidecar.master.key.file, which the requests key is "
                                + "derived from.")
                .define(INSTANCE_ID, Type.STRING, null, Importance.MEDIUM,
                        "Stable id of this instance, its group.instance.id (static membership): a restarted instance "
                                + "with the same id takes its jobs back at once. Default: this machine's host name "
                                + "and a hash of state.dir; an empty value turns static membership off.")
                .define(SESSION_TIMEOUT_MS, Type.LONG, 6000L, Range.atLeast(1), Importance.MEDIUM,
                        "How long the group waits for a silent (killed) instance before its jobs move to another; "
                                + "at least the broker's group.min.session.timeout.ms.")
                .define(HEARTBEAT_INTERVAL_MS, Type.LONG, 1500L, Range.atLeast(1), Importance.LOW,
                        "Heartbeat interval, at most a third of the session timeout.")
                .define(STANDBY_REPLICAS, Type.INT, 1, Range.atLeast(0), Importance.MEDIUM,
                        "Warm copies of every store kept on other instances.")
                .define(ACCEPTABLE_RECOVERY_LAG, Type.LONG, Long.MAX_VALUE, Range.atLeast(0), Importance.LOW,
                        "Changelog records an instance may lag and still get active jobs at once; a lower value "
                                + "makes a restarted instance warm up first and take its jobs back only at a probing "
                                + "rebalance.")
                .define(PROBING_REBALANCE_INTERVAL_MS, Type.LONG, 60_000L, Range.atLeast(60_000), Importance.LOW,
                        "How often instances that warm up are checked (Kafka Streams' minimum is 60000).")
                .define(TRANSACTION_TIMEOUT_MS, Type.LONG, 5000L, Range.atLeast(1), Importance.MEDIUM,
                        "transaction.timeout.ms: how long a killed instance's open transaction hides newer records "
                                + "from read_committed readers.")
                .define(SNAPSHOT_INTERVAL_MS, Type.LONG, CoordinatorConfig.DEFAULT_SNAPSHOT_INTERVAL.toMillis(),
                        Range.atLeast(0), Importance.MEDIUM,
                        "How often each journal partition's state is snapshotted to the snapshots topic, from which "
                                + "store rebuilds start instead of the journal's first record; 0 writes none (the "
                                + "journal must then keep every record).")
                .define(REQUEST_FRESHNESS_MS, Type.LONG, InputLimits.DEFAULT_REQUEST_FRESHNESS_MS,
                        Range.between(InputLimits.MIN_REQUEST_FRESHNESS_MS, InputLimits.MAX_REQUEST_FRESHNESS_MS),
                        Importance.MEDIUM,
                        "How far a request's own time (its timestampMs, covered by its signature) may be from when "
                                + "the broker appended it to the requests topic: a request further off is refused as "
                                + "stale, and one whose request id (or bytes) was taken within two such windows as "
                                + "seen, so that a copied signed request cannot be replayed (docs/security.md).");
    }

    /** The keys that say which keys sign the records of the input topics. */
    private static ConfigDef signingKeys(ConfigDef def) {
        return def
                .define(SIDECAR_MASTER_KEY_FILE, Type.STRING, null, Importance.HIGH,
                        "File holding the master key (Base64, from `cairn keys generate`) from which every job's "
                                + "sidecar key and the requests key are derived; records on the acks topic must then "
                                + "be signed with their job's key, records on the requests topic with the requests "
                                + "key (the REST API signs what it publishes).")
                .define(PREVIOUS_MASTER_KEY_FILE, Type.STRING, null, Importance.MEDIUM,
                        "During a key rotation (`cairn keys rotate`), the file of the master key being replaced: "
                                + "records signed with keys derived from it are accepted beside those of "
                                + SIDECAR_MASTER_KEY_FILE + " until " + PREVIOUS_MASTER_KEY_UNTIL + ", and until then "
                                + "the REST API signs what it publishes with its requests key, which instances not "
                                + "yet restarted accept too (docs/security.md, Rotating keys).")
                .define(PREVIOUS_MASTER_KEY_UNTIL, Type.STRING, null, Importance.MEDIUM,
                        "The end of the rotation's overlap, an ISO-8601 instant (2030-01-31T12:00:00Z); required "
                                + "with " + PREVIOUS_MASTER_KEY_FILE + ". From then on records signed with the "
                                + "previous key are dead-lettered as BAD_SIGNATURE.")
                .define(ALLOW_UNSIGNED, Type.BOOLEAN, false, Importance.HIGH,
                        "Accept unsigned TaskStarted, ack and decline records: only where nobody untrusted can "
                                + "write the acks topic.");
    }

    /**
     * The coordinator's configuration.
     *
     * @throws IllegalArgumentException naming the key, and where its value came from, of anything wrong (a
     *     {@link ConfigProblem} for a single key)
     */
    static CoordinatorConfig toConfig(LayeredConfig config) {
        Path stateDir = Path.of(config.getString(STATE_DIR));
        CairnTopics topics;
        try {
            topics = new CairnTopics(config.getString(TOPIC_PREFIX));
        } catch (IllegalArgumentException e) {
            throw config.problem(TOPIC_PREFIX, e.getMessage());
        }
        CoordinatorConfig current = new CoordinatorConfig(config.getString(BOOTSTRAP_SERVERS),
                config.getString(APPLICATION_ID),
                topics, config.getInt(PARTITIONS), replicationFactor(config), stateDir,
                Duration.ofMillis(config.getLong(TICK_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(COMMIT_INTERVAL_MS)), kafkaProperties(config),
                HttpKeys.toConfig(config), failover(config, stateDir), sidecarMasterKey(config),
                config.getBoolean(ALLOW_UNSIGNED_REQUESTS), inputLimits(config),
                config.getShort(MIN_REPLICATION_FACTOR), Duration.ofMillis(config.getLong(SNAPSHOT_INTERVAL_MS)),
                null, null);
        PreviousKey previous = previousMasterKey(config, current.sidecarMasterKey());
        return previous.key() == null ? current : current.withPreviousMasterKey(previous.key(), previous.until());
    }

    /** A previous master key and the end of its overlap; both {@code null} outside a rotation. */
    private record PreviousKey(SigningKey key, Instant until) {
    }

    /**
     * The previous master key of a rotation and the end of its overlap: both or neither must be given, the key's file
     * must hold a key other than the master key's, and the end must be an ISO-8601 instant.
     */
    private static PreviousKey previousMasterKey(LayeredConfig config, SigningKey masterKey) {
        String file = config.getString(PREVIOUS_MASTER_KEY_FILE);
        String until = config.getString(PREVIOUS_MASTER_KEY_UNTIL);
        if (file == null && until == null) {
            return new PreviousKey(null, null);
        }
        if (file == null) {
            throw config.problem(PREVIOUS_MASTER_KEY_UNTIL, "is set but " + PREVIOUS_MASTER_KEY_FILE + " is not: "
                    + "the end of an overlap belongs to a previous master key; give both (`cairn keys rotate` prints "
                    + "them) or neither");
        }
        if (masterKey == null) {
            throw config.problem(PREVIOUS_MASTER_KEY_FILE, "is set but " + SIDECAR_MASTER_KEY_FILE + " is not: a "
                    + "previous master key is accepted beside a current one; give " + SIDECAR_MASTER_KEY_FILE);
        }
        if (until == null) {
            throw new ConfigProblem(PREVIOUS_MASTER_KEY_UNTIL, config.describe(PREVIOUS_MASTER_KEY_FILE) + " is set "
                    + "but " + PREVIOUS_MASTER_KEY_UNTIL + " is missing: the previous master key is accepted only "
                    + "until the end of the rotation's overlap, an ISO-8601 instant such as 2030-01-31T12:00:00Z "
                    + "(`cairn keys rotate` prints it); " + LayeredConfig.ways(SCHEMA, PREVIOUS_MASTER_KEY_UNTIL));
        }
        Instant end;
        try {
            end = Instant.parse(until.strip());
        } catch (DateTimeParseException e) {
            throw config.problem(PREVIOUS_MASTER_KEY_UNTIL, "is not an ISO-8601 instant such as "
                    + "2030-01-31T12:00:00Z (UTC, with the Z), was '" + quoted(until) + "'");
        }
        SigningKey previous;
        try {
            previous = SigningKey.fromFile(Path.of(file));
        } catch (IllegalArgumentException e) {
            throw config.problem(PREVIOUS_MASTER_KEY_FILE, "the previous master key: " + e.getMessage());
        }
        if (previous.id().equals(masterKey.id())) {
            throw config.problem(PREVIOUS_MASTER_KEY_FILE, "holds the same key as " + SIDECAR_MASTER_KEY_FILE
                    + " (key id " + masterKey.id() + "): give the new master key as " + SIDECAR_MASTER_KEY_FILE
                    + " and the one it replaces as " + PREVIOUS_MASTER_KEY_FILE);
        }
        return new PreviousKey(previous, end);
    }

    /** At most 64 characters of {@code value}, control characters replaced. */
    private static String quoted(String value) {
        String shown = value.length() > 64 ? value.substring(0, 64) + "..." : value;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }

    /**
     * The replication factor, refused when it is below {@value #MIN_REPLICATION_FACTOR}: the topics it creates would
     * then be refused at start-up.
     */
    private static short replicationFactor(LayeredConfig config) {
        short replicas = config.getShort(REPLICATION_FACTOR);
        short minimum = config.getShort(MIN_REPLICATION_FACTOR);
        if (replicas != BROKER_DEFAULT_REPLICAS && replicas < minimum) {
            throw config.problem(REPLICATION_FACTOR, "creates topics with " + replicas + " replicas, fewer than "
                    + config.describe(MIN_REPLICATION_FACTOR) + " requires (" + minimum + "), so the coordinator "
                    + "would refuse to start on them; raise " + REPLICATION_FACTOR + " or lower "
                    + MIN_REPLICATION_FACTOR);
        }
        return replicas;
    }

    /** The default limits, with the location schemes of {@value #LOCATION_SCHEMES}. */
    private static InputLimits inputLimits(LayeredConfig config) {
        try {
            return InputLimits.DEFAULTS.withLocationSchemes(config.getList(LOCATION_SCHEMES))
                    .withRequestFreshnessMs(config.getLong(REQUEST_FRESHNESS_MS));
        } catch (IllegalArgumentException e) {
            throw config.problem(LOCATION_SCHEMES, e.getMessage());
        }
    }

    private static Map<String, String> kafkaProperties(LayeredConfig config) {
        String file = config.getString(KAFKA_CONFIG);
        if (file == null) {
            return Map.of();
        }
        Map<String, String> properties = PropertiesFile.read(Path.of(file), config.describe(KAFKA_CONFIG));
        CoordinatorConfig.refuseOverrides(properties, config.describe(KAFKA_CONFIG) + ": " + file);
        return properties;
    }

    /**
     * The master key, or {@code null} when unsigned records are explicitly allowed: without a master key there is
     * neither a job key nor a requests key, so both {@value #ALLOW_UNSIGNED} and {@value #ALLOW_UNSIGNED_REQUESTS}
     * must say so.
     */
    private static SigningKey sidecarMasterKey(LayeredConfig config) {
        String file = config.getString(SIDECAR_MASTER_KEY_FILE);
        boolean allowUnsigned = config.getBoolean(ALLOW_UNSIGNED);
        if (file != null && allowUnsigned) {
            throw config.contradiction(SIDECAR_MASTER_KEY_FILE, ALLOW_UNSIGNED);
        }
        if (file != null) {
            try {
                return SigningKey.fromFile(Path.of(file));
            } catch (IllegalArgumentException e) {
                throw config.problem(SIDECAR_MASTER_KEY_FILE, e.getMessage());
            }
        }
        boolean allowUnsignedRequests = config.getBoolean(ALLOW_UNSIGNED_REQUESTS);
        if (!allowUnsigned) {
            throw new ConfigProblem(SIDECAR_MASTER_KEY_FILE, SIDECAR_MASTER_KEY_FILE + " is missing: sidecar records "
                    + "and requests are authenticated with keys derived from a master key (make one with `cairn keys "
                    + "generate`); " + LayeredConfig.ways(SCHEMA, SIDECAR_MASTER_KEY_FILE) + ", or set both "
                    + ALLOW_UNSIGNED + " and " + ALLOW_UNSIGNED_REQUESTS + " (--allow-unsigned-sidecar-records "
                    + "--allow-unsigned-requests) to accept unsigned records on a trusted network");
        }
        if (!allowUnsignedRequests) {
            throw new ConfigProblem(ALLOW_UNSIGNED_REQUESTS, config.describe(ALLOW_UNSIGNED) + " is set without "
                    + SIDECAR_MASTER_KEY_FILE + ", so there is no requests key either and the requests topic cannot "
                    + "be authenticated: set " + ALLOW_UNSIGNED_REQUESTS + "=true too (--allow-unsigned-requests, "
                    + SCHEMA.envName(ALLOW_UNSIGNED_REQUESTS) + ") to accept unsigned requests on a trusted network, "
                    + "or give " + SIDECAR_MASTER_KEY_FILE + " instead");
        }
        return null;
    }

    private static CoordinatorConfig.Failover failover(LayeredConfig config, Path stateDir) {
        String instanceId = config.getString(INSTANCE_ID);
        return failover(config.values(), instanceId == null ? defaultInstanceId(stateDir) : instanceId);
    }

    /**
     * The failover settings of parsed values of these keys (the keys' defaults give
     * {@link CoordinatorConfig.Failover#DEFAULTS}).
     *
     * @param values values parsed by {@link #SCHEMA}'s {@code ConfigDef}
     * @param instanceId the instance id, {@code null} for dynamic membership
     */
    static CoordinatorConfig.Failover failover(Map<String, ?> values, String instanceId) {
        return new CoordinatorConfig.Failover(instanceId, millis(values, SESSION_TIMEOUT_MS),
                millis(values, HEARTBEAT_INTERVAL_MS), (Integer) values.get(STANDBY_REPLICAS),
                (Long) values.get(ACCEPTABLE_RECOVERY_LAG), millis(values, PROBING_REBALANCE_INTERVAL_MS),
                millis(values, TRANSACTION_TIMEOUT_MS));
    }

    /** The failover settings of the keys' defaults, with dynamic membership. */
    static CoordinatorConfig.Failover defaultFailover() {
        return failover(SCHEMA.def().parse(Map.of()), null);
    }

    private static Duration millis(Map<String, ?> values, String key) {
        return Duration.ofMillis((Long) values.get(key));
    }

    /**
     * This machine's host name and a hash of the absolute state directory: stable across restarts of the same
     * instance, distinct for two instances on one machine (they cannot share a state directory).
     */
    static String defaultInstanceId(Path stateDir) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        String dir = stateDir.toAbsolutePath().normalize().toString();
        return host + "-" + String.format("%08x", dir.hashCode());
    }
}
