package dev.cairn.sidecar.app;

import dev.cairn.events.auth.SigningKey;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Reads a {@link SidecarConfig} from properties and environment variables.
 *
 * <p>Keys: {@code bootstrap.servers}, {@code job.id}, {@code task.id}, {@code subtask.index} (required), or
 * instead of the last two {@code participant} (the name of the coordinator-side participant of the job that the
 * sidecar runs as: no task, no registration; giving it together with {@code task.id} or {@code subtask.index}
 * is an error);
 * {@code topic.prefix} ({@code cairn.}), {@code hook.kind} ({@code java}, {@code http} or {@code command};
 * {@code java}), {@code hook.class} (java: a SnapshotHook with a no-arg constructor; absent: ServiceLoader),
 * {@code hook.url} (http: an absolute http(s) URL), {@code hook.command} (command: program and arguments,
 * quotes group words), {@code hook.timeout.ms} (default: the snapshot timeout), {@code snapshot.timeout.ms}
 * (600000), {@code startup.timeout.ms} (120000), {@code auth.key} (the job's signing key in Base64, from
 * {@code cairn keys job}) or {@code auth.key.file} (a file holding it), {@code metrics.port} (serve
 * {@code GET /metrics} on this port, 0 for any free one; absent: no metrics endpoint) and
 * {@code metrics.bind.address} (the address it binds, {@code 127.0.0.1}; only with {@code metrics.port}), and any
 * {@code kafka.<client setting>}, passed to the Kafka clients without the prefix.
 *
 * <p>The environment variable {@code CAIRN_SIDECAR_<KEY>} (upper case, dots as underscores, e.g.
 * {@code CAIRN_SIDECAR_JOB_ID}, {@code CAIRN_SIDECAR_KAFKA_SECURITY_PROTOCOL}) overrides the key.
 */
public final class SidecarConfigParser {

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String JOB_ID = "job.id";
    public static final String TASK_ID = "task.id";
    public static final String SUBTASK_INDEX = "subtask.index";
    public static final String HOOK_KIND = "hook.kind";
    public static final String HOOK_CLASS = "hook.class";
    public static final String HOOK_URL = "hook.url";
    public static final String HOOK_COMMAND = "hook.command";
    public static final String HOOK_TIMEOUT_MS = "hook.timeout.ms";
    public static final String SNAPSHOT_TIMEOUT_MS = "snapshot.timeout.ms";
    public static final String STARTUP_TIMEOUT_MS = "startup.timeout.ms";
    public static final String AUTH_KEY = "auth.key";
    public static final String AUTH_KEY_FILE = "auth.key.file";
    public static final String PARTICIPANT = "participant";
    public static final String METRICS_PORT = "metrics.port";
    public static final String METRICS_BIND_ADDRESS = "metrics.bind.address";
    /** Keys with this prefix go to the Kafka clients, without it. */
    public static final String KAFKA_PREFIX = "kafka.";
    /** Environment variables with this prefix override keys. */
    public static final String ENV_PREFIX = "CAIRN_SIDECAR_";

    /** Every key apart from the {@code kafka.} ones. */
    public static final List<String> KEYS = List.of(BOOTSTRAP_SERVERS, TOPIC_PREFIX, JOB_ID, TASK_ID, SUBTASK_INDEX,
            HOOK_KIND, HOOK_CLASS, HOOK_URL, HOOK_COMMAND, HOOK_TIMEOUT_MS, SNAPSHOT_TIMEOUT_MS, STARTUP_TIMEOUT_MS,
            AUTH_KEY, AUTH_KEY_FILE, PARTICIPANT, METRICS_PORT, METRICS_BIND_ADDRESS);

    private static final String JAVA_CLASS_NAME = "[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*";

    private SidecarConfigParser() {
    }

    /** The environment variable that overrides {@code key}. */
    public static String envName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /** A setting's text and where it came from, for messages. */
    private record Value(String text, String source) {}

