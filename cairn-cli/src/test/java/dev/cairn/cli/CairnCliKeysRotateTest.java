package dev.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cairn keys rotate}: a new master key in a new file, and the coordinator settings and steps of the rotation,
 * with the key ids an operator matches against the records' headers; nothing is sent to Kafka.
 */
class CairnCliKeysRotateTest {

    private static final Instant NOW = Instant.ofEpochMilli(CliRun.NOW_MS);

    @TempDir
    Path dir;

    private final SigningKey old = SigningKey.generate();
    private Path oldFile;
    private Path newFile;

    @BeforeEach
    void writeTheCurrentMasterKey() throws Exception {
        oldFile = Files.writeString(dir.resolve("master.key"), old.toBase64() + "\n");
        newFile = dir.resolve("master-2.key");
    }

    @Test
    void shouldWriteANewMasterKeyReadableByItsOwnerOnlyAndPrintTheSettingsToRollOut() throws Exception {
        CliRun run = CliRun.of("keys", "rotate", "--master-key-file", oldFile.toString(), "--out", newFile.toString());

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent).isEmpty();
        SigningKey current = SigningKey.fromFile(newFile);
        assertThat(current.id()).isNotEqualTo(old.id());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(newFile))).isEqualTo("rw-------");
        Instant until = NOW.plus(Duration.ofHours(24));
        assertThat(run.out).contains("Wrote a new master key to " + newFile + " (key id " + current.id() + ")",
                "it replaces " + oldFile + " (key id " + old.id() + ")",
                "sidecar.master.key.file=" + newFile,
                "sidecar.previous.master.key.file=" + oldFile,
                "sidecar.previous.master.key.until=" + until,
                "--sidecar-master-key-file " + newFile + " --sidecar-previous-master-key-file " + oldFile
                        + " --sidecar-previous-master-key-until " + until,
                "cairn keys job --job JOB --master-key-file " + newFile,
                "new requests key (key id " + current.requestsKey().id() + ")",
                "After " + until + ", remove the two sidecar.previous.master.key.* settings")
                .doesNotContain(current.toBase64(), old.toBase64());
        assertThat(Files.readString(oldFile)).isEqualTo(old.toBase64() + "\n");
    }

    @Test
    void shouldEndTheOverlapAfterTheGivenDuration() {
        CliRun shortForm = CliRun.of("keys", "rotate", "--master-key-file", oldFile.toString(), "--out",
                newFile.toString(), "--overlap", "36h");
        CliRun iso = CliRun.of("keys", "rotate", "--master-key-file", oldFile.toString(), "--out",
                dir.resolve("master-3.key").toString(), "--overlap", "P7D");

        assertThat(shortForm.out).contains("sidecar.previous.master.key.until=" + NOW.plus(Duration.ofHours(36)));
        assertThat(iso.out).contains("sidecar.previous.master.key.until=" + NOW.plus(Duration.ofDays(7)));
    }

    @Test
    void shouldNeverOverwriteAnExistingKeyFile() throws Exception {
        Files.writeString(newFile, "existing");

        CliRun run = CliRun.of("keys", "rotate", "--master-key-file", oldFile.toString(), "--out", newFile.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("--out: cannot create").contains("it must not exist yet");
        assertThat(Files.readString(newFile)).isEqualTo("existing");
        assertThat(run.out).doesNotContain("sidecar.master.key.file=");
    }

    @Test
    void shouldWriteNothingWhenTheCurrentMasterKeyFileHoldsNoKey() throws Exception {
        Path garbage = Files.writeString(dir.resolve("garbage.key"), "not base64 !");

        CliRun run = CliRun.of("keys", "rotate", "--master-key-file", garbage.toString(), "--out", newFile.toString());

        assertThat(run.exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains("--master-key-file: the key file").contains("is not Base64");
        assertThat(newFile).doesNotExist();
    }

    @Test
    void shouldRefuseAnOverlapThatIsNotAPositiveDuration() {
        for (String overlap : new String[] {"tomorrow", "0h", "-PT1H"}) {
            CliRun run = CliRun.of("keys", "rotate", "--master-key-file", oldFile.toString(), "--out",
                    newFile.toString(), "--overlap", overlap);

            assertThat(run.exit).as(overlap).isEqualTo(CommandLine.ExitCode.USAGE);
            assertThat(run.err).as(overlap).contains("--overlap", "'" + overlap + "'");
            assertThat(newFile).as(overlap).doesNotExist();
        }
    }

    @Test
    void shouldPrintTheKeyIdOfAJobKeyAndARequestsKeyBesideTheKeyNotInIt() throws Exception {
        CliRun job = CliRun.of("keys", "job", "--job", "orders", "--master-key-file", oldFile.toString());
        CliRun requests = CliRun.of("keys", "requests", "--master-key-file", oldFile.toString());
        CliRun generated = CliRun.of("keys", "generate", "--out", newFile.toString());

        assertThat(job.out.strip()).isEqualTo(old.jobKey("orders").toBase64());
        assertThat(job.err).contains("key id " + old.jobKey("orders").id(), "cairn.sig.key-id");
        assertThat(requests.out.strip()).isEqualTo(old.requestsKey().toBase64());
        assertThat(requests.err).contains("key id " + old.requestsKey().id());
        assertThat(generated.out).contains("(key id " + SigningKey.fromFile(newFile).id() + ")");
    }
}
