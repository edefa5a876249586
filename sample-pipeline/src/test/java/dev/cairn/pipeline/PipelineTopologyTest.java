package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TaskVertex;
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
    void shouldRunEachTaskWithItsParallelismAndTheFixedMaxParallelism() {
        JobSpec spec = topology.jobSpec("s3://cairn/checkpoints", PipelineTopology.Checkpointing.DEFAULTS,
                new PipelineTopology.Parallelism(1, 3, 2));

        assertThat(spec.getTasks()).extracting(TaskVertex::getTaskId, TaskVertex::getParallelism,
                TaskVertex::getMaxParallelism).containsExactly(tuple("source", 1, 128), tuple("count", 3, 128),
                tuple("sink", 2, 128));
        assertThat(new PipelineTopology.Parallelism(1, 3, 2).upstreamOf("sink")).isEqualTo(3);
        assertThat(new PipelineTopology.Parallelism(1, 3, 2).upstreamOf("count")).isEqualTo(1);
    }

    @Test
    void shouldRefuseAParallelismBeyondTheMaxParallelism() {
        assertThatThrownBy(() -> new PipelineTopology.Parallelism(1, 129, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("129");
    }

    @Test
    void shouldRefuseCheckpointingThatRetainsNothing() {
        assertThatThrownBy(() -> new PipelineTopology.Checkpointing(Duration.ofMillis(50), 0, 1, BackupType.FULL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retained");
    }
}
