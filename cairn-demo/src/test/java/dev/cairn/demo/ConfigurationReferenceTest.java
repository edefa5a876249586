package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.CliKeys;
import dev.cairn.config.ConfigReference;
import dev.cairn.coordinator.app.CoordinatorKeys;
import dev.cairn.sample.worker.SampleWorkerKeys;
import dev.cairn.sidecar.app.SidecarKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} is generated from the programs' ConfigDefs; this fails when it is out of date and
 * says how to regenerate it (this module sees all three programs).
 */
class ConfigurationReferenceTest {

    static final Path REFERENCE = Path.of("..").toAbsolutePath().normalize().resolve("docs/configuration.md");
    static final String REGENERATE = "mvn -B -o -q -pl cairn-demo -am test -Dtest=ConfigurationReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dcairn.write-config-reference=true";

    private static final String INTRODUCTION = """
            Generated from the programs' Kafka `ConfigDef`s by `ConfigurationReferenceTest` (cairn-demo); do not edit \
            by hand. Regenerate with:

            ```bash
            %s
            ```

            Each key of a program is also a flag (`http.port` is `--http-port`) and an environment variable \
            (`CAIRN_HTTP_PORT`). `--config FILE` names a Java properties file of the keys: a `#` starts a comment \
            only at the start of a line. A wrong value stops the program with a message naming the key and where \
            the value came from (flag, environment variable or file); a key the file names but the program does \
            not know is ignored with a warning in the log, as Kafka's clients do.""".formatted(REGENERATE);

    @Test
    void shouldMatchTheConfigDefsWhenTheReferenceIsUpToDate() throws IOException {
        String generated = ConfigReference.markdown(INTRODUCTION,
                List.of(CoordinatorKeys.SCHEMA, CliKeys.SCHEMA, SidecarKeys.SCHEMA, SampleWorkerKeys.SCHEMA));
        if (Boolean.getBoolean("cairn.write-config-reference")) {
            Files.writeString(REFERENCE, generated);
        }

        String written = Files.exists(REFERENCE) ? Files.readString(REFERENCE) : "";
        assertThat(written).as("%s is out of date; regenerate it with: %s", REFERENCE, REGENERATE).isEqualTo(generated);
    }
}
