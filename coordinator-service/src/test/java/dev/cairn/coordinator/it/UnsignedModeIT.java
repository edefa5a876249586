package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unsigned mode ({@code --allow-unsigned-sidecar-records --allow-unsigned-requests}), which every other
 * broker-backed test leaves off: a coordinator without a master key takes sidecar records and requests that carry
 * no signature.
 */
@ExtendWith(KafkaClusterExtension.class)
class UnsignedModeIT {

    @Test
    void shouldCompleteACheckpointFromUnsignedSidecarRecordsWhenSigningIsOff(KafkaCluster kafka,
            @TempDir Path stateDir) {
        String job = "unsigned-" + UUID.randomUUID();
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, stateDir).unsigned().start()) {
            assertThat(cairn.jobKey(job)).as("the bed sends unsigned records").isEmpty();
            assertThat(cairn.requestsKey()).as("the bed sends unsigned requests").isEmpty();
            cairn.register(Events.job(job, 300, 10_000, "source"));
            cairn.startTask(job, "source", 0, "a-1");

            CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job));
            cairn.ack(job, triggered.getCheckpointId(), "source", 0, "a-1");

            CheckpointCompleted completed = cairn.awaitJournal(CheckpointCompleted.class,
                    c -> c.getJobId().equals(job) && c.getCheckpointId() == triggered.getCheckpointId());
            assertThat(completed.getSubtaskCount()).isEqualTo(1);
        }
    }
}
