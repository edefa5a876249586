package dev.cairn.sidecar.app;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.ConfigSchema;
import dev.cairn.config.LayeredConfig;
import dev.cairn.config.OptionalValue;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.sidecar.kafka.HostNames;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.CaseInsensitiveValidString;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/**
 * The sidecar's configuration keys, defined once ({@link #SCHEMA}: flags, {@code CAIRN_SIDECAR_*} environment
 * variables, {@code --config} file and the configuration reference come from it), the rules of their values
 * (also applied to a {@link SidecarConfig} built in code), and the {@link SidecarConfig} they describe
 * ({@link #toConfig}). Keys starting with {@code kafka.} go to the Kafka clients without the prefix.
 */
public final class SidecarKeys {

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String TOPIC_PREFIX = "topic.prefix";
    /** Whom the sidecar stands for: a subtask of the job, or a coordinator-side participant of it. */
    public static final String JOB_ID = "job.id";
    public static final String TASK_ID = "task.id";
    public static final String SUBTASK_INDEX = "subtask.index";
    public static final String PARTICIPANT = "participant";
    /** How it reaches the worker. */
    public static final String HOOK_KIND = "hook.kind";
    public static final String HOOK_CLASS = "hook.class";
    public static final String HOOK_URL = "hook.url";
    public static final String HOOK_COMMAND = "hook.command";
    public static final String HOOK_TIMEOUT_MS = "hook.timeout.ms";
    public static final String SNAPSHOT_TIMEOUT_MS = "snapshot.timeout.ms";
    public static final String STARTUP_TIMEOUT_MS = "startup.timeout.ms";
    public static final String AUTH_KEY = "auth.key";
    public static final String AUTH_KEY_FILE = "auth.key.file";
    public static final String METRICS_PORT = "metrics.port";
    public static final String METRICS_BIND_ADDRESS = "metrics.bind.address";
    /** The host the subtask's attempt announces, for the coordinator's views of pending subtasks. */
    public static final String HOST = "host";

    private static final String JAVA_CLASS_NAME = "[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*";

    /** Every key of the sidecar; environment variables {@code CAIRN_SIDECAR_<KEY>}; {@code kafka.*} passed on. */
    public static final ConfigSchema SCHEMA = new ConfigSchema("cairn-sidecar", definition(), "CAIRN_SIDECAR_",
            "kafka.");

    private SidecarKeys() {
    }

    private static ConfigDef definition() {
        return new ConfigDef()
                .define(BOOTSTRAP_SERVERS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyString(),
                        Importance.HIGH, "Kafka bootstrap servers.")
                .define(TOPIC_PREFIX, Type.STRING, CairnTopics.defaults().prefix(), Importance.MEDIUM,
                        "Prefix of Cairn's topic names.")
                .define(JOB_ID, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyString(), Importance.HIGH,
                        "The job.")
                .define(TASK_ID, Type.STRING, null, OptionalValue.of(new NonEmptyString()), Importance.HIGH,
                        "The task this sidecar stands beside; required unless participant is set.")
                .define(SUBTASK_INDEX, Type.INT, null, OptionalValue.of(Range.atLeast(0)), Importance.HIGH,
                        "Its subtask, from 0; required unless participant is set.")
                .define(PARTICIPANT, Type.STRING, null, OptionalValue.of(SidecarKeys::checkParticipant,
                        "a name without control characters"), Importance.MEDIUM,
                        "Run as this coordinator-side participant of the job (Flink: master hook, operator "
                                + "coordinator) instead of task.id and subtask.index.")
                .define(HOOK_KIND, Type.STRING, HookKind.JAVA.configName(),
                        CaseInsensitiveValidString.in("java", "http", "command"), Importance.HIGH,
                        "How the sidecar reaches its worker.")
                .define(HOOK_CLASS, Type.STRING, null, OptionalValue.of(SidecarKeys::checkClassName,
                        "a fully qualified class name"), Importance.MEDIUM,
                        "java: a SnapshotHook with a no-arg constructor; default: the one ServiceLoader finds.")
                .define(HOOK_URL, Type.STRING, null, OptionalValue.of(value -> checkHttpUrl((String) value),
                        "an http:// or https:// URL"), Importance.MEDIUM,
                        "http: the worker's base URL (POST /snapshot, /notify, /restore, /discard).")
                .define(HOOK_COMMAND, Type.STRING, null, Importance.MEDIUM,
                        "command: the program and its arguments (quotes group words).")
                .define(HOOK_TIMEOUT_MS, Type.LONG, null, OptionalValue.of(Range.atLeast(1)), Importance.LOW,
                        "Limit of one HTTP call or command run; default: snapshot.timeout.ms.")
                .define(SNAPSHOT_TIMEOUT_MS, Type.LONG, SidecarConfig.DEFAULT_SNAPSHOT_TIMEOUT.toMillis(),
                        Range.atLeast(1), Importance.MEDIUM, "A slower snapshot is declined.")
                .define(STARTUP_TIMEOUT_MS, Type.LONG, SidecarConfig.DEFAULT_STARTUP_TIMEOUT.toMillis(),
                        Range.atLeast(1), Importance.LOW, "Limit for finding the topics, restoring and registering.")
                .define(AUTH_KEY, Type.PASSWORD, null, Importance.HIGH,
                        "The job's signing key (Base64, from `cairn keys job`); without it or auth.key.file the "
                                + "sidecar sends unsigned records, which a coordinator with a master key dead-letters.")
                .define(AUTH_KEY_FILE, Type.STRING, null, Importance.HIGH, "A file holding the job's signing key; "
                        + "the sidecar re-reads it when it changes (checked at most once a second, as it sends), so "
                        + "a new key after a key rotation needs no restart. A file that became unreadable or holds no "
                        + "key keeps the key read before, with an error in the log.")
                .define(METRICS_PORT, Type.INT, null, OptionalValue.of(value -> checkMetricsPort((Integer) value),
                        "[0,...,65535]"), Importance.LOW,
                        "Serve Prometheus GET /metrics and GET /health (200 once connected and running, 503 with "
                                + "the reason otherwise) on this port (0: any free port); unset: no such endpoint.")
                .define(METRICS_BIND_ADDRESS, Type.STRING, SidecarConfig.DEFAULT_METRICS_BIND_ADDRESS,
                        OptionalValue.of(value -> checkBindAddress((String) value), "a host name or IP address"),
                        Importance.LOW, "The address metrics.port binds; only with metrics.port.")
                .define(HOST, Type.STRING, null, OptionalValue.of(value -> checkHost((String) value),
                        "a host name without white space, at most " + HostNames.MAX_LENGTH + " characters"),
                        Importance.LOW, "The host the subtask's attempt names in its TaskStarted, which the "
                                + "coordinator shows beside a subtask a pending checkpoint waits for; default: the "
                                + "HOSTNAME environment variable, else the machine's host name.");
    }

