package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.s3.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoStorageTest {

    @TempDir
    Path dir;

    @Test
    void shouldCountTheObjectsBytesAndCheckpointsUnderABucketPrefix() {
        S3ProxyServer server = S3ProxyServer.start(DemoStorage.BUCKET);
        try (DemoStorage storage = new DemoStorage.InS3(server)) {
            String job = storage.checkpoints().resolve("job-1");
            assertThat(job).isEqualTo("s3://cairn-demo/checkpoints/job-1");
            server.overwrite("checkpoints/job-1/chk-3/source-source-0.state", new byte[10]);
            server.overwrite("checkpoints/job-1/chk-4/source-source-0.state", new byte[20]);
            server.overwrite("checkpoints/job-1/shared/count-0/group-7", new byte[5]);
            server.overwrite("checkpoints/job-10/chk-1/source-source-0.state", new byte[100]);

            DemoStorage.Stored stored = storage.measure(job);

            assertThat(stored.objects()).isEqualTo(3);
            assertThat(stored.bytes()).isEqualTo(35);
            assertThat(stored.checkpoints()).containsExactly(3L, 4L);
            assertThat(storage.savepoint("sp-1")).isEqualTo("s3://cairn-demo/savepoints/sp-1");
            assertThat(storage.workerEnvironment()).containsKeys("CAIRN_S3_ENDPOINT", "AWS_ACCESS_KEY_ID")
                    .containsEntry("CAIRN_S3_PATH_STYLE_ACCESS", "true");
        }
    }

    @Test
    void shouldCountTheFilesBytesAndCheckpointsUnderADirectory() throws IOException {
        DemoStorage storage = new DemoStorage.InFiles(dir);
        Path job = dir.resolve("checkpoints/job-1");
        for (String name : List.of("chk-5/operator-count-0.state", "shared/count-0/group-1")) {
            Files.createDirectories(job.resolve(name).getParent());
            Files.write(job.resolve(name), new byte[8]);
        }

        DemoStorage.Stored stored = storage.measure(storage.checkpoints().resolve("job-1"));

        assertThat(stored.objects()).isEqualTo(2);
        assertThat(stored.bytes()).isEqualTo(16);
        assertThat(stored.checkpoints()).containsExactly(5L);
        assertThat(storage.measure(storage.savepoints()).objects()).isZero();
    }
}
