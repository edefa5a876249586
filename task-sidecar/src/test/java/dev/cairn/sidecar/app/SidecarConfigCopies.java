package dev.cairn.sidecar.app;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Copies of a {@link SidecarConfig} with one setting changed, for tests: built with the record's constructor, so
 * that they are validated as any config is. Production code reads its settings from properties instead.
 */
public final class SidecarConfigCopies {

    private SidecarConfigCopies() {
    }

    /** {@code config} waiting at most {@code timeout} for the coordinator at start. */
    public static SidecarConfig withStartupTimeout(SidecarConfig config, Duration timeout) {
        SidecarConfig c = config;
        return new SidecarConfig(c.bootstrapServers(), c.topics(), c.jobId(), c.taskId(), c.subtaskIndex(),
                c.hookKind(), c.hookClass(), c.hookUrl(), c.hookCommand(), c.hookTimeout(), c.snapshotTimeout(),
                timeout, c.kafkaProperties(), c.authKey(), c.participant(), c.metricsPort(), c.metricsBindAddress(),
                c.authKeyFile(), c.host());
    }

    /** {@code config} declining a snapshot that takes longer than {@code timeout}. */
    public static SidecarConfig withSnapshotTimeout(SidecarConfig config, Duration timeout) {
        SidecarConfig c = config;
        return new SidecarConfig(c.bootstrapServers(), c.topics(), c.jobId(), c.taskId(), c.subtaskIndex(),
                c.hookKind(), c.hookClass(), c.hookUrl(), c.hookCommand(), c.hookTimeout(), timeout,
                c.startupTimeout(), c.kafkaProperties(), c.authKey(), c.participant(), c.metricsPort(),
                c.metricsBindAddress(), c.authKeyFile(), c.host());
    }

    /** {@code config} reaching the worker at {@code url} (hook.kind=http), each request limited to {@code timeout}. */
    public static SidecarConfig withHttpHook(SidecarConfig config, URI url, Duration timeout) {
        SidecarConfig c = config;
        return new SidecarConfig(c.bootstrapServers(), c.topics(), c.jobId(), c.taskId(), c.subtaskIndex(),
                HookKind.HTTP, null, url, List.of(), timeout, c.snapshotTimeout(), c.startupTimeout(),
                c.kafkaProperties(), c.authKey(), c.participant(), c.metricsPort(), c.metricsBindAddress(),
                c.authKeyFile(), c.host());
    }

    /** {@code config} running {@code command} for each call (hook.kind=command), each limited to {@code timeout}. */
    public static SidecarConfig withCommandHook(SidecarConfig config, List<String> command, Duration timeout) {
        SidecarConfig c = config;
        return new SidecarConfig(c.bootstrapServers(), c.topics(), c.jobId(), c.taskId(), c.subtaskIndex(),
                HookKind.COMMAND, null, null, command, timeout, c.snapshotTimeout(), c.startupTimeout(),
                c.kafkaProperties(), c.authKey(), c.participant(), c.metricsPort(), c.metricsBindAddress(),
                c.authKeyFile(), c.host());
    }

    /** {@code config} instantiating {@code className} as the hook (hook.kind=java). */
    public static SidecarConfig withJavaHook(SidecarConfig config, String className) {
        SidecarConfig c = config;
        return new SidecarConfig(c.bootstrapServers(), c.topics(), c.jobId(), c.taskId(), c.subtaskIndex(),
                HookKind.JAVA, className, null, List.of(), c.hookTimeout(), c.snapshotTimeout(),
                c.startupTimeout(), c.kafkaProperties(), c.authKey(), c.participant(), c.metricsPort(),
                c.metricsBindAddress(), c.authKeyFile(), c.host());
    }

    /** {@code config} serving {@code GET /metrics} on {@code bindAddress}:{@code port} (0: any free port). */
    public static SidecarConfig withMetrics(SidecarConfig config, int port, String bindAddress) {
        SidecarConfig c = config;
        return new SidecarConfig(c.bootstrapServers(), c.topics(), c.jobId(), c.taskId(), c.subtaskIndex(),
                c.hookKind(), c.hookClass(), c.hookUrl(), c.hookCommand(), c.hookTimeout(), c.snapshotTimeout(),
                c.startupTimeout(), c.kafkaProperties(), c.authKey(), c.participant(), port, bindAddress,
                c.authKeyFile(), c.host());
    }
}
