package dev.cairn.sidecar.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the API an embedding worker depends on small: its resolved runtime dependencies (listed by the build in
 * {@code target/runtime-dependencies.txt}) and its sources name no logging backend, no command-line library and no
 * Kafka client, and its types work without them.
 */
class ApiDependenciesTest {

    private static final List<String> ALLOWED_IMPORTS = List.of("java.", "org.slf4j.", "dev.cairn.events.",
            "dev.cairn.sidecar.hook.");

    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?([\\w.]+)[\\w.*]*;");

    @Test
    void shouldResolveNoLoggingBackendCommandLineLibraryOrKafkaWhenAWorkerDependsOnTheApi() throws IOException {
        List<String> artifacts = Files.readAllLines(Path.of("target/runtime-dependencies.txt")).stream()
                .map(String::trim).filter(line -> line.matches("[\\w.-]+:[\\w.-]+:.*")).toList();

        assertThat(artifacts).as("the API's runtime dependencies")
                .anyMatch(a -> a.startsWith("dev.cairn:cairn-schemas:"))
                .anyMatch(a -> a.startsWith("org.slf4j:slf4j-api:"))
                .noneMatch(a -> a.startsWith("ch.qos.logback:"))
                .noneMatch(a -> a.startsWith("info.picocli:"))
                .noneMatch(a -> a.startsWith("org.apache.kafka:"))
                .noneMatch(a -> a.startsWith("org.slf4j:slf4j-simple:"));
    }

    @Test
    void shouldImportOnlyJavaSlf4jAndTheEventContractWhenStatingTheHookContract() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            List<Path> sources = files.filter(f -> f.toString().endsWith(".java")).toList();
            assertThat(sources).as("the API's sources").hasSizeGreaterThan(10);
            for (Path source : sources) {
                String code = Files.readString(source);
                Matcher imported = IMPORT.matcher(code);
                while (imported.find()) {
                    String name = imported.group(1);
                    assertThat(ALLOWED_IMPORTS).as("%s imports %s", source, name).anyMatch(name::startsWith);
                }
                assertThat(code).as("%s", source).doesNotContain("org.apache.kafka", "ch.qos.logback", "picocli");
            }
        }
    }

    @Test
    void shouldWorkWithoutTheKafkaClientWhenAWorkerBuildsAndReadsHookTypes() {
        assertThatThrownBy(() -> Class.forName("org.apache.kafka.common.serialization.Serde"))
                .as("the Kafka client is off the API's class path").isInstanceOf(ClassNotFoundException.class);

        SnapshotRequest request = SnapshotRequest.forTask(4, 10, CheckpointType.CHECKPOINT, "file:///c/4", "job",
                "task", 1, CheckpointOptions.DEFAULTS).withLatestCompletedId(3);
        SnapshotResult result = SnapshotResult.of("file:///c/4/t-1", 12).withKeyGroups(
                KeyGroupRange.forSubtask(128, 4, request.subtaskIndex()));
        DiscardedState discarded = DiscardedState.ofCheckpoint(2, "file:///c/2/t-1", 9, false, DiscardReason.SUBSUMED,
                "subsumed by 3");

        assertThat(request.options().synchronous()).isFalse();
        assertThat(result.keyGroups()).isEqualTo(new KeyGroupRange(32, 63));
        assertThat(discarded.cause()).isEqualTo("SUBSUMED");
        assertThat(Optional.of(new RestorePoint(3, "file:///c/3/t-1", 9)).map(RestorePoint::states).orElseThrow())
                .hasSize(1);
    }

    @Test
    void shouldCarryTheLicenseWhenBuilt() throws IOException, URISyntaxException {
        Path classes = Path.of(SnapshotHook.class.getProtectionDomain().getCodeSource().getLocation().toURI());

        assertThat(classes.resolve("META-INF/LICENSE")).content()
                .contains("Apache License", "Version 2.0, January 2004");
        assertThat(classes.resolve("META-INF/NOTICE")).content().contains("Cairn maintainers");
    }
}
