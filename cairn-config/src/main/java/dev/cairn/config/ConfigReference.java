package dev.cairn.config;

import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The configuration reference ({@code docs/configuration.md}), generated from the programs' {@link ConfigSchema}s:
 * one table per program, one row per key with its flag, environment variable, type, default, valid values and
 * documentation.
 */
public final class ConfigReference {

    static final String REQUIRED = "required";

    private ConfigReference() {
    }

    /** The reference of {@code schemas}, under {@code introduction}, as Markdown. */
    public static String markdown(String introduction, List<ConfigSchema> schemas) {
        StringBuilder out = new StringBuilder("# Configuration reference\n\n").append(introduction.strip())
                .append("\n");
        for (ConfigSchema schema : schemas) {
            out.append("\n## ").append(schema.program()).append("\n\n")
                    .append("Flags override environment variables (`").append(schema.envPrefix())
                    .append("<KEY>`), which override the `--config` file, which overrides the defaults.");
            if (schema.passThroughPrefix() != null) {
                out.append(" Keys starting with `").append(schema.passThroughPrefix()).append("` (environment `")
                        .append(schema.envName(schema.passThroughPrefix())).append("<SETTING>`) are passed on "
                                + "without the prefix.");
            }
            out.append("\n\n| Key | Flag | Environment | Type | Default | Valid values | Description |\n")
                    .append("|---|---|---|---|---|---|---|\n");
            for (ConfigDef.ConfigKey key : schema.def().configKeys().values()) {
                out.append("| `").append(key.name).append("` | `").append(ConfigSchema.flagName(key.name))
                        .append("` | `").append(schema.envName(key.name)).append("` | ")
                        .append(key.type.name().toLowerCase(Locale.ROOT)).append(" | ").append(cell(defaultText(key)))
                        .append(" | ").append(cell(key.validator == null ? "" : key.validator.toString()))
                        .append(" | ").append(cell(key.documentation)).append(" |\n");
            }
        }
        return out.toString();
    }

    /** The key's default, {@value #REQUIRED} when it has none, empty when it defaults to nothing. */
    static String defaultText(ConfigDef.ConfigKey key) {
        if (!key.hasDefault()) {
            return REQUIRED;
        }
        return key.defaultValue == null ? "" : ConfigDef.convertToString(key.defaultValue, key.type);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ");
    }
}
