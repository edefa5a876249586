package dev.cairn.sidecar.app;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.LayeredConfig;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.sidecar.kafka.RuntimeSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything one sidecar needs: where Kafka and Cairn's topics are, which subtask it stands beside (or which
 * coordinator-side participant of the job it runs as), how it reaches the worker, and its time limits. Read from a
 * properties file plus environment overrides with {@link #load(Path, Map)} / {@link #fromProperties(Map, Map)} (see
 * {@link SidecarKeys} for the keys), or built in code with {@link #forTask} or {@link #forParticipant} and the
 * {@code with...} methods. Every setting is checked when the config is built; a missing or invalid one is a
 * {@link ConfigProblem} naming it.
 *
 * @param bootstrapServers {@code bootstrap.servers}: Kafka's bootstrap servers
 * @param topics {@code topic.prefix}: the prefix of Cairn's topic names ({@code cairn.})
 * @param jobId {@code job.id}: the job
 * @param taskId {@code task.id}: the task this sidecar stands beside; {@code null} for a participant
 * @param subtaskIndex {@code subtask.index}: its subtask, from 0; -1 for a participant
 * @param hookKind {@code hook.kind}: java, http or command
 * @param hookClass {@code hook.class}: the Java hook's class (no-arg constructor); {@code null} uses ServiceLoader
 * @param hookUrl {@code hook.url}: the HTTP hook's base URL; {@code null} unless the kind is http
 * @param hookCommand {@code hook.command}: the command hook's program and arguments; empty unless command
 * @param hookTimeout {@code hook.timeout.ms}: how long one HTTP request or command may take
 * @param snapshotTimeout {@code snapshot.timeout.ms}: how long a snapshot may take before the sidecar declines it
 * @param startupTimeout {@code startup.timeout.ms}: how long start-up may wait for topics, restore and registration
 * @param kafkaProperties {@code kafka.*}: passed to the Kafka clients without the prefix (security settings)
 * @param authKey {@code auth.key} or {@code auth.key.file}: the job's key (from {@code cairn keys job}) that
 *     signs every record the sidecar sends; {@code null} sends unsigned records, which a coordinator with a
 *     master key dead-letters
 * @param participant {@code participant}: the name of the coordinator-side participant (Flink: master hook,
 *     operator coordinator) this sidecar runs as, instead of a task; {@code null} for a task sidecar
 * @param metricsPort {@code metrics.port}: the port of the sidecar's {@code GET /metrics} (0: any free port);
 *     {@code null} serves no metrics
 * @param metricsBindAddress {@code metrics.bind.address}: the address that port is bound to
 *     ({@value #DEFAULT_METRICS_BIND_ADDRESS}: only local scrapers reach it)
 * @param authKeyFile {@code auth.key.file}: the file {@code authKey} was read from, which the running sidecar re-reads
 *     when it changes (a new key after a key rotation signs the next record); {@code null} when the key was given
 *     inline or in code, or there is none
 * @param host {@code host}: the host the subtask's attempt names in its {@code TaskStarted}; {@code null}: the
 *     {@code HOSTNAME} environment variable, else the machine's host name
 */
public record SidecarConfig(
        String bootstrapServers,
        CairnTopics topics,
        String jobId,
        String taskId,
        int subtaskIndex,
        HookKind hookKind,
        String hookClass,
        URI hookUrl,
        List<String> hookCommand,
        Duration hookTimeout,
        Duration snapshotTimeout,
        Duration startupTimeout,
        Map<String, String> kafkaProperties,
        SigningKey authKey,
        String participant,
        Integer metricsPort,
        String metricsBindAddress,
        Path authKeyFile,
        String host) {

    /** Flink's default checkpoint timeout. */
    public static final Duration DEFAULT_SNAPSHOT_TIMEOUT = Duration.ofMinutes(10);
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofMinutes(2);
    public static final String DEFAULT_METRICS_BIND_ADDRESS = "127.0.0.1";

    public SidecarConfig {
        requireText(SidecarKeys.BOOTSTRAP_SERVERS, bootstrapServers);
        require(SidecarKeys.TOPIC_PREFIX, topics);
        requireText(SidecarKeys.JOB_ID, jobId);
        if (participant != null) {
            SidecarKeys.checkParticipant(participant);
            if (taskId != null || subtaskIndex != -1) {
                String key = taskId != null ? SidecarKeys.TASK_ID : SidecarKeys.SUBTASK_INDEX;
                throw new ConfigProblem(key, key + " must not be set for participant " + participant
                        + ": a participant sidecar stands for no task");
            }
        } else {
            requireText(SidecarKeys.TASK_ID, taskId);
            if (subtaskIndex < 0) {
                throw new ConfigProblem(SidecarKeys.SUBTASK_INDEX,
                        SidecarKeys.SUBTASK_INDEX + " must be >= 0, was " + subtaskIndex);
            }
        }
        require(SidecarKeys.HOOK_KIND, hookKind);
        hookCommand = hookCommand == null ? List.of() : List.copyOf(hookCommand);
        requirePositive(SidecarKeys.HOOK_TIMEOUT_MS, hookTimeout);
        requirePositive(SidecarKeys.SNAPSHOT_TIMEOUT_MS, snapshotTimeout);
        requirePositive(SidecarKeys.STARTUP_TIMEOUT_MS, startupTimeout);
        kafkaProperties = kafkaProperties == null ? Map.of() : Map.copyOf(kafkaProperties);
        if (hookKind == HookKind.HTTP) {
            require(SidecarKeys.HOOK_URL, hookUrl);
            SidecarKeys.checkHttpUrl(hookUrl.toString());
        }
        if (metricsPort != null) {
            SidecarKeys.checkMetricsPort(metricsPort);
        }
        if (authKeyFile != null && authKey == null) {
            throw new ConfigProblem(SidecarKeys.AUTH_KEY_FILE, SidecarKeys.AUTH_KEY_FILE + " is set without the key "
                    + "read from it");
        }
        metricsBindAddress = metricsBindAddress == null ? DEFAULT_METRICS_BIND_ADDRESS : metricsBindAddress;
        SidecarKeys.checkBindAddress(metricsBindAddress);
        if (hookKind == HookKind.COMMAND && hookCommand.isEmpty()) {
            throw new ConfigProblem(SidecarKeys.HOOK_COMMAND, SidecarKeys.HOOK_COMMAND
                    + " is missing: hook.kind=command needs the program to run and its arguments");
        }
        SidecarKeys.checkHost(host);
    }

    /**
     * A sidecar for one subtask with a Java hook and default topics and time limits.
     */
    public static SidecarConfig forTask(String bootstrapServers, String jobId, String taskId, int subtaskIndex) {
        return new SidecarConfig(bootstrapServers, CairnTopics.defaults(), jobId, taskId, subtaskIndex, HookKind.JAVA,
                null, null, List.of(), DEFAULT_SNAPSHOT_TIMEOUT, DEFAULT_SNAPSHOT_TIMEOUT, DEFAULT_STARTUP_TIMEOUT,
                Map.of(), null, null, null, DEFAULT_METRICS_BIND_ADDRESS, null, null);
    }

    /**
     * A sidecar that runs as coordinator-side participant {@code participant} of the job (no task, no
     * registration), with a Java hook and default topics and time limits.
     */
    public static SidecarConfig forParticipant(String bootstrapServers, String jobId, String participant) {
        return new SidecarConfig(bootstrapServers, CairnTopics.defaults(), jobId, null, -1, HookKind.JAVA, null, null,
                List.of(), DEFAULT_SNAPSHOT_TIMEOUT, DEFAULT_SNAPSHOT_TIMEOUT, DEFAULT_STARTUP_TIMEOUT, Map.of(), null,
                participant, null, DEFAULT_METRICS_BIND_ADDRESS, null, null);
    }

    /** Whether it runs as a coordinator-side participant rather than beside a task. */
    public boolean isParticipant() {
        return participant != null;
    }

    /** Signs every record with {@code jobKey}, the key of this sidecar's job. */
    public SidecarConfig withAuthKey(SigningKey jobKey) {
        return new SidecarConfig(bootstrapServers, topics, jobId, taskId, subtaskIndex, hookKind, hookClass, hookUrl,
                hookCommand, hookTimeout, snapshotTimeout, startupTimeout, kafkaProperties, jobKey, participant,
                metricsPort, metricsBindAddress, null, host);
    }

    /**
     * Signs every record with the key of {@code file} (from {@code cairn keys job}), re-read when the file changes.
     *
     * @throws ConfigProblem naming {@code auth.key.file} when the file cannot be read or holds no key
     */
    public SidecarConfig withAuthKeyFile(Path file) {
        SigningKey key;
        try {
            key = SigningKey.fromFile(file);
        } catch (IllegalArgumentException e) {
            throw new ConfigProblem(SidecarKeys.AUTH_KEY_FILE, SidecarKeys.AUTH_KEY_FILE + " does not hold a valid "
                    + "key: " + e.getMessage(), e);
        }
        return new SidecarConfig(bootstrapServers, topics, jobId, taskId, subtaskIndex, hookKind, hookClass, hookUrl,
                hookCommand, hookTimeout, snapshotTimeout, startupTimeout, kafkaProperties, key, participant,
                metricsPort, metricsBindAddress, file, host);
    }

    /** Reads {@code file} (a properties file, {@link SidecarKeys}) with overrides from {@code environment}. */
    public static SidecarConfig load(Path file, Map<String, String> environment) {
        return SidecarKeys.toConfig(LayeredConfig.load(SidecarKeys.SCHEMA, Map.of(), environment, file));
    }

    /** Builds a config from properties with overrides from {@code environment} (CAIRN_SIDECAR_... variables). */
    public static SidecarConfig fromProperties(Map<String, String> properties, Map<String, String> environment) {
        return SidecarKeys.toConfig(LayeredConfig.load(SidecarKeys.SCHEMA, Map.of(), environment, properties,
                "the properties"));
    }

    public SidecarConfig withTopics(CairnTopics newTopics) {
        return new SidecarConfig(bootstrapServers, newTopics, jobId, taskId, subtaskIndex, hookKind, hookClass, hookUrl,
                hookCommand, hookTimeout, snapshotTimeout, startupTimeout, kafkaProperties, authKey, participant,
                metricsPort, metricsBindAddress, authKeyFile, host);
    }

    /** What the Kafka side of the sidecar needs. */
    public RuntimeSettings runtimeSettings() {
        return new RuntimeSettings(bootstrapServers, topics, jobId, taskId, subtaskIndex, snapshotTimeout,
                startupTimeout, kafkaProperties, authKey, participant, authKeyFile, host);
    }

    private static void require(String key, Object value) {
        if (value == null) {
            throw new ConfigProblem(key, key + " is missing");
        }
    }

    private static void requireText(String key, String value) {
        if (value == null || value.isBlank()) {
            throw new ConfigProblem(key, key + " is missing"
                    + (value == null ? "" : ": it is empty"));
        }
    }

    private static void requirePositive(String key, Duration value) {
        require(key, value);
        if (value.isNegative() || value.isZero()) {
            throw new ConfigProblem(key, key + " must be positive, was " + value.toMillis() + " ms");
        }
    }
}
