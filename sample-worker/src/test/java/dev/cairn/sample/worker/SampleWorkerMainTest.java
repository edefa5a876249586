package dev.cairn.sample.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cairn.config.LayeredConfig;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.http.HttpSnapshotHook;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class SampleWorkerMainTest {

    @TempDir
    Path stateDir;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "--port abc               | Invalid value abc for configuration port: Not a number of type INT (flag --port)",
        "--port 70000             | "
                + "Invalid value 70000 for configuration port: Value must be no more than 65535 (flag --port)",
        "--slow-ms -5             | "
                + "Invalid value -5 for configuration slow.ms: Value must be at least 0 (flag --slow-ms)",
        "--decline-every -1       | Invalid value -1 for configuration decline.every: Value must be at least 0",
        "--finish-after -3        | Invalid value -3 for configuration finish.after: Value must be at least 0",
        "--bind-address ''        | configuration bind.address: String must be non-empty (flag --bind-address)",
        "--colour blue            | Unknown options: '--colour', 'blue'",
    })
    void shouldExitWithUsageStatusAndAMessageNamingTheFlagWhenAFlagIsInvalid(String flags, String message) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = SampleWorkerMain.commandLine(Map.of()).setErr(new PrintWriter(err));
        String[] args = flags.equals("--bind-address ''") ? new String[] {"--bind-address", ""} : flags.split(" ");

        int status = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> commandLine.execute(args));

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains(message);
    }

    @Test
    void shouldExitWithAMessageAndNoStackTraceWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            StringWriter err = new StringWriter();
            CommandLine commandLine = SampleWorkerMain.commandLine(Map.of()).setErr(new PrintWriter(err));

            int status = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> commandLine.execute(
                    "--port", Integer.toString(taken.getLocalPort()), "--state-dir", stateDir.toString()));

            assertThat(status).isEqualTo(CommandLine.ExitCode.SOFTWARE);
            assertThat(err.toString()).contains("cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void shouldListEveryFlagWhenAskedForHelp() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = SampleWorkerMain.commandLine(Map.of()).setOut(new PrintWriter(out));

        assertThat(commandLine.execute("--help")).isZero();
        assertThat(out.toString()).contains("--port", "--state-dir", "--slow-ms", "--decline-every", "--bind-address",
                "--finish-after");
    }

    @Test
    void shouldAnswerFinishedOverHttpWhenItsBoundedInputIsExhausted() throws Exception {
        try (HookServer server = SampleWorkerMain.start(config(Map.of(),
                "--port", "0", "--state-dir", stateDir.toString(), "--finish-after", "2"), Map.of());
                HttpSnapshotHook hook = new HttpSnapshotHook(server.baseUrl(), Duration.ofSeconds(10))) {
            SnapshotResult first = hook.snapshot(CounterWorkerTest.request(stateDir, 1)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            SnapshotResult last = hook.snapshot(CounterWorkerTest.request(stateDir, 2)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);

            assertThat(first.finished()).isFalse();
            assertThat(last.finished()).isTrue();
            assertThat(Files.readString(Path.of(URI.create(last.location())))).isEqualTo("2\n");
        }
    }

    @Test
    void shouldConfigureTheServedWorkerWhenFlagsAreGiven() throws Exception {
        try (HookServer server = SampleWorkerMain.start(config(Map.of(),
                "--port", "0", "--decline-every", "2"), Map.of());
                HttpSnapshotHook hook = new HttpSnapshotHook(server.baseUrl(), Duration.ofSeconds(10))) {
            SnapshotResult first = hook.snapshot(CounterWorkerTest.request(stateDir, 1)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);

            assertThat(server.baseUrl().getHost()).isEqualTo("127.0.0.1");
            assertThat(Path.of(URI.create(first.location())))
                    .isEqualTo(stateDir.resolve("job-a").resolve("chk-1").resolve("map-1"));
            assertThat(Files.readString(Path.of(URI.create(first.location())))).isEqualTo("1\n");
            assertThat(CounterWorkerTest.declineOf(hook.snapshot(CounterWorkerTest.request(stateDir, 2))
                    .toCompletableFuture()).getMessage()).contains("multiple of 2");
        }
    }

    @Test
    void shouldReadTheEnvironmentWhenAFlagIsNotGiven() throws Exception {
        Map<String, String> environment = Map.of("CAIRN_WORKER_PORT", "0", "CAIRN_WORKER_STATE_DIR",
                stateDir.toString(), "CAIRN_WORKER_DECLINE_EVERY", "1", "CAIRN_S3_REGION", "eu-west-1");
        try (HookServer server = SampleWorkerMain.start(config(environment), environment);
                HttpSnapshotHook hook = new HttpSnapshotHook(server.baseUrl(), Duration.ofSeconds(10))) {
            assertThat(CounterWorkerTest.declineOf(hook.snapshot(CounterWorkerTest.request(stateDir, 1))
                    .toCompletableFuture()).getMessage()).contains("multiple of 1");
        }
    }

    @Test
    void shouldNameTheVariableWhenAnEnvironmentValueIsInvalid() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = SampleWorkerMain.commandLine(Map.of("CAIRN_WORKER_SLOW_MS", "soon"))
                .setErr(new PrintWriter(err));

        assertThat(commandLine.execute()).isEqualTo(2);
        assertThat(err.toString()).contains("slow.ms", "(environment variable CAIRN_WORKER_SLOW_MS)");
    }

    @Test
    void shouldNameTheVariableWhenAnS3SettingOfTheEnvironmentIsMalformed() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = SampleWorkerMain.commandLine(Map.of("CAIRN_S3_ENDPOINT", "minio:9000",
                "CAIRN_S3_PATH_STYLE_ACCESS", "true")).setErr(new PrintWriter(err));

        int status = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> commandLine.execute("--port", "0"));

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid cairn-sample-worker configuration: CAIRN_S3_ENDPOINT must be an "
                + "http:// or https:// URI with a host");
    }

    private static LayeredConfig config(Map<String, String> environment, String... flags) {
        CommandLine commandLine = SampleWorkerMain.commandLine(environment);
        commandLine.parseArgs(flags);
        return commandLine.<SampleWorkerMain>getCommand().config();
    }
}
