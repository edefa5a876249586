package dev.cairn.config;

import java.util.Locale;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The configuration keys of one Cairn program, defined once in a Kafka {@link ConfigDef} (type, default,
 * validator, documentation), and how each key is also spelled: as a flag ({@code job.id} is {@code --job-id}) and
 * as an environment variable ({@code envPrefix} and the key upper case, dots as underscores:
 * {@code CAIRN_SIDECAR_JOB_ID}).
 *
 * @param program the program's name, for messages and the configuration reference
 * @param def the keys
 * @param envPrefix the prefix of the program's environment variables, e.g. {@code CAIRN_}
 * @param passThroughPrefix keys with this prefix (e.g. {@code kafka.}) are handed on without it instead of being
 *     checked against {@code def}; {@code null} for none
 */
public record ConfigSchema(String program, ConfigDef def, String envPrefix, String passThroughPrefix) {

    public ConfigSchema {
        Objects.requireNonNull(program, "program");
        Objects.requireNonNull(def, "def");
        Objects.requireNonNull(envPrefix, "envPrefix");
    }

    /** The environment variable of {@code key}. */
    public String envName(String key) {
        return envPrefix + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The flag of {@code key}: {@code --} and the key with dashes for dots. */
    public static String flagName(String key) {
        return "--" + key.replace('.', '-');
    }

    /** Whether {@code key} is one of the program's keys. */
    public boolean defines(String key) {
        return def.configKeys().containsKey(key);
    }

    /** The key as a pass-through setting without its prefix, {@code null} when it is none. */
    String passThroughKey(String key) {
        return passThroughPrefix != null && key.startsWith(passThroughPrefix)
                ? key.substring(passThroughPrefix.length()) : null;
    }
}