    static SidecarConfig load(Path file, Map<String, String> environment) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw new SidecarConfigException("config", "config file " + file + " does not exist");
        } catch (IOException | IllegalArgumentException e) {
            throw new SidecarConfigException("config", "config file " + file + " cannot be read: " + e.getMessage(), e);
        }
        Map<String, String> map = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return parse(map, "config file " + file, environment);
    }

    static SidecarConfig parse(Map<String, String> properties, String origin, Map<String, String> environment) {
        Map<String, Value> values = new HashMap<>();
        Map<String, String> kafka = new TreeMap<>();
        properties.forEach((rawKey, text) -> {
            String key = rawKey.trim();
            if (key.startsWith(KAFKA_PREFIX)) {
                kafka.put(kafkaKey(key, "in " + origin), text.trim());
            } else if (KEYS.contains(key)) {
                values.put(key, new Value(text.trim(), "in " + origin));
            } else {
                throw new SidecarConfigException(key, "unknown setting '" + key + "' in " + origin + " (known: "
                        + String.join(", ", KEYS) + ", and kafka.<client setting>)");
            }
        });
        for (String key : KEYS) {
            String variable = envName(key);
            if (environment.containsKey(variable)) {
                values.put(key, new Value(environment.get(variable).trim(), "from environment variable " + variable));
            }
        }
        String kafkaEnv = envName(KAFKA_PREFIX);
        environment.forEach((variable, text) -> {
            if (variable.startsWith(kafkaEnv)) {
                String key = KAFKA_PREFIX + variable.substring(kafkaEnv.length()).toLowerCase(Locale.ROOT)
                        .replace('_', '.');
                kafka.put(kafkaKey(key, "from environment variable " + variable), text.trim());
            }
        });
        return build(values, kafka, origin);
    }

    private static SidecarConfig build(Map<String, Value> values, Map<String, String> kafka, String origin) {
        HookKind kind = optional(values, HOOK_KIND) == null ? HookKind.JAVA : HookKind.parse(values.get(HOOK_KIND).text())
                .orElseThrow(() -> invalid(values, HOOK_KIND, "must be one of java, http, command"));
        Duration snapshotTimeout = millis(values, SNAPSHOT_TIMEOUT_MS, SidecarConfig.DEFAULT_SNAPSHOT_TIMEOUT);
        String hookClass = optional(values, HOOK_CLASS);
        if (hookClass != null && !hookClass.matches(JAVA_CLASS_NAME)) {
            throw invalid(values, HOOK_CLASS, "must be a fully qualified Java class name");
        }
        String url = optional(values, HOOK_URL);
        URI hookUrl = url == null ? null : checkHttpUrl(url, " (" + values.get(HOOK_URL).source() + ")");
        String commandLine = optional(values, HOOK_COMMAND);
        List<String> command;
        try {
            command = commandLine == null ? List.of() : CommandLineSplitter.split(commandLine);
        } catch (IllegalArgumentException e) {
            throw invalid(values, HOOK_COMMAND, "cannot be split into words: " + e.getMessage());
        }
        onlyFor(values, HOOK_CLASS, kind, HookKind.JAVA);
        onlyFor(values, HOOK_URL, kind, HookKind.HTTP);
        onlyFor(values, HOOK_COMMAND, kind, HookKind.COMMAND);
        if (kind == HookKind.HTTP && hookUrl == null) {
            throw missing(HOOK_URL, origin, " (hook.kind=http needs the worker's URL)");
        }
        if (kind == HookKind.COMMAND && command.isEmpty()) {
            throw missing(HOOK_COMMAND, origin, " (hook.kind=command needs the program to run)");
        }
        String participant = participant(values);
        return new SidecarConfig(
                required(values, BOOTSTRAP_SERVERS, origin),
                topics(values),
                required(values, JOB_ID, origin),
                participant != null ? null : required(values, TASK_ID, origin, " (or set participant to run as a "
                        + "coordinator-side participant of the job)"),
                participant != null ? -1 : subtaskIndex(values, origin),
                kind, hookClass, hookUrl, command,
                millis(values, HOOK_TIMEOUT_MS, snapshotTimeout),
                snapshotTimeout,
                millis(values, STARTUP_TIMEOUT_MS, SidecarConfig.DEFAULT_STARTUP_TIMEOUT),
                kafka,
                authKey(values),
                participant,
                metricsPort(values),
                metricsBindAddress(values));
    }

    private static Integer metricsPort(Map<String, Value> values) {
        String text = optional(values, METRICS_PORT);
        if (text == null) {
            return null;
        }
        try {
            int port = Integer.parseInt(text);
            checkMetricsPort(port, " (" + values.get(METRICS_PORT).source() + ")");
            return port;
        } catch (NumberFormatException e) {
            throw invalid(values, METRICS_PORT, "must be a port number from 0 (any free port) to 65535");
        }
    }

    private static String metricsBindAddress(Map<String, Value> values) {
        String address = optional(values, METRICS_BIND_ADDRESS);
        if (address == null) {
            return null;
        }
        if (optional(values, METRICS_PORT) == null) {
            throw new SidecarConfigException(METRICS_BIND_ADDRESS, METRICS_BIND_ADDRESS + " is set ("
                    + values.get(METRICS_BIND_ADDRESS).source() + ") but " + METRICS_PORT + " is not; set "
                    + METRICS_PORT + " to serve metrics");
        }
        checkBindAddress(address, " (" + values.get(METRICS_BIND_ADDRESS).source() + ")");
        return address;
    }

    /** A port the metrics endpoint can bind: 0 (any free one) to 65535. */
    static void checkMetricsPort(int port, String where) {
        if (port < 0 || port > 65_535) {
            throw new SidecarConfigException(METRICS_PORT, METRICS_PORT
                    + " must be a port number from 0 (any free port) to 65535, was '" + port + "'" + where);
        }
    }

    /** A host name or IP address: not blank, no white space or control characters. */
    static void checkBindAddress(String address, String where) {
        if (address.isBlank() || address.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new SidecarConfigException(METRICS_BIND_ADDRESS, METRICS_BIND_ADDRESS
                    + " must be a host name or IP address, was '" + address.replaceAll("\\p{Cntrl}", "?") + "'" + where);
        }
    }

    /** The participant's name, if set: then neither task.id nor subtask.index may be. */
    private static String participant(Map<String, Value> values) {
        String participant = optional(values, PARTICIPANT);
        if (participant == null) {
            return null;
        }
        Value value = values.get(PARTICIPANT);
        checkParticipant(participant, " (" + value.source() + ")");
        for (String key : List.of(TASK_ID, SUBTASK_INDEX)) {
            if (optional(values, key) != null) {
                throw new SidecarConfigException(key, key + " is set (" + values.get(key).source() + ") but so is "
                        + PARTICIPANT + " (" + value.source() + "): a participant sidecar stands for no task; set "
                        + PARTICIPANT + " or " + TASK_ID + " and " + SUBTASK_INDEX + ", not both");
            }
        }
        return participant;
    }

    /** A participant's name: not blank, no control characters (Cairn's keys rely on that). */
    static void checkParticipant(String name, String where) {
        if (name.isBlank() || name.chars().anyMatch(Character::isISOControl) || !name.equals(name.strip())) {
            throw new SidecarConfigException(PARTICIPANT, PARTICIPANT + " must be a name without control characters "
                    + "or surrounding white space, was '" + name.replaceAll("\\p{Cntrl}", "?") + "'" + where);
        }
    }

    private static SigningKey authKey(Map<String, Value> values) {
        String inline = optional(values, AUTH_KEY);
        String file = optional(values, AUTH_KEY_FILE);
        if (inline != null && file != null) {
            throw invalid(values, AUTH_KEY_FILE, "cannot be given together with " + AUTH_KEY + ": give one");
        }
        try {
            return inline != null ? SigningKey.fromBase64(inline) : file != null ? SigningKey.fromFile(Path.of(file)) : null;
        } catch (IllegalArgumentException e) {
            String key = inline != null ? AUTH_KEY : AUTH_KEY_FILE;
            throw new SidecarConfigException(key, key + " does not hold a valid key (" + values.get(key).source()
                    + "): " + e.getMessage());
        }
    }

    /** {@code text} as an absolute http or https URL with a host. */
    static URI checkHttpUrl(String text, String where) {
        String problem = HOOK_URL + " must be an absolute http:// or https:// URL with a host, was '" + text + "'"
                + where;
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new SidecarConfigException(HOOK_URL, problem);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new SidecarConfigException(HOOK_URL, problem + ": " + e.getMessage(), e);
        }
    }

    private static CairnTopics topics(Map<String, Value> values) {
        String prefix = optional(values, TOPIC_PREFIX);
        if (prefix == null) {
            return CairnTopics.defaults();
        }
        try {
            return new CairnTopics(prefix);
        } catch (IllegalArgumentException e) {
            throw invalid(values, TOPIC_PREFIX, "may contain only letters, digits, '.', '_' and '-'");
        }
    }

    private static int subtaskIndex(Map<String, Value> values, String origin) {
        String text = required(values, SUBTASK_INDEX, origin);
        try {
            int index = Integer.parseInt(text);
            if (index >= 0) {
                return index;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(values, SUBTASK_INDEX, "must be a whole number >= 0");
    }

    private static Duration millis(Map<String, Value> values, String key, Duration fallback) {
        String text = optional(values, key);
        if (text == null) {
            return fallback;
        }
        try {
            long millis = Long.parseLong(text);
            if (millis > 0) {
                return Duration.ofMillis(millis);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(values, key, "must be a positive number of milliseconds");
    }

    private static void onlyFor(Map<String, Value> values, String key, HookKind kind, HookKind owner) {
        if (optional(values, key) != null && kind != owner) {
            throw new SidecarConfigException(key, key + " is set (" + values.get(key).source() + ") but hook.kind is "
                    + kind.configName() + "; set hook.kind=" + owner.configName() + " to use it");
        }
    }

    private static String kafkaKey(String key, String source) {
        String clientKey = key.substring(KAFKA_PREFIX.length());
        if (clientKey.isBlank()) {
            throw new SidecarConfigException(key, "'" + key + "' " + source
                    + " names no Kafka client setting after 'kafka.'");
        }
        return clientKey;
    }

    private static String optional(Map<String, Value> values, String key) {
        Value value = values.get(key);
        return value == null || value.text().isEmpty() ? null : value.text();
    }

    private static String required(Map<String, Value> values, String key, String origin) {
        return required(values, key, origin, "");
    }

    private static String required(Map<String, Value> values, String key, String origin, String hint) {
        String text = optional(values, key);
        if (text == null) {
            throw missing(key, origin, hint);
        }
        return text;
    }

    private static SidecarConfigException missing(String key, String origin, String why) {
        return new SidecarConfigException(key, key + " is missing" + why + ": set it in " + origin
                + " or with the environment variable " + envName(key));
    }

    private static SidecarConfigException invalid(Map<String, Value> values, String key, String rule) {
        Value value = values.get(key);
        return new SidecarConfigException(key, key + " " + rule + ", was '" + value.text() + "' (" + value.source()
                + ")");
    }
}
