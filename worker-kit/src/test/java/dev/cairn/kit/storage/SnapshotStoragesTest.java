package dev.cairn.kit.storage;

import static dev.cairn.kit.storage.SnapshotStorageContract.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.s3.S3ServerExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The storage picked by a location's scheme, and its S3 client made only for {@code s3://} locations. */
class SnapshotStoragesTest {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @TempDir
    Path dir;

    @Test
    void shouldPickTheStorageByTheLocationsScheme() throws IOException {
        try (SnapshotStorages storages = SnapshotStorages.of(S3Settings.fromProperties(S3.server().settings()))) {
            assertThat(storages.storageOf(dir.toUri().toString())).isInstanceOf(FileStorage.class);
            assertThat(storages.storageOf(dir.toString())).isInstanceOf(FileStorage.class);
            assertThat(storages.storageOf("FILE:/tmp/x")).isInstanceOf(FileStorage.class);
            assertThat(storages.storageOf(S3.server().location("x"))).isInstanceOf(S3Storage.class);
        }
    }

    @Test
    void shouldWriteToS3AndToFilesThroughTheSameStorage() throws IOException {
        try (SnapshotStorages storages = SnapshotStorages.of(S3Settings.fromProperties(S3.server().settings()))) {
            // when
            String onS3 = storages.resolve(S3.server().location("mixed/chk-1"), "counter");
            String inFile = storages.resolve(dir.toString(), "chk-1/counter");
            storages.write(onS3, bytes("1"));
            storages.write(inFile, bytes("2"));

            // then
            assertThat(S3.server().read("mixed/chk-1/counter")).isEqualTo(bytes("1"));
            assertThat(storages.read(inFile)).isEqualTo(bytes("2"));
            assertThat(inFile).startsWith("file:");
        }
    }

    @Test
    void shouldSayWhichSchemesAreSupportedWhenTheSchemeIsNot() {
        try (SnapshotStorages storages = SnapshotStorages.of(S3Settings.DEFAULTS)) {
            assertThatThrownBy(() -> storages.write("hdfs://namenode/checkpoints/chk-1/state", bytes("x")))
                    .isInstanceOf(IOException.class)
                    .hasMessage("the location hdfs://namenode/checkpoints/chk-1/state has the scheme hdfs: snapshots "
                            + "are kept at file: URIs, plain paths and s3://bucket/key locations");
        }
    }

    @Test
    void shouldReadTheS3SettingsOnlyAtTheFirstS3LocationWhenTheEnvironmentIsMalformed() throws IOException {
        // given an environment whose S3 settings are malformed
        try (SnapshotStorages storages = new SnapshotStorages(() -> S3Settings.fromEnvironment(
                Map.of("CAIRN_S3_PATH_STYLE_ACCESS", "maybe")), false)) {
            // when files are written, nothing is wrong
            storages.write(dir.resolve("state").toString(), bytes("x"));

            // then an s3:// location names the setting
            assertThatThrownBy(() -> storages.read(S3.server().location("x"))).isInstanceOf(IOException.class)
                    .hasMessageContaining("cannot reach " + S3.server().location("x"))
                    .hasMessageContaining("CAIRN_S3_PATH_STYLE_ACCESS must be true or false, was \"maybe\"");
        }
    }

    @Test
    void shouldRefuseS3LocationsOnceClosed() {
        // given
        SnapshotStorages storages = SnapshotStorages.of(S3Settings.fromProperties(S3.server().settings()));

        // when
        storages.close();

        // then
        assertThatThrownBy(() -> storages.read(S3.server().location("x"))).isInstanceOf(IOException.class)
                .hasMessageContaining("the storage is closed");
    }

    @Test
    void shouldStayOpenWhenTheProcessWideStorageIsClosed() throws IOException {
        // given
        SnapshotStorages defaults = SnapshotStorages.defaults();

        // when
        defaults.close();

        // then
        assertThat(SnapshotStorages.defaults()).isSameAs(defaults);
        String location = defaults.resolve(dir.toString(), "after-close");
        defaults.write(location, bytes("still open"));
        assertThat(defaults.read(location)).isEqualTo(bytes("still open"));
    }
}
