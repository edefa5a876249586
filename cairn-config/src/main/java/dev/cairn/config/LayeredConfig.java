package dev.cairn.config;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A program's configuration read in layers, each overriding the next: flags, environment variables, the
 * configuration file, the defaults of its {@link ConfigSchema}. Every value is parsed and validated by the
 * schema's {@link ConfigDef} before it is accepted, and a wrong one is a {@link ConfigProblem} naming the key
 * and where the value came from. Keys a file names but the schema does not define are ignored with a warning,
 * as Kafka's own clients do; environment variables the schema does not define are not looked at (other programs
 * share the {@code CAIRN_} prefix).
 *
 * <p>The typed values are read with {@link AbstractConfig}'s getters ({@code getInt}, {@code getString}, ...).
 */
public final class LayeredConfig extends AbstractConfig {

    private static final Logger LOG = LoggerFactory.getLogger(LayeredConfig.class);

    private final Map<String, String> sources;
    private final Map<String, String> passThrough;

    private LayeredConfig(ConfigSchema schema, Map<String, Object> values, Map<String, String> sources,
            Map<String, String> passThrough) {
        super(schema.def(), values, false);
        this.sources = Map.copyOf(sources);
        this.passThrough = Map.copyOf(passThrough);
    }

    /**
     * Reads the layers.
     *
     * @param flags values given as flags, by key
     * @param environment the process's environment
     * @param file the configuration file, {@code null} for none
     * @throws ConfigProblem for an unreadable file, a malformed or invalid value, or a missing required key
     */
    public static LayeredConfig load(ConfigSchema schema, Map<String, String> flags, Map<String, String> environment,
            Path file) {
        Map<String, String> entries = file == null ? Map.of() : PropertiesFile.read(file, ConfigOptions.CONFIG_FLAG);
        return load(schema, flags, environment, entries, file == null ? null : "file " + file);
    }

    /**
     * Reads the layers, the file's entries already read.
     *
     * @param entries the entries of the configuration file (or of properties built in code)
     * @param origin where the entries come from, for messages, e.g. {@code file sidecar.properties}
     */
    public static LayeredConfig load(ConfigSchema schema, Map<String, String> flags, Map<String, String> environment,
            Map<String, String> entries, String origin) {
        Map<String, String> values = new TreeMap<>();
        Map<String, String> sources = new TreeMap<>();
        Map<String, String> passThrough = new TreeMap<>();
        entries.forEach((rawKey, rawValue) -> {
            String key = rawKey.trim();
            String value = rawValue.trim();
            if (schema.passThroughKey(key) != null) {
                passThrough.put(passThroughKey(schema, key, origin), value);
            } else if (schema.defines(key)) {
                values.put(key, value);
                sources.put(key, origin);
            } else {
                LOG.warn("{}: the configuration '{}' in {} isn't a known config; it is ignored", schema.program(),
                        key, origin);
            }
        });
        readEnvironment(schema, environment, values, sources, passThrough);
        flags.forEach((key, value) -> {
            values.put(key, value);
            sources.put(key, "flag " + ConfigSchema.flagName(key));
        });
        Map<String, Object> checked = check(schema, values, sources);
        return new LayeredConfig(schema, checked, sources, passThrough);
    }

    private static void readEnvironment(ConfigSchema schema, Map<String, String> environment,
            Map<String, String> values, Map<String, String> sources, Map<String, String> passThrough) {
        for (String key : schema.def().names()) {
            String variable = schema.envName(key);
            if (environment.containsKey(variable)) {
                values.put(key, environment.get(variable).trim());
                sources.put(key, "environment variable " + variable);
            }
        }
        if (schema.passThroughPrefix() == null) {
            return;
        }
        String prefix = schema.envName(schema.passThroughPrefix());
        environment.forEach((variable, value) -> {
            if (variable.startsWith(prefix)) {
                String key = schema.passThroughPrefix()
                        + variable.substring(prefix.length()).toLowerCase(Locale.ROOT).replace('_', '.');
                passThrough.put(passThroughKey(schema, key, "environment variable " + variable), value.trim());
            }
        });
    }

    private static String passThroughKey(ConfigSchema schema, String key, String source) {
        String stripped = schema.passThroughKey(key);
        if (stripped.isBlank()) {
            throw new ConfigProblem(key, "'" + key + "' (" + source + ") names no setting after '"
                    + schema.passThroughPrefix() + "'");
        }
        return stripped;
    }

    /** Parses and validates every given value, naming its source in any error; then checks required keys. */
    private static Map<String, Object> check(ConfigSchema schema, Map<String, String> values,
            Map<String, String> sources) {
        Map<String, Object> checked = new TreeMap<>();
        values.forEach((key, text) -> {
            ConfigDef.ConfigKey definition = schema.def().configKeys().get(key);
            try {
                Object value = ConfigDef.parseType(key, text, definition.type);
                if (definition.validator != null) {
                    definition.validator.ensureValid(key, value);
                }
                checked.put(key, value);
            } catch (ConfigException e) {
                throw new ConfigProblem(key, e.getMessage() + " (" + sources.get(key) + ")", e);
            }
        });
        for (ConfigDef.ConfigKey definition : schema.def().configKeys().values()) {
            if (!definition.hasDefault() && !checked.containsKey(definition.name)) {
                throw new ConfigProblem(definition.name, definition.name + " is missing: " + ways(schema,
                        definition.name));
            }
        }
        return checked;
    }

    /** How {@code key} can be given, for messages about a missing value. */
    public static String ways(ConfigSchema schema, String key) {
        return "give " + ConfigSchema.flagName(key) + ", set the environment variable " + schema.envName(key)
                + " or set " + key + " in the --config file";
    }

    /** The key and where its value came from, e.g. {@code http.port (flag --http-port)}; the key when unset. */
    public String describe(String key) {
        String source = sources.get(key);
        return source == null ? key : key + " (" + source + ")";
    }

    /** Where {@code key}'s value came from, {@code null} for its default. */
    public String source(String key) {
        return sources.get(key);
    }

    /** Whether {@code key} was given (by flag, environment or file) rather than defaulted. */
    public boolean given(String key) {
        return sources.containsKey(key);
    }

    /** The settings with the schema's pass-through prefix, without it (e.g. Kafka client settings). */
    public Map<String, String> passThrough() {
        return passThrough;
    }

    /** A problem about {@code key}: "{@code <key> (<where its value came from>): <message>}". */
    public ConfigProblem problem(String key, String message) {
        return new ConfigProblem(key, describe(key) + ": " + message);
    }

    /** A problem about two keys that may not be given together. */
    public ConfigProblem contradiction(String key, String other) {
        return new ConfigProblem(key, describe(key) + " and " + describe(other) + " are both set: give one, not both");
    }
}
