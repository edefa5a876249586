package dev.cairn.kit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshots in local files: the storage contract, and what is particular to files (paths, temporary files). */
class FileStorageTest extends SnapshotStorageContract {

    private final FileStorage storage = new FileStorage();

    @TempDir
    Path dir;

    @Override
    SnapshotStorage storage() {
        return storage;
    }

    @Override
    String directory() {
        return dir.resolve("checkpoints").toUri().toString();
    }

    @Override
    void overwriteBehindTheStorage(String location, byte[] bytes) throws IOException {
        Files.write(FileStorage.path(location), bytes);
    }

    @Test
    void shouldLeaveNothingButTheFileWhenWritten() throws IOException {
        // given
        Path file = dir.resolve("job").resolve("chk-1").resolve("source-orders-0.state");

        // when
        storage.write(file.toUri().toString(), bytes("state"));
        storage.write(file.toUri().toString(), bytes("state again"));

        // then
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
        assertThat(Files.readString(file)).isEqualTo("state again");
    }

    @Test
    void shouldTakeAPlainPathAndAnswerFileUrisWhenResolvingAndListing() throws IOException {
        // given
        String plain = dir.resolve("plain").toString();

        // when
        String location = storage.resolve(plain, "chk-1/counter");
        storage.write(dir.resolve("plain").resolve("chk-1").resolve("counter").toString(), bytes("7"));

        // then
        assertThat(location).isEqualTo(dir.resolve("plain").resolve("chk-1").resolve("counter").toUri().toString());
        assertThat(storage.list(plain)).containsExactly(location);
        assertThat(storage.read(location)).isEqualTo(bytes("7"));
    }

    @Test
    void shouldListTheFilesOfADirectoryAndNothingUnderAFile() throws IOException {
        // given
        String location = storage.resolve(directory(), "single");
        storage.write(location, bytes("1"));

        // when / then
        assertThat(storage.list(location)).isEmpty();
        assertThat(storage.list(directory())).containsExactly(location);
    }

    @Test
    void shouldRefuseALocationOfAnotherScheme() {
        assertThatThrownBy(() -> storage.read("s3://bucket/chk-1/state")).isInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/chk-1/state is neither a file: URI nor a path");
    }

    @Test
    void shouldNameTheLocationWhenAFileUriIsMalformed() {
        assertThatThrownBy(() -> storage.read("file:relative/state")).isInstanceOf(IOException.class)
                .hasMessageContaining("file:relative/state is not a valid file: URI or path");
    }

    @Test
    void shouldNameTheLocationWhenTheFileCannotBeWritten() throws IOException {
        // given a file where the directory would be
        Files.writeString(dir.resolve("occupied"), "a file");
        String location = dir.resolve("occupied").resolve("state").toUri().toString();

        // when / then
        assertThatThrownBy(() -> storage.write(location, bytes("x"))).isInstanceOf(IOException.class)
                .hasMessageContaining("cannot write " + location);
    }
}
