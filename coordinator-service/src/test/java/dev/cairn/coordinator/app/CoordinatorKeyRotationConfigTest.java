package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A coordinator configured for a key rotation: the previous master key with the end of its overlap, both or neither,
 * each refused with a message naming the key when it is missing, malformed or unreadable.
 */
class CoordinatorKeyRotationConfigTest {

    private static final String UNTIL = "2030-01-31T12:00:00Z";

    @TempDir
    Path dir;

    private final SigningKey current = SigningKey.generate();
    private final SigningKey previous = SigningKey.generate();
    private Path currentFile;
    private Path previousFile;

    @BeforeEach
    void writeKeys() throws Exception {
        currentFile = Files.writeString(dir.resolve("master-2.key"), current.toBase64() + "\n");
        previousFile = Files.writeString(dir.resolve("master.key"), previous.toBase64() + "\n");
    }

    @Test
    void shouldAcceptThePreviousMasterKeyUntilTheGivenInstant() {
        CoordinatorConfig config = CoordinatorMainTest.parseWith(Map.of(),
                "--sidecar-master-key-file", currentFile.toString(),
                "--sidecar-previous-master-key-file", previousFile.toString(),
                "--sidecar-previous-master-key-until", UNTIL).config();

        assertThat(config.masterKeys().current().id()).isEqualTo(current.id());
        assertThat(config.masterKeys().previous().id()).isEqualTo(previous.id());
        assertThat(config.masterKeys().previousUntil()).isEqualTo(Instant.parse(UNTIL));
        assertThat(config.requestsKeys().orElseThrow().signingKeyAt(Instant.parse(UNTIL).minusSeconds(1)).id())
                .as("the REST API signs with the previous key during the overlap")
                .isEqualTo(previous.requestsKey().id());
    }

    @Test
    void shouldReadTheRotationFromTheEnvironmentToo() {
        CoordinatorConfig config = CoordinatorMainTest.parseWith(Map.of(
                "CAIRN_SIDECAR_MASTER_KEY_FILE", currentFile.toString(),
                "CAIRN_SIDECAR_PREVIOUS_MASTER_KEY_FILE", previousFile.toString(),
                "CAIRN_SIDECAR_PREVIOUS_MASTER_KEY_UNTIL", UNTIL)).config();

        assertThat(config.masterKeys().previous().id()).isEqualTo(previous.id());
    }

    @Test
    void shouldHaveNoPreviousKeyOutsideARotation() {
        CoordinatorConfig config = CoordinatorMainTest.parseWith(Map.of(),
                "--sidecar-master-key-file", currentFile.toString()).config();

        assertThat(config.masterKeys().previous()).isNull();
        assertThat(config.masterKeys().previousUntil()).isNull();
    }

    @Test
    void shouldRefuseAMalformedUntilNamingTheKeyAndTheExpectedForm() {
        CoordinatorMainTest.Result result = run("--sidecar-previous-master-key-file", previousFile.toString(),
                "--sidecar-previous-master-key-until", "tomorrow");

        assertUsage(result, "sidecar.previous.master.key.until (flag --sidecar-previous-master-key-until): is not "
                + "an ISO-8601 instant such as 2030-01-31T12:00:00Z", "was 'tomorrow'");
    }

    @Test
    void shouldRefuseAPreviousKeyWithoutUntilSayingHowToGiveIt() {
        CoordinatorMainTest.Result result = run("--sidecar-previous-master-key-file", previousFile.toString());

        assertUsage(result, "sidecar.previous.master.key.file (flag --sidecar-previous-master-key-file) is set but "
                + "sidecar.previous.master.key.until is missing", "--sidecar-previous-master-key-until",
                "CAIRN_SIDECAR_PREVIOUS_MASTER_KEY_UNTIL", "cairn keys rotate");
    }

    @Test
    void shouldRefuseAnUntilWithoutPreviousKey() {
        CoordinatorMainTest.Result result = run("--sidecar-previous-master-key-until", UNTIL);

        assertUsage(result, "sidecar.previous.master.key.until (flag --sidecar-previous-master-key-until): is set "
                + "but sidecar.previous.master.key.file is not");
    }

    @Test
    void shouldRefuseAnUnreadablePreviousKeyFileNamingTheKeyAndTheFile() {
        Path missing = dir.resolve("gone.key");

        CoordinatorMainTest.Result result = run("--sidecar-previous-master-key-file", missing.toString(),
                "--sidecar-previous-master-key-until", UNTIL);

        assertUsage(result, "sidecar.previous.master.key.file (flag --sidecar-previous-master-key-file): the "
                + "previous master key: cannot read the key file " + missing);
    }

    @Test
    void shouldRefuseAPreviousKeyFileThatHoldsNoKey() throws Exception {
        Path garbage = Files.writeString(dir.resolve("garbage.key"), "not a key at all");

        CoordinatorMainTest.Result result = run("--sidecar-previous-master-key-file", garbage.toString(),
                "--sidecar-previous-master-key-until", UNTIL);

        assertUsage(result, "sidecar.previous.master.key.file (flag --sidecar-previous-master-key-file): the "
                + "previous master key: the key file " + garbage + " holds no valid key");
    }

    @Test
    void shouldRefuseAPreviousKeyThatIsTheCurrentKey() {
        CoordinatorMainTest.Result result = CoordinatorMainTest.runWith(Map.of(), "--bootstrap-servers",
                "127.0.0.1:1", "--sidecar-master-key-file", currentFile.toString(),
                "--sidecar-previous-master-key-file", currentFile.toString(),
                "--sidecar-previous-master-key-until", UNTIL);

        assertUsage(result, "holds the same key as sidecar.master.key.file (key id " + current.id() + ")");
    }

    @Test
    void shouldRefuseAPreviousKeyWithoutACurrentOne() {
        CoordinatorMainTest.Result result = CoordinatorMainTest.runWith(Map.of(), "--bootstrap-servers",
                "127.0.0.1:1", "--allow-unsigned-sidecar-records", "--allow-unsigned-requests",
                "--sidecar-previous-master-key-file", previousFile.toString(),
                "--sidecar-previous-master-key-until", UNTIL);

        assertUsage(result, "sidecar.previous.master.key.file (flag --sidecar-previous-master-key-file): is set but "
                + "sidecar.master.key.file is not");
    }

    /** Runs the coordinator's main with a current master key and {@code rotation}; it must stop before Kafka. */
    private CoordinatorMainTest.Result run(String... rotation) {
        String[] args = new String[rotation.length + 4];
        args[0] = "--bootstrap-servers";
        args[1] = "127.0.0.1:1";
        args[2] = "--sidecar-master-key-file";
        args[3] = currentFile.toString();
        System.arraycopy(rotation, 0, args, 4, rotation.length);
        return CoordinatorMainTest.runWith(Map.of(), args);
    }

    private static void assertUsage(CoordinatorMainTest.Result result, String... messageParts) {
        assertThat(result.exit()).as(result.err()).isEqualTo(CommandLine.ExitCode.USAGE);
        for (String part : messageParts) {
            assertThat(result.err()).contains(part);
        }
    }
}
