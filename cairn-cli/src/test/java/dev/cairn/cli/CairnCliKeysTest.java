package dev.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cairn keys}: the master key, the keys of each job's sidecars and the requests key; nothing is sent to Kafka.
 */
class CairnCliKeysTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteANewMasterKeyReadableByItsOwnerOnly() throws Exception {
        Path file = dir.resolve("master.key");

        CliRun run = CliRun.of("keys", "generate", "--out", file.toString());

        assertThat(run.exit).isZero();
        assertThat(run.sent).isEmpty();
        assertThat(run.out).contains("Wrote a new master key to " + file);
        assertThat(SigningKey.fromFile(file).toBase64()).hasSize(44);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void shouldNeverOverwriteAnExistingKeyFile() throws Exception {
        Path file = Files.writeString(dir.resolve("master.key"), "existing");

        CliRun run = CliRun.of("keys", "generate", "--out", file.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("--out: cannot create").contains("it must not exist yet");
        assertThat(Files.readString(file)).isEqualTo("existing");
    }

    @Test
    void shouldPrintTheJobKeyTheCoordinatorDerives() throws Exception {
        SigningKey master = SigningKey.generate();
        Path file = Files.writeString(dir.resolve("master.key"), master.toBase64());

        CliRun run = CliRun.of("keys", "job", "--job", "orders", "--master-key-file", file.toString());

        assertThat(run.exit).isZero();
        assertThat(run.out.strip()).isEqualTo(master.jobKey("orders").toBase64())
                .isNotEqualTo(master.jobKey("payments").toBase64());
    }

    @Test
    void shouldNameAMasterKeyFileThatHoldsNoKey() throws Exception {
        Path file = Files.writeString(dir.resolve("master.key"), "not base64 !");

        CliRun run = CliRun.of("keys", "job", "--job", "orders", "--master-key-file", file.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("--master-key-file: the key file").contains("is not Base64");
    }

    @Test
    void shouldPrintTheRequestsKeyTheCoordinatorDerives() throws Exception {
        SigningKey master = SigningKey.generate();
        Path file = Files.writeString(dir.resolve("master.key"), master.toBase64());

        CliRun run = CliRun.of("keys", "requests", "--master-key-file", file.toString());

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent).isEmpty();
        assertThat(run.out.strip()).isEqualTo(master.requestsKey().toBase64())
                .isNotEqualTo(master.toBase64());
    }

    @Test
    void shouldWriteTheRequestsKeyToANewFileReadableByItsOwnerOnly() throws Exception {
        SigningKey master = SigningKey.generate();
        Path masterFile = Files.writeString(dir.resolve("master.key"), master.toBase64());
        Path out = dir.resolve("requests.key");

        CliRun run = CliRun.of("keys", "requests", "--master-key-file", masterFile.toString(), "--out", out.toString());

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.out).contains("Wrote the requests key to " + out)
                .doesNotContain(master.requestsKey().toBase64());
        assertThat(SigningKey.fromFile(out).toBase64()).isEqualTo(master.requestsKey().toBase64());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-------");
    }

    @Test
    void shouldNeverOverwriteAnExistingRequestsKeyFile() throws Exception {
        Path masterFile = Files.writeString(dir.resolve("master.key"), SigningKey.generate().toBase64());
        Path out = Files.writeString(dir.resolve("requests.key"), "existing");

        CliRun run = CliRun.of("keys", "requests", "--master-key-file", masterFile.toString(), "--out", out.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("--out: cannot create").contains("it must not exist yet");
        assertThat(Files.readString(out)).isEqualTo("existing");
    }

    @Test
    void shouldNameAMasterKeyFileTooShortForTheRequestsKey() throws Exception {
        Path file = Files.writeString(dir.resolve("master.key"), "c2hvcnQ=");

        CliRun run = CliRun.of("keys", "requests", "--master-key-file", file.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("--master-key-file: the key file").contains("has 5 bytes; at least 32 are needed");
    }
}
