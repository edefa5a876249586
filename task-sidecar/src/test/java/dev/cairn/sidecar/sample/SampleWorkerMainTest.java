package dev.cairn.sidecar.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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
        "--port abc               | Invalid value for option '--port'",
        "--port 70000             | --port must be between 0 and 65535, was 70000",
        "--slow-ms -5             | --slow-ms must not be negative, was -5",
        "--decline-every -1       | --decline-every must be 0 (never) or positive, was -1",
        "--finish-after -3        | --finish-after must be 0 (never) or positive, was -3",
        "--bind-address ''        | --bind-address must not be empty",
        "--colour blue            | Unknown options: '--colour', 'blue'",
    })
    void invalidFlagExitsWithUsageStatusAndAMessageNamingIt(String flags, String message) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = SampleWorkerMain.commandLine().setErr(new PrintWriter(err));
        String[] args = flags.equals("--bind-address ''") ? new String[] {"--bind-address", ""} : flags.split(" ");

        int status = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> commandLine.execute(args));

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains(message);
    }

    @Test
    void shouldExitWithAMessageAndNoStackTraceWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            StringWriter err = new StringWriter();
            CommandLine commandLine = SampleWorkerMain.commandLine().setErr(new PrintWriter(err));

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
        CommandLine commandLine = SampleWorkerMain.commandLine().setOut(new PrintWriter(out));

        assertThat(commandLine.execute("--help")).isZero();
        assertThat(out.toString()).contains("--port", "--state-dir", "--slow-ms", "--decline-every", "--bind-address",
                "--finish-after");
    }

    @Test
    void shouldAnswerFinishedOverHttpWhenItsBoundedInputIsExhausted() throws Exception {
        SampleWorkerMain main = new SampleWorkerMain();
        new CommandLine(main).parseArgs("--port", "0", "--state-dir", stateDir.toString(), "--finish-after", "2");

        try (HookServer server = main.start();
                HttpSnapshotHook hook = new HttpSnapshotHook(server.baseUrl(), Duration.ofSeconds(10))) {
            SnapshotResult first = hook.snapshot(CounterWorkerTest.request(1)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            SnapshotResult last = hook.snapshot(CounterWorkerTest.request(2)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);

            assertThat(first.finished()).isFalse();
            assertThat(last.finished()).isTrue();
            assertThat(Files.readString(Path.of(URI.create(last.location())))).isEqualTo("2\n");
        }
    }

    @Test
    void shouldConfigureTheServedWorkerWhenFlagsAreGiven() throws Exception {
        SampleWorkerMain main = new SampleWorkerMain();
        new CommandLine(main).parseArgs("--port", "0", "--state-dir", stateDir.toString(), "--decline-every", "2");

        try (HookServer server = main.start();
                HttpSnapshotHook hook = new HttpSnapshotHook(server.baseUrl(), Duration.ofSeconds(10))) {
            SnapshotResult first = hook.snapshot(CounterWorkerTest.request(1)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);

            assertThat(server.baseUrl().getHost()).isEqualTo("127.0.0.1");
            assertThat(Path.of(URI.create(first.location())))
                    .isEqualTo(stateDir.resolve("job-a").resolve("map-1").resolve("chk-1"));
            assertThat(Files.readString(Path.of(URI.create(first.location())))).isEqualTo("1\n");
            assertThat(CounterWorkerTest.declineOf(hook.snapshot(CounterWorkerTest.request(2)).toCompletableFuture())
                    .getMessage()).contains("multiple of 2");
        }
    }
}
