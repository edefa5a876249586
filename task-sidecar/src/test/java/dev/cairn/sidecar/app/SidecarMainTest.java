package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SidecarMainTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(Map<String, String> env, java.util.function.Function<SidecarConfig, Sidecar> starter,
            String... args) {
        CommandLine commandLine = SidecarMain.commandLine(new SidecarMain(env, starter));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private static Sidecar neverStarted(SidecarConfig config) {
        throw new AssertionError("should not start with " + config);
    }

    @Test
    void shouldListTheConfigOptionAndEveryKeyWhenAskedForHelp() {
        int exit = run(Map.of(), SidecarMainTest::neverStarted, "--help");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("--config", "--job-id", "job.id", "--hook-kind", "CAIRN_SIDECAR_HOOK_KIND",
                "docs/configuration.md");
    }

    @Test
    void shouldExitWithTwoNamingTheKeyWhenASettingIsInvalid() throws Exception {
        Path file = dir.resolve("sidecar.properties");
        Files.writeString(file, "bootstrap.servers=k:9092\njob.id=orders\ntask.id=sink\nsubtask.index=one\n");

        int exit = run(Map.of(), SidecarMainTest::neverStarted, "--config", file.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value one for configuration subtask.index", "(file " + file + ")");
    }

    @Test
    void shouldReadTheEnvironmentWhenNoFileIsGiven() {
        AtomicReference<SidecarConfig> seen = new AtomicReference<>();
        Map<String, String> env = Map.of("CAIRN_SIDECAR_BOOTSTRAP_SERVERS", "k:9092", "CAIRN_SIDECAR_JOB_ID", "orders",
                "CAIRN_SIDECAR_TASK_ID", "sink", "CAIRN_SIDECAR_SUBTASK_INDEX", "1");

        int exit = run(env, config -> {
            seen.set(config);
            throw new IllegalStateException("topic cairn.control does not exist");
        });

        assertThat(seen.get().jobId()).isEqualTo("orders");
        assertThat(seen.get().subtaskIndex()).isEqualTo(1);
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("could not start", "cairn.control does not exist");
    }

    @Test
    void shouldPreferTheFlagToTheFileWhenBothGiveAKey() throws Exception {
        Path file = Files.writeString(dir.resolve("sidecar.properties"),
                "bootstrap.servers=k:9092\njob.id=orders\ntask.id=sink\nsubtask.index=1\n");
        AtomicReference<SidecarConfig> seen = new AtomicReference<>();

        run(Map.of(), config -> {
            seen.set(config);
            throw new IllegalStateException("not started in this test");
        }, "--config", file.toString(), "--subtask-index", "4", "--hook-kind", "command", "--hook-command", "snap.sh");

        assertThat(seen.get().subtaskIndex()).isEqualTo(4);
        assertThat(seen.get().hookCommand()).containsExactly("snap.sh");
    }

    @Test
    void shouldExitWithTwoNamingTheFileWhenItCannotBeRead() {
        int exit = run(Map.of(), SidecarMainTest::neverStarted, "--config", dir.resolve("nope").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--config: cannot read " + dir.resolve("nope"));
    }

    @Test
    void shouldExitWithTwoWhenAnOptionIsUnknown() {
        int exit = run(Map.of(), SidecarMainTest::neverStarted, "--konfig", "x");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--konfig");
    }
}
