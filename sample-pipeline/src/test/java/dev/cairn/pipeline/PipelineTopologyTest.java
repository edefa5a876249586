package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PipelineTopologyTest {

    private final PipelineTopology topology = new PipelineTopology("job-1");

    @Test
    void shouldStoreTheJobsCheckpointsUnderTheS3BaseItIsGiven() {
        CheckpointConfig config = topology.jobSpec("s3://cairn/checkpoints").getConfig();

        assertThat(config.getStorageBaseLocation()).isEqualTo("s3://cairn/checkpoints");
        assertThat(config.getIntervalMs()).isEqualTo(PipelineTopology.CHECKPOINT_INTERVAL.toMillis());
        assertThat(config.getRetained()).isEqualTo(1);
        assertThat(config.getExactlyOnce()).isTrue();
    }

    @Test
    void shouldStoreTheJobsCheckpointsUnderADirectoryAsAFileUri() {
        CheckpointConfig config = topology.jobSpec(Path.of("/var/lib/cairn")).getConfig();

        assertThat(config.getStorageBaseLocation()).isEqualTo("file:///var/lib/cairn");
    }

    @Test
    void shouldCheckpointAsTheCheckpointingSays() {
        PipelineTopology.Checkpointing often = new PipelineTopology.Checkpointing(Duration.ofMillis(50), 2, 2,
                BackupType.INCREMENTAL);

        CheckpointConfig config = topology.jobSpec("s3://cairn/checkpoints", often).getConfig();

        assertThat(config.getIntervalMs()).isEqualTo(50);
        assertThat(config.getRetained()).isEqualTo(2);
        assertThat(config.getMaxConcurrent()).isEqualTo(2);
        assertThat(config.getBackupType()).isEqualTo(BackupType.INCREMENTAL);
    }

    @Test
    void shouldRefuseCheckpointingThatRetainsNothing() {
        assertThatThrownBy(() -> new PipelineTopology.Checkpointing(Duration.ofMillis(50), 0, 1, BackupType.FULL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retained");
    }
}
