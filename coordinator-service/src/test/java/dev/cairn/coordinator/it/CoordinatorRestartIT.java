package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator restarted on the same state directory, or on an empty one (state restored from the
 * changelogs), continues with the next checkpoint id and still expires a checkpoint pending before it stopped.
 */
@ExtendWith(KafkaClusterExtension.class)
class CoordinatorRestartIT {

    private static final List<String> TASKS = List.of("source", "sink");

    @Test
    void shouldContinueAfterARestartOnTheSameStateDirectory(KafkaCluster kafka, @TempDir Path stateDir) {
        continuesAfterRestart(kafka, stateDir, stateDir);
    }

    @Test
    void shouldRestoreFromChangelogsAfterARestartOnAFreshStateDirectory(KafkaCluster kafka, @TempDir Path first,
            @TempDir Path second) {
        continuesAfterRestart(kafka, first, second.resolve("fresh"));
    }

    private static void continuesAfterRestart(KafkaCluster kafka, Path before, Path after) {
        String job = "restart-" + UUID.randomUUID();
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, before).start()) {
            cairn.register(Events.job(job, 400, 4_000, TASKS.toArray(String[]::new)));
            TASKS.forEach(task -> cairn.startTask(job, task, 0, task + "-1"));

            CheckpointTriggered first = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job));
            TASKS.forEach(task -> cairn.ack(job, first.getCheckpointId(), task, 0, task + "-1"));
            cairn.awaitNextControl(CheckpointCompleted.class, c -> c.getCheckpointId() == first.getCheckpointId());
            CheckpointTriggered pending = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getCheckpointId() > first.getCheckpointId());
            cairn.ack(job, pending.getCheckpointId(), "source", 0, "source-1");

            cairn.restart(after);

            CheckpointAborted expired = cairn.awaitNextControl(CheckpointAborted.class,
                    a -> a.getCheckpointId() == pending.getCheckpointId());
            assertThat(expired.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
            CheckpointTriggered next = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getCheckpointId() > pending.getCheckpointId());
            assertThat(next.getCheckpointId()).isEqualTo(pending.getCheckpointId() + 1);
            TASKS.forEach(task -> cairn.ack(job, next.getCheckpointId(), task, 0, task + "-1"));
            CheckpointCompleted completed = cairn.awaitNextControl(CheckpointCompleted.class,
                    c -> c.getCheckpointId() == next.getCheckpointId());
            assertThat(completed.getSubtaskCount()).isEqualTo(TASKS.size());
        }
    }
}
