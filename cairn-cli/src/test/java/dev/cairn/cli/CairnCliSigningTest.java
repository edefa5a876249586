package dev.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every sending command signs its request with the requests key of {@code requests.key.file}
 * ({@code --requests-key-file}, {@code CAIRN_REQUESTS_KEY_FILE}); it sends unsigned only when told to
 * ({@code --unsigned-requests}), and sends nothing when it has no key and was not told.
 */
class CairnCliSigningTest {

    @TempDir
    Path dir;

    @Test
    void shouldSignEveryKindOfRequestWithTheKeyOfTheRequestsKeyFile() {
        String[][] commands = {
            {"register", "--job", "orders", "--task", "source:1", "--interval-ms", "2000", "--timeout-ms", "10000",
                "--storage", "file:///tmp/cairn"},
            {"trigger", "--job", "orders", "--savepoint", "--target", "file:///tmp/sp-1"},
            {"stop", "--job", "orders", "--detached"},
            {"savepoint", "--job", "orders", "--detached"},
            {"status", "--job", "orders", "--status", "SUSPENDED"}};
        for (String[] command : commands) {
            CliRun run = CliRun.of(command);

            assertThat(run.exit).as(run.err).isZero();
            assertThat(run.sent).singleElement().satisfies(sent -> assertThat(sent.requestsKey())
                    .as(command[0]).map(SigningKey::toBase64).contains(CliRun.REQUESTS_KEY.toBase64()));
        }
    }

    @Test
    void shouldPreferTheFlagsKeyFileToTheEnvironmentsWhenBothAreGiven() throws Exception {
        SigningKey other = SigningKey.generate().requestsKey();
        Path file = Files.writeString(dir.resolve("requests.key"), other.toBase64() + "\n");

        CliRun run = CliRun.of("trigger", "--job", "orders", "--requests-key-file", file.toString());

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent.get(0).requestsKey()).map(SigningKey::toBase64).contains(other.toBase64());
    }

    @Test
    void shouldSendNothingAndSayWhatToSetWhenThereIsNoRequestsKey() {
        CliRun run = new CliRun().withEnvironment(Map.of()).run("trigger", "--job", "orders");

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.sent).isEmpty();
        assertThat(run.err).contains("requests.key.file is missing")
                .contains("cairn keys requests --master-key-file master.key --out requests.key")
                .contains("give --requests-key-file, set the environment variable CAIRN_REQUESTS_KEY_FILE")
                .contains("or give --unsigned-requests for a coordinator that runs with allow.unsigned.requests");
    }

    @Test
    void shouldSendUnsignedWhenUnsignedRequestsIsGiven() {
        CliRun run = new CliRun().withEnvironment(Map.of()).run("trigger", "--job", "orders", "--unsigned-requests");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent).singleElement().satisfies(sent -> assertThat(sent.requestsKey()).isEmpty());
    }

    @Test
    void shouldRefuseAKeyFileAndUnsignedRequestsTogether() {
        CliRun run = CliRun.of("trigger", "--job", "orders", "--unsigned-requests");

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.sent).isEmpty();
        assertThat(run.err).contains("requests.key.file (environment variable CAIRN_REQUESTS_KEY_FILE) and "
                + "unsigned.requests (flag --unsigned-requests) are both set: give one, not both");
    }

    @Test
    void shouldNameTheKeyFileWhenItHoldsNoKey() throws Exception {
        Path file = Files.writeString(dir.resolve("requests.key"), "c2hvcnQ=\n");

        CliRun run = CliRun.of("status", "--job", "orders", "--status", "SUSPENDED", "--requests-key-file",
                file.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.sent).isEmpty();
        assertThat(run.err).contains("requests.key.file (flag --requests-key-file): the key file " + file)
                .contains("has 5 bytes; at least 32 are needed");
    }

    @Test
    void shouldNameTheKeyFileWhenItDoesNotExist() {
        Path missing = dir.resolve("missing.key");

        CliRun run = CliRun.of("trigger", "--job", "orders", "--requests-key-file", missing.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("requests.key.file (flag --requests-key-file): cannot read the key file "
                + missing);
    }

    @Test
    void shouldNameTheVariableWhenUnsignedRequestsIsNeitherTrueNorFalse() {
        CliRun run = new CliRun().withEnvironment(Map.of("CAIRN_UNSIGNED_REQUESTS", "maybe"))
                .run("trigger", "--job", "orders");

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.sent).isEmpty();
        assertThat(run.err).contains("for configuration unsigned.requests: Expected value to be either true or false "
                + "(environment variable CAIRN_UNSIGNED_REQUESTS)");
    }
}
