package dev.cairn.cli;

import dev.cairn.auth.SigningKey;
import dev.cairn.client.rest.CairnClient;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.ConfigSchema;
import dev.cairn.config.LayeredConfig;
import dev.cairn.config.PropertiesFile;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The keys every {@code cairn} command shares, defined once ({@link #SCHEMA}: flags on every subcommand,
 * {@code CAIRN_*} environment variables, {@code --config} file, the configuration reference), and the Kafka client
 * settings they describe ({@link #clientSettings}).
 */
public final class CliKeys {

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String KAFKA_CONFIG = "kafka.config";
    public static final String SEND_TIMEOUT_MS = "send.timeout.ms";
    public static final String REQUESTS_KEY_FILE = "requests.key.file";
    public static final String UNSIGNED_REQUESTS = "unsigned.requests";
    public static final String REST_URL = "rest.url";
    public static final String TOKEN_FILE = "token.file";

    /** The environment variable of a bearer token itself, read when no {@value #TOKEN_FILE} is given. */
    public static final String REST_TOKEN_VARIABLE = "CAIRN_REST_TOKEN";

    /** Used when neither the key nor the {@code kafka.config} file names the brokers. */
    static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";

    /** The CLI's keys, its environment variables {@code CAIRN_<KEY>}. */
    public static final ConfigSchema SCHEMA = new ConfigSchema("cairn (CLI)", new ConfigDef()
            .define(BOOTSTRAP_SERVERS, Type.STRING, null, Importance.HIGH,
                    "Kafka bootstrap servers; default: bootstrap.servers of the kafka.config file, else "
                            + DEFAULT_BOOTSTRAP_SERVERS + ".")
            .define(TOPIC_PREFIX, Type.STRING, CairnTopics.defaults().prefix(), Importance.MEDIUM,
                    "Prefix of the topic names; requests go to <prefix>requests, the journal is <prefix>journal.")
            .define(KAFKA_CONFIG, Type.STRING, null, Importance.MEDIUM,
                    "Properties file passed to the Kafka clients as it is: security settings and the like. It may "
                            + "not weaken what a request needs (acks, enable.idempotence, transactional.id, the "
                            + "timeouts derived from send.timeout.ms).")
            .define(SEND_TIMEOUT_MS, Type.LONG, 30_000L, Range.between(1, Integer.MAX_VALUE), Importance.LOW,
                    "Advanced: how long to wait for the brokers' metadata and for the acknowledgement "
                            + "(max.block.ms and delivery.timeout.ms) before giving up.")
            .define(REQUESTS_KEY_FILE, Type.STRING, null, Importance.HIGH,
                    "File holding the requests key (Base64, from `cairn keys requests`) that every request is "
                            + "signed with: a coordinator with a master key takes no other unless it runs with "
                            + "allow.unsigned.requests.")
            .define(UNSIGNED_REQUESTS, Type.BOOLEAN, false, Importance.LOW,
                    "Send requests unsigned, to a coordinator that runs with allow.unsigned.requests (or without "
                            + "a master key).")
            .define(REST_URL, Type.STRING, null, Importance.MEDIUM,
                    "The base URL of the coordinator's REST API (scheme, host and port): when given, requests are "
                            + "sent to it and their outcomes read from it (no Kafka settings or requests key needed); "
                            + "cairn list, checkpoints and request read from it.")
            .define(TOKEN_FILE, Type.STRING, null, Importance.MEDIUM,
                    "File whose first line is a bearer token of the coordinator's tokens file, sent with every "
                            + "REST call; without it, the " + REST_TOKEN_VARIABLE + " variable's token, if any."),
            "CAIRN_", null);

    private CliKeys() {
    }

    /**
     * The entries of the {@code kafka.config} file, and {@code bootstrap.servers}: the key's value when given,
     * else the file's, else {@value #DEFAULT_BOOTSTRAP_SERVERS}.
     *
     * @throws IllegalArgumentException naming the key and the file when the file cannot be read
     */
    static ClientSettings clientSettings(LayeredConfig config) {
        String file = config.getString(KAFKA_CONFIG);
        Map<String, String> entries = file == null ? Map.of()
                : PropertiesFile.read(Path.of(file), config.describe(KAFKA_CONFIG));
        Map<String, Object> settings = new TreeMap<>(entries);
        String bootstrap = config.getString(BOOTSTRAP_SERVERS);
        if (bootstrap != null && !bootstrap.isBlank()) {
            settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap.strip());
        } else if (entries.getOrDefault(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "").isBlank()) {
            settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, DEFAULT_BOOTSTRAP_SERVERS);
        }
        return new ClientSettings(settings, entries, file == null ? null : config.describe(KAFKA_CONFIG) + ": " + file);
    }

    /**
     * The key requests are signed with: the {@value #REQUESTS_KEY_FILE} file's, or none when
     * {@value #UNSIGNED_REQUESTS} is set.
     *
     * @throws IllegalArgumentException naming the key (and where it came from) when neither or both are given, or
     *     the file holds no key
     */
    static Optional<SigningKey> requestsKey(LayeredConfig config) {
        String file = config.getString(REQUESTS_KEY_FILE);
        boolean unsigned = config.getBoolean(UNSIGNED_REQUESTS);
        if (file != null && unsigned) {
            throw config.contradiction(REQUESTS_KEY_FILE, UNSIGNED_REQUESTS);
        }
        if (unsigned) {
            return Optional.empty();
        }
        if (file == null) {
            throw new ConfigProblem(REQUESTS_KEY_FILE, REQUESTS_KEY_FILE + " is missing: the coordinator takes only "
                    + "requests signed with the requests key (make its file with `cairn keys requests "
                    + "--master-key-file master.key --out requests.key`); " + LayeredConfig.ways(SCHEMA,
                    REQUESTS_KEY_FILE) + ", or give " + ConfigSchema.flagName(UNSIGNED_REQUESTS) + " for a "
                    + "coordinator that runs with allow.unsigned.requests");
        }
        try {
            return Optional.of(SigningKey.fromFile(Path.of(file)));
        } catch (IllegalArgumentException e) {
            throw config.problem(REQUESTS_KEY_FILE, e.getMessage());
        }
    }

    /**
     * The REST API's root of {@value #REST_URL}, empty when not given.
     *
     * @throws IllegalArgumentException naming the key when it is not an http(s) URL
     */
    static Optional<URI> restUrl(LayeredConfig config) {
        String url = config.getString(REST_URL);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(CairnClient.baseUrl(url));
        } catch (IllegalArgumentException e) {
            throw config.problem(REST_URL, e.getMessage());
        }
    }

    /**
     * The bearer token: the first line of the {@value #TOKEN_FILE} file, else {@value #REST_TOKEN_VARIABLE} of
     * {@code environment}; {@code null} when neither is given.
     *
     * @throws IllegalArgumentException naming the key when the file cannot be read or holds no token
     */
    static String token(LayeredConfig config, Map<String, String> environment) {
        String file = config.getString(TOKEN_FILE);
        if (file == null) {
            String token = environment.get(REST_TOKEN_VARIABLE);
            return token == null || token.isBlank() ? null : token.strip();
        }
        try {
            String token = Files.readAllLines(Path.of(file)).stream().map(String::strip).filter(l -> !l.isEmpty())
                    .findFirst().orElseThrow(() -> config.problem(TOKEN_FILE, "the file " + file + " holds no token"));
            if (token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
                throw config.problem(TOKEN_FILE, "the first line of " + file + " is not a bearer token (it has "
                        + "spaces or characters outside printable ASCII)");
            }
            return token;
        } catch (IOException | InvalidPathException e) {
            throw config.problem(TOKEN_FILE, "cannot read the token file " + file + ": " + e);
        }
    }

    /**
     * What the Kafka clients of one CLI run get.
     *
     * @param settings the file's entries with {@code bootstrap.servers} resolved
     * @param file the file's entries alone, to refuse the ones that conflict with what a command needs
     * @param origin the key and the file, for messages; {@code null} without a file
     */
    record ClientSettings(Map<String, Object> settings, Map<String, String> file, String origin) {

        ClientSettings {
            settings = Map.copyOf(settings);
            file = Map.copyOf(file);
        }
    }
}
