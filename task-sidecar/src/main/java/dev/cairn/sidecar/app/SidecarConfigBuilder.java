package dev.cairn.sidecar.app;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.LayeredConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds a {@link SidecarConfig} in code, for a worker that embeds the sidecar: each method sets one key of the key
 * table ({@link SidecarKeys}), and {@link #build()} reads them as the sidecar reads a properties file, so an unset key
 * takes the table's default (topic prefix {@code cairn.}, a Java hook found by ServiceLoader, a snapshot timeout of
 * 10 minutes, ...) and every value is checked by the same rules. Nothing is checked before {@link #build()}, except
 * a key that is no sidecar key ({@link #set}) and a duration too long to count in milliseconds.
 *
 * <pre>{@code
 * SidecarConfig config = SidecarConfigBuilder.forTask("localhost:9092", "orders", "enrich", 0)
 *         .httpHook(URI.create("http://127.0.0.1:8081"))
 *         .snapshotTimeout(Duration.ofMinutes(2))
 *         .build();
 * }</pre>
 *
 * <p>Setting a key twice keeps the last value; {@code null} unsets a key. Keys that contradict each other (a task and
 * a participant, an HTTP hook's URL with {@code hook.kind=command}, {@code auth.key} and {@code auth.key.file}) are
 * refused by {@link #build()}, naming both.
 */
public final class SidecarConfigBuilder {

    /** Where a value came from, in the messages of {@link #build()}. */
    static final String ORIGIN = "SidecarConfigBuilder";

    private final Map<String, String> values = new LinkedHashMap<>();
    private SigningKey authKey;

    /** An empty builder: {@code bootstrap.servers}, {@code job.id} and a task or a participant are still needed. */
    public SidecarConfigBuilder() {
    }

    /** A builder for the sidecar of subtask {@code subtaskIndex} of task {@code taskId} of job {@code jobId}. */
    public static SidecarConfigBuilder forTask(String bootstrapServers, String jobId, String taskId, int subtaskIndex) {
        return new SidecarConfigBuilder().bootstrapServers(bootstrapServers).jobId(jobId).task(taskId, subtaskIndex);
    }

    /** A builder for the sidecar that runs as coordinator-side participant {@code participant} of job {@code jobId}. */
    public static SidecarConfigBuilder forParticipant(String bootstrapServers, String jobId, String participant) {
        return new SidecarConfigBuilder().bootstrapServers(bootstrapServers).jobId(jobId).participant(participant);
    }

    /** {@code bootstrap.servers}: Kafka's bootstrap servers (required). */
    public SidecarConfigBuilder bootstrapServers(String servers) {
        return set(SidecarKeys.BOOTSTRAP_SERVERS, servers);
    }

    /** {@code topic.prefix}: the prefix of Cairn's topic names; default {@code cairn.}. */
    public SidecarConfigBuilder topicPrefix(String prefix) {
        return set(SidecarKeys.TOPIC_PREFIX, prefix);
    }

    /** {@code job.id}: the job (required). */
    public SidecarConfigBuilder jobId(String jobId) {
        return set(SidecarKeys.JOB_ID, jobId);
    }

    /** {@code task.id} and {@code subtask.index}: the subtask the sidecar stands beside (or a participant). */
    public SidecarConfigBuilder task(String taskId, int subtaskIndex) {
        return set(SidecarKeys.TASK_ID, taskId).set(SidecarKeys.SUBTASK_INDEX, Integer.toString(subtaskIndex));
    }

    /** {@code participant}: run as this coordinator-side participant of the job instead of beside a task. */
    public SidecarConfigBuilder participant(String name) {
        return set(SidecarKeys.PARTICIPANT, name);
    }

    /** {@code hook.kind=java}: a hook in this JVM, of {@code className} ({@code null}: the one ServiceLoader finds). */
    public SidecarConfigBuilder javaHook(String className) {
        return set(SidecarKeys.HOOK_KIND, HookKind.JAVA.configName()).set(SidecarKeys.HOOK_CLASS, className);
    }

    /** {@code hook.kind=http} and {@code hook.url}: the worker's base URL (http or https, with a host). */
    public SidecarConfigBuilder httpHook(URI url) {
        return set(SidecarKeys.HOOK_KIND, HookKind.HTTP.configName())
                .set(SidecarKeys.HOOK_URL, url == null ? null : url.toString());
    }

    /** {@code hook.kind=command} and {@code hook.command}: the program and its arguments (quotes group words). */
    public SidecarConfigBuilder commandHook(String commandLine) {
        return set(SidecarKeys.HOOK_KIND, HookKind.COMMAND.configName()).set(SidecarKeys.HOOK_COMMAND, commandLine);
    }

    /** {@code hook.timeout.ms}: the limit of one HTTP call or command run; default the snapshot timeout. */
    public SidecarConfigBuilder hookTimeout(Duration timeout) {
        return set(SidecarKeys.HOOK_TIMEOUT_MS, millis(SidecarKeys.HOOK_TIMEOUT_MS, timeout));
    }

    /** {@code snapshot.timeout.ms}: a slower snapshot is declined; default 10 minutes. */
    public SidecarConfigBuilder snapshotTimeout(Duration timeout) {
        return set(SidecarKeys.SNAPSHOT_TIMEOUT_MS, millis(SidecarKeys.SNAPSHOT_TIMEOUT_MS, timeout));
    }

    /** {@code startup.timeout.ms}: the limit for finding the topics, restoring and registering; default 2 minutes. */
    public SidecarConfigBuilder startupTimeout(Duration timeout) {
        return set(SidecarKeys.STARTUP_TIMEOUT_MS, millis(SidecarKeys.STARTUP_TIMEOUT_MS, timeout));
    }

    /** {@code kafka.<setting>}: a setting of the Kafka clients (security, say), e.g. {@code security.protocol}. */
    public SidecarConfigBuilder kafka(String setting, String value) {
        return set(SidecarKeys.SCHEMA.passThroughPrefix() + setting, value);
    }

    /** Signs every record with {@code jobKey}, the key of the job (from {@code cairn keys job}). */
    public SidecarConfigBuilder authKey(SigningKey jobKey) {
        this.authKey = jobKey;
        return this;
    }

    /** {@code auth.key.file}: signs with the key of this file, re-read when it changes. */
    public SidecarConfigBuilder authKeyFile(Path file) {
        return set(SidecarKeys.AUTH_KEY_FILE, file == null ? null : file.toString());
    }

    /** {@code metrics.port}: serve Prometheus {@code GET /metrics} on it (0: any free port); unset: no endpoint. */
    public SidecarConfigBuilder metricsPort(int port) {
        return set(SidecarKeys.METRICS_PORT, Integer.toString(port));
    }

    /** {@code metrics.bind.address}: the address the metrics port binds; default {@code 127.0.0.1}. */
    public SidecarConfigBuilder metricsBindAddress(String address) {
        return set(SidecarKeys.METRICS_BIND_ADDRESS, address);
    }

    /**
     * Sets any key of the table as its text, as a properties file would ({@code null} unsets it).
     *
     * @throws ConfigProblem when {@code key} is no key of the sidecar
     */
    public SidecarConfigBuilder set(String key, String value) {
        String prefix = SidecarKeys.SCHEMA.passThroughPrefix();
        if (key == null || !(SidecarKeys.SCHEMA.defines(key) || key.startsWith(prefix))) {
            throw new ConfigProblem(String.valueOf(key), "'" + key + "' is no key of the sidecar: its keys are "
                    + SidecarKeys.SCHEMA.def().names() + ", and " + prefix + "* for the Kafka clients");
        }
        if (value == null) {
            values.remove(key);
        } else {
            values.put(key, value);
        }
        return this;
    }

    /**
     * The config: the keys set, and the table's defaults for the others.
     *
     * @throws ConfigProblem naming the key of anything missing, malformed, invalid or contradictory
     */
    public SidecarConfig build() {
        requireSet(SidecarKeys.BOOTSTRAP_SERVERS, "bootstrapServers(...)");
        requireSet(SidecarKeys.JOB_ID, "jobId(...)");
        if (!values.containsKey(SidecarKeys.PARTICIPANT)) {
            requireSet(SidecarKeys.TASK_ID, "task(taskId, subtaskIndex) or participant(name)");
        }
        if (authKey != null && (values.containsKey(SidecarKeys.AUTH_KEY_FILE)
                || values.containsKey(SidecarKeys.AUTH_KEY))) {
            String other = values.containsKey(SidecarKeys.AUTH_KEY) ? SidecarKeys.AUTH_KEY
                    : SidecarKeys.AUTH_KEY_FILE;
            throw new ConfigProblem(other, "authKey(...) and " + other + " (" + ORIGIN + ") are both set: give one, "
                    + "not both");
        }
        SidecarConfig config = SidecarKeys.toConfig(LayeredConfig.load(SidecarKeys.SCHEMA, Map.of(), Map.of(), values,
                ORIGIN));
        return authKey == null ? config : config.withAuthKey(authKey);
    }

    private static String millis(String key, Duration timeout) {
        try {
            return timeout == null ? null : Long.toString(timeout.toMillis());
        } catch (ArithmeticException e) {
            throw new ConfigProblem(key, key + " must be a number of milliseconds, was " + timeout, e);
        }
    }

    /** A required key, or one of task and participant, that nothing set: named with the method that sets it. */
    private void requireSet(String key, String method) {
        if (!values.containsKey(key)) {
            throw new ConfigProblem(key, key + " is missing: call " + method + " on the " + ORIGIN);
        }
    }
}
