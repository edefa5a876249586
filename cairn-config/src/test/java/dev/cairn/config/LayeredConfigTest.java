package dev.cairn.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/** The shared configuration layers: precedence, pass-through keys, generated flags and their errors. */
class LayeredConfigTest {

    private static final ConfigSchema SCHEMA = new ConfigSchema("test", new ConfigDef()
            .define("name", Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, "A required name.")
            .define("size", Type.INT, 1, Range.atLeast(1), Importance.LOW, "A size.")
            .define("verbose", Type.BOOLEAN, false, Importance.LOW, "A switch.")
            .define("limit.ms", Type.LONG, null, OptionalValue.of(Range.atLeast(0)), Importance.LOW, "Optional."),
            "TEST_", "kafka.");

    @TempDir
    Path dir;

    @Command(name = "tool", subcommands = Sub.class)
    static final class Tool {
    }

    @Command(name = "sub")
    static final class Sub {
    }

    @Test
    void shouldPreferFlagOverEnvironmentOverFileOverDefaultWhenAKeyIsGivenSeveralTimes() throws Exception {
        Path file = Files.writeString(dir.resolve("t.properties"), "name=file\nsize=2\nlimit.ms=5\n");

        LayeredConfig config = LayeredConfig.load(SCHEMA, Map.of("name", "flag"),
                Map.of("TEST_NAME", "env", "TEST_SIZE", "3"), file);

        assertThat(config.getString("name")).isEqualTo("flag");
        assertThat(config.getInt("size")).isEqualTo(3);
        assertThat(config.getLong("limit.ms")).isEqualTo(5L);
        assertThat(config.getBoolean("verbose")).isFalse();
        assertThat(config.describe("size")).isEqualTo("size (environment variable TEST_SIZE)");
        assertThat(config.describe("limit.ms")).isEqualTo("limit.ms (file " + file + ")");
    }

    @Test
    void shouldPassPrefixedKeysOnWhenTheyComeFromTheFileOrTheEnvironment() {
        LayeredConfig config = LayeredConfig.load(SCHEMA, Map.of(), Map.of("TEST_KAFKA_SASL_MECHANISM", "PLAIN"),
                Map.of("name", "n", "kafka.security.protocol", "SSL"), "the properties");

        assertThat(config.passThrough()).containsExactlyInAnyOrderEntriesOf(
                Map.of("security.protocol", "SSL", "sasl.mechanism", "PLAIN"));
    }

    @Test
    void shouldNameTheKeyAndTheWaysToGiveItWhenARequiredKeyIsMissing() {
        assertThatThrownBy(() -> LayeredConfig.load(SCHEMA, Map.of(), Map.of(), Map.of(), "nothing"))
                .isInstanceOfSatisfying(ConfigProblem.class, e -> assertThat(e.key()).isEqualTo("name"))
                .hasMessage("name is missing: give --name, set the environment variable TEST_NAME or set name in the "
                        + "--config file");
    }

    @Test
    void shouldNameTheSourceWhenAValueIsOfTheWrongTypeOrOutOfRange() {
        assertThatThrownBy(() -> LayeredConfig.load(SCHEMA, Map.of("name", "n"), Map.of("TEST_SIZE", "big"),
                Map.of(), "nothing")).hasMessage("Invalid value big for configuration size: Not a number of type INT "
                        + "(environment variable TEST_SIZE)");
        assertThatThrownBy(() -> LayeredConfig.load(SCHEMA, Map.of(), Map.of(), Map.of("name", "n", "limit.ms", "-1"),
                "file a.properties"))
                .hasMessage("Invalid value -1 for configuration limit.ms: Value must be at least 0 "
                        + "(file a.properties)");
    }

    @Test
    void shouldIgnoreAnUnknownKeyWhenTheFileHasOne() {
        LayeredConfig config = LayeredConfig.load(SCHEMA, Map.of(), Map.of(), Map.of("name", "n", "sise", "4"),
                "file a.properties");

        assertThat(config.originals()).doesNotContainKey("sise");
        assertThat(config.getInt("size")).isEqualTo(1);
    }

    @Test
    void shouldNameTheFileWhenItIsMissingOrMalformed() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.properties"), "name=\\u12zz\n");

        assertThatThrownBy(() -> LayeredConfig.load(SCHEMA, Map.of(), Map.of(), dir.resolve("none.properties")))
                .hasMessage("--config: cannot read " + dir.resolve("none.properties") + " (it does not exist)");
        assertThatThrownBy(() -> LayeredConfig.load(SCHEMA, Map.of(), Map.of(), broken))
                .hasMessageContaining("--config: " + broken + " is not a properties file: Malformed");
    }

    @Test
    void shouldOfferEveryKeyAsAFlagOnEverySubcommandWhenTheScopeIsInherit() {
        CommandLine commandLine = new CommandLine(new Tool());
        ConfigOptions options = ConfigOptions.addTo(commandLine.getCommandSpec(), SCHEMA, ScopeType.INHERIT);

        commandLine.parseArgs("sub", "--name", "n", "--verbose", "--size=4");
        LayeredConfig config = options.load(Map.of());

        assertThat(config.getString("name")).isEqualTo("n");
        assertThat(config.getBoolean("verbose")).isTrue();
        assertThat(config.getInt("size")).isEqualTo(4);
        assertThat(config.source("size")).isEqualTo("flag --size");
    }

    @Test
    void shouldWriteOneRowPerKeyWhenGeneratingTheReference() {
        String reference = ConfigReference.markdown("Intro.", List.of(SCHEMA));

        assertThat(reference).contains("## test", "| `name` | `--name` | `TEST_NAME` | string | required |",
                "| `size` | `--size` | `TEST_SIZE` | int | 1 | [1,...] | A size. |", "`TEST_KAFKA_<SETTING>`");
    }
}