    /**
     * The sidecar's configuration.
     *
     * @throws ConfigProblem naming the key, and where its value came from, of anything missing, wrong or
     *     contradictory
     */
    static SidecarConfig toConfig(LayeredConfig config) {
        HookKind kind = HookKind.parse(config.getString(HOOK_KIND)).orElseThrow();
        onlyFor(config, HOOK_CLASS, kind, HookKind.JAVA);
        onlyFor(config, HOOK_URL, kind, HookKind.HTTP);
        onlyFor(config, HOOK_COMMAND, kind, HookKind.COMMAND);
        String url = config.getString(HOOK_URL);
        List<String> command = command(config);
        if (kind == HookKind.HTTP && url == null) {
            throw missing(HOOK_URL, " (hook.kind=http needs the worker's URL)");
        }
        if (kind == HookKind.COMMAND && command.isEmpty()) {
            throw missing(HOOK_COMMAND, " (hook.kind=command needs the program to run)");
        }
        String participant = participant(config);
        Duration snapshotTimeout = Duration.ofMillis(config.getLong(SNAPSHOT_TIMEOUT_MS));
        Long hookTimeout = config.getLong(HOOK_TIMEOUT_MS);
        SigningKey authKey = authKey(config);
        String authKeyFile = config.getString(AUTH_KEY_FILE);
        return new SidecarConfig(config.getString(BOOTSTRAP_SERVERS), topics(config), config.getString(JOB_ID),
                participant != null ? null : (String) required(config, TASK_ID),
                participant != null ? -1 : (Integer) required(config, SUBTASK_INDEX),
                kind, config.getString(HOOK_CLASS), url == null ? null : URI.create(url), command,
                hookTimeout == null ? snapshotTimeout : Duration.ofMillis(hookTimeout), snapshotTimeout,
                Duration.ofMillis(config.getLong(STARTUP_TIMEOUT_MS)), config.passThrough(), authKey,
                participant, config.getInt(METRICS_PORT), metricsBindAddress(config),
                authKeyFile == null ? null : Path.of(authKeyFile), config.getString(HOST));
    }

    private static CairnTopics topics(LayeredConfig config) {
        try {
            return new CairnTopics(config.getString(TOPIC_PREFIX));
        } catch (IllegalArgumentException e) {
            throw config.problem(TOPIC_PREFIX, e.getMessage());
        }
    }

    private static List<String> command(LayeredConfig config) {
        String commandLine = config.getString(HOOK_COMMAND);
        try {
            return commandLine == null ? List.of() : CommandLineSplitter.split(commandLine);
        } catch (IllegalArgumentException e) {
            throw config.problem(HOOK_COMMAND, "cannot be split into words: " + e.getMessage());
        }
    }

