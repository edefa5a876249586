package dev.cairn.kit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.s3.S3ProxyServer;
import dev.cairn.s3.S3ServerExtension;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Snapshots in S3, against a real S3 API server in this JVM (S3Proxy): the storage contract, and what is particular to
 * S3 (keys, buckets).
 */
class S3StorageTest extends SnapshotStorageContract {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    private static S3Storage storage;

    private String directory;

    @BeforeAll
    static void connect() {
        storage = new S3Storage(S3Settings.fromProperties(S3.server().settings()));
    }

    @AfterAll
    static void disconnect() {
        storage.close();
    }

    @BeforeEach
    void newDirectory() {
        directory = S3.server().location("jobs/" + UUID.randomUUID());
    }

    @Override
    SnapshotStorage storage() {
        return storage;
    }

    @Override
    String directory() {
        return directory;
    }

    @Override
    void overwriteBehindTheStorage(String location, byte[] bytes) {
        S3.server().overwrite(key(location), bytes);
    }

    @Test
    void shouldKeepTheObjectUnderItsKeyInTheBucketWhenWritten() throws IOException {
        // given
        String location = storage.resolve(directory, "chk-1/source-orders-0.state");

        // when
        storage.write(location, bytes("positions"));

        // then
        String key = key(location);
        assertThat(key).startsWith("jobs/").endsWith("/chk-1/source-orders-0.state");
        assertThat(S3.server().read(key)).isEqualTo(bytes("positions"));
        assertThat(S3.server().objects(key)).isEqualTo(new S3ProxyServer.StoredObjects(1, 9));
    }

    @Test
    void shouldPutOneSlashBetweenTheDirectoryAndTheNameWhenResolving() throws IOException {
        assertThat(storage.resolve("s3://bucket", "chk-1")).isEqualTo("s3://bucket/chk-1");
        assertThat(storage.resolve("s3://bucket/", "chk-1")).isEqualTo("s3://bucket/chk-1");
        assertThat(storage.resolve("s3://bucket/base/job/", "chk-1")).isEqualTo("s3://bucket/base/job/chk-1");
        assertThat(storage.resolve("s3://bucket/base/job", "chk-1/state"))
                .isEqualTo("s3://bucket/base/job/chk-1/state");
        assertThat(storage.parent("s3://bucket/base/job/chk-1/state")).isEqualTo("s3://bucket/base/job/chk-1");
        assertThat(storage.parent("s3://bucket/chk-1")).isEqualTo("s3://bucket");
    }

    @Test
    void shouldRefuseALocationThatNamesNoObjectWhenWritingOrReading() {
        assertThatThrownBy(() -> storage.write(directory + "/", bytes("x"))).isInstanceOf(IOException.class)
                .hasMessageContaining("names no object");
        assertThatThrownBy(() -> storage.read("s3://" + S3.server().bucket())).isInstanceOf(IOException.class)
                .hasMessageContaining("names no object");
        assertThatThrownBy(() -> storage.read("s3:///key")).isInstanceOf(IOException.class)
                .hasMessageContaining("names no bucket");
    }

    @Test
    void shouldNameTheLocationWhenTheBucketDoesNotExist() {
        // given
        String location = "s3://no-such-bucket/chk-1/state";

        // when / then
        assertThatThrownBy(() -> storage.write(location, bytes("x"))).isInstanceOf(IOException.class)
                .hasMessageContaining("cannot write " + location);
        assertThatThrownBy(() -> storage.read(location)).isInstanceOf(IOException.class)
                .isNotInstanceOf(LocationNotFoundException.class).hasMessageContaining("cannot read " + location);
    }

    @Test
    void shouldRefuseTheWriteWhenTheSecretKeyIsWrong() {
        // given
        S3Settings wrong = S3Settings.fromProperties(Map.of("s3.endpoint",
                S3.server().endpoint().toString(), "s3.region", S3.server().region(), "s3.path-style-access", "true",
                "s3.access-key", S3.server().accessKey(), "s3.secret-key", "not-the-secret",
                "s3.flexible-checksums", "false"));

        // when / then
        try (S3Storage stranger = new S3Storage(wrong)) {
            assertThatThrownBy(() -> stranger.write(storage.resolve(directory, "x"), bytes("x")))
                    .isInstanceOf(IOException.class).hasMessageContaining("cannot write");
        }
        assertThat(S3.server().keys(key(directory))).isEmpty();
    }

    /** The key of {@code location} in the server's bucket. */
    private static String key(String location) {
        return location.substring(("s3://" + S3.server().bucket() + "/").length());
    }
}
