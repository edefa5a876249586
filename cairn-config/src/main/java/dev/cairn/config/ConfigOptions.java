package dev.cairn.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ScopeType;

/**
 * The flags of a program, generated from its {@link ConfigSchema}: one per key ({@code http.port} is
 * {@code --http-port}, a boolean key is a switch that also takes {@code =false}), plus {@code --config FILE}.
 * Values are kept as given; {@link #load} parses them with the environment and the file into a
 * {@link LayeredConfig}, so that a wrong flag is reported like a wrong environment variable.
 */
public final class ConfigOptions {

    /** The flag naming the configuration file. */
    public static final String CONFIG_FLAG = "--config";

    private final ConfigSchema schema;
    private final Map<String, String> flags = new LinkedHashMap<>();
    private Path file;

    private ConfigOptions(ConfigSchema schema) {
        this.schema = schema;
    }

    /**
     * Adds the flags of {@code schema} to {@code command}.
     *
     * @param scope {@link ScopeType#INHERIT} to offer them on every subcommand too
     */
    public static ConfigOptions addTo(CommandSpec command, ConfigSchema schema, ScopeType scope) {
        ConfigOptions options = new ConfigOptions(schema);
        command.addOption(OptionSpec.builder(CONFIG_FLAG).paramLabel("FILE").type(Path.class).scopeType(scope)
                .description("Properties file with the keys below (flags and environment variables override it).")
                .setter(setter(value -> options.file = (Path) value)).build());
        for (ConfigDef.ConfigKey key : schema.def().configKeys().values()) {
            boolean flag = key.type == ConfigDef.Type.BOOLEAN;
            OptionSpec.Builder option = OptionSpec.builder(ConfigSchema.flagName(key.name)).type(String.class)
                    .scopeType(scope).arity(flag ? "0..1" : "1").paramLabel(label(key))
                    .description(describe(schema, key))
                    .setter(setter(value -> options.flags.put(key.name, value.toString())));
            if (flag) {
                option.fallbackValue("true");
            }
            command.addOption(option.build());
        }
        return options;
    }

    /** The configuration of the flags given so far, the {@code environment} and the {@code --config} file. */
    public LayeredConfig load(Map<String, String> environment) {
        return LayeredConfig.load(schema, flags, environment, file);
    }

    private interface Sink {
        void accept(Object value);
    }

    /** Records non-null values: picocli also resets options to their initial value, null here. */
    private static ISetter setter(Sink sink) {
        return new ISetter() {
            @Override
            public <T> T set(T value) {
                if (value != null) {
                    sink.accept(value);
                }
                return null;
            }
        };
    }

    private static String label(ConfigDef.ConfigKey key) {
        return switch (key.type) {
            case INT, LONG, SHORT -> key.name.endsWith(".ms") ? "MS" : "N";
            case BOOLEAN -> "true|false";
            default -> "VALUE";
        };
    }

    private static String describe(ConfigSchema schema, ConfigDef.ConfigKey key) {
        String fallback = ConfigReference.defaultText(key);
        String text = key.documentation + " (" + schema.envName(key.name) + (fallback.isEmpty() ? ""
                : fallback.equals(ConfigReference.REQUIRED) ? "; required" : "; default " + fallback) + ")";
        return text.replace("%", "%%");
    }
}