    private static void onlyFor(LayeredConfig config, String key, HookKind kind, HookKind owner) {
        if (config.given(key) && kind != owner) {
            throw config.problem(key, "is set but hook.kind is " + kind.configName() + "; set hook.kind="
                    + owner.configName() + " to use it");
        }
    }

    /** The participant's name, if set: then neither task.id nor subtask.index may be. */
    private static String participant(LayeredConfig config) {
        String participant = config.getString(PARTICIPANT);
        for (String key : List.of(TASK_ID, SUBTASK_INDEX)) {
            if (participant != null && config.given(key)) {
                throw config.problem(key, "is set but so is " + config.describe(PARTICIPANT) + ": a participant "
                        + "sidecar stands for no task; set " + PARTICIPANT + " or " + TASK_ID + " and " + SUBTASK_INDEX
                        + ", not both");
            }
        }
        return participant;
    }

    /** The value of a task sidecar's key. */
    private static Object required(LayeredConfig config, String key) {
        Object value = config.values().get(key);
        if (value == null) {
            throw missing(key, " (or set " + PARTICIPANT + " to run as a coordinator-side participant of the job)");
        }
        return value;
    }

    private static ConfigProblem missing(String key, String why) {
        return new ConfigProblem(key, key + " is missing" + why + ": " + LayeredConfig.ways(SCHEMA, key));
    }

    private static SigningKey authKey(LayeredConfig config) {
        Password inline = config.getPassword(AUTH_KEY);
        String file = config.getString(AUTH_KEY_FILE);
        if (inline != null && file != null) {
            throw config.contradiction(AUTH_KEY_FILE, AUTH_KEY);
        }
        String key = inline != null ? AUTH_KEY : AUTH_KEY_FILE;
        try {
            return inline != null ? SigningKey.fromBase64(inline.value())
                    : file != null ? SigningKey.fromFile(Path.of(file)) : null;
        } catch (IllegalArgumentException e) {
            throw config.problem(key, "does not hold a valid key: " + e.getMessage());
        }
    }

    private static String metricsBindAddress(LayeredConfig config) {
        if (config.given(METRICS_BIND_ADDRESS) && config.getInt(METRICS_PORT) == null) {
            throw config.problem(METRICS_BIND_ADDRESS, "is set but " + METRICS_PORT + " is not; set " + METRICS_PORT
                    + " to serve metrics");
        }
        return config.getString(METRICS_BIND_ADDRESS);
    }

    /** A port the metrics endpoint can bind: 0 (any free one) to 65535. */
    static void checkMetricsPort(int port) {
        if (port < 0 || port > 65_535) {
            throw new ConfigProblem(METRICS_PORT, METRICS_PORT
                    + " must be a port number from 0 (any free port) to 65535, was '" + port + "'");
        }
    }

    /** A host name or IP address: not blank, no white space or control characters. */
    static void checkBindAddress(String address) {
        if (address.isBlank()
                || address.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new ConfigProblem(METRICS_BIND_ADDRESS, METRICS_BIND_ADDRESS
                    + " must be a host name or IP address, was '" + address.replaceAll("\\p{Cntrl}", "?") + "'");
        }
    }

    /**
     * A host to announce, if set ({@code null} is fine: the machine's): not blank, no white space or control
     * characters, within the coordinator's limit.
     */
    static void checkHost(String host) {
        String problem = host == null ? null : HostNames.problem(host);
        if (problem != null) {
            throw new ConfigProblem(HOST, HOST + " must be a host name without white space or control characters, at "
                    + "most " + HostNames.MAX_LENGTH + " characters; it " + problem + ": '"
                    + HostNames.shown(host) + "'");
        }
    }

    /** A participant's name: not blank, no control characters (Cairn's keys rely on that). */
    static void checkParticipant(Object name) {
        String text = name.toString();
        if (text.isBlank() || text.chars().anyMatch(Character::isISOControl) || !text.equals(text.strip())) {
            throw new ConfigProblem(PARTICIPANT, PARTICIPANT + " must be a name without control characters "
                    + "or surrounding white space, was '" + text.replaceAll("\\p{Cntrl}", "?") + "'");
        }
    }

    private static void checkClassName(Object name) {
        if (!name.toString().matches(JAVA_CLASS_NAME)) {
            throw new ConfigProblem(HOOK_CLASS, HOOK_CLASS + " must be a fully qualified Java class name, was '"
                    + name + "'");
        }
    }

    /** {@code text} as an absolute http or https URL with a host. */
    static URI checkHttpUrl(String text) {
        String problem = HOOK_URL + " must be an absolute http:// or https:// URL with a host, was '" + text + "'";
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new ConfigProblem(HOOK_URL, problem);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new ConfigProblem(HOOK_URL, problem + ": " + e.getMessage(), e);
        }
    }
}
