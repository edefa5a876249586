package dev.cairn.sidecar.app;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** How a sidecar reaches its worker ({@code hook.kind}). */
public enum HookKind {
    /** An in-process {@link dev.cairn.sidecar.hook.SnapshotHook}: {@code hook.class} or ServiceLoader. */
    JAVA,
    /** A local HTTP endpoint: {@code hook.url}. */
    HTTP,
    /** A command run per call: {@code hook.command}. */
    COMMAND;

    /** The name used in configuration, lower case. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind named {@code value} (case-insensitive), if any. */
    public static Optional<HookKind> parse(String value) {
        return Arrays.stream(values()).filter(k -> k.configName().equalsIgnoreCase(value.trim())).findFirst();
    }
}
