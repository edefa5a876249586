package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CheckpointLocationTest {

    @Test
    void shouldKeepAnS3BaseWithoutItsTrailingSlash() {
        CheckpointLocation location = CheckpointLocation.parse("s3://cairn-state/jobs/checkpoints/");

        assertThat(location.uri()).isEqualTo("s3://cairn-state/jobs/checkpoints");
        assertThat(location.isS3()).isTrue();
        assertThat(location.resolve("job-1")).isEqualTo("s3://cairn-state/jobs/checkpoints/job-1");
    }

    @Test
    void shouldTakeTheBucketsRootAsABase() {
        assertThat(CheckpointLocation.parse("s3://cairn-state").uri()).isEqualTo("s3://cairn-state");
    }

    @Test
    void shouldTakeAFileUriAsADirectory() {
        CheckpointLocation location = CheckpointLocation.parse("file:///var/lib/cairn/checkpoints/");

        assertThat(location.isS3()).isFalse();
        assertThat(location.directory()).isEqualTo(Path.of("/var/lib/cairn/checkpoints"));
        assertThat(location.uri()).isEqualTo("file:///var/lib/cairn/checkpoints");
    }

    @Test
    void shouldMakeADirectoryAnAbsoluteFileUri() {
        CheckpointLocation location = CheckpointLocation.of(Path.of("target", "..", "checkpoints"));

        assertThat(location.uri()).startsWith("file:///").endsWith("/checkpoints").doesNotContain("..");
        assertThat(CheckpointLocation.parse(location.uri())).isEqualTo(location);
    }

    @Test
    void shouldRefuseAPlainPathSayingWhereItGoes() {
        assertThatThrownBy(() -> CheckpointLocation.parse("/var/lib/cairn"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no scheme")
                .hasMessageContaining("checkpoint.dir").hasMessageContaining("s3://bucket/prefix");
    }

    @Test
    void shouldRefuseAnotherSchemeNamingIt() {
        assertThatThrownBy(() -> CheckpointLocation.parse("hdfs://namenode/checkpoints"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the scheme hdfs")
                .hasMessageContaining("s3://cairn/checkpoints");
    }

    @Test
    void shouldRefuseAnS3LocationWithoutABucket() {
        assertThatThrownBy(() -> CheckpointLocation.parse("s3:///checkpoints"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no bucket");
    }

    @Test
    void shouldRefuseABucketNameThatS3WouldRefuse() {
        assertThatThrownBy(() -> CheckpointLocation.parse("s3://Cairn_State/checkpoints"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"Cairn_State\"")
                .hasMessageContaining("no bucket name");
    }

    @Test
    void shouldRefuseAnEmptySegmentInAnS3Prefix() {
        assertThatThrownBy(() -> CheckpointLocation.parse("s3://cairn-state/jobs//checkpoints"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty segment");
    }

    @Test
    void shouldRefuseTextThatIsNoUri() {
        assertThatThrownBy(() -> CheckpointLocation.parse("s3://cairn state/x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a URI");
    }

    @Test
    void shouldRefuseARelativeOrRemoteFileUri() {
        assertThatThrownBy(() -> CheckpointLocation.parse("file:checkpoints"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an absolute file: URI");
        assertThatThrownBy(() -> CheckpointLocation.parse("file://fileserver/checkpoints"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names the host fileserver");
    }
}
