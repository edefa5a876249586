package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterKind;
import dev.cairn.sidecar.app.Sidecar;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar rides out a broker restart: an ack produced while the broker is down is delivered once it is
 * back (the idempotent producer retries it), exactly once, and the sidecar keeps consuming triggers. Runs on a
 * broker of its own, which it stops and restarts.
 */
class SidecarBrokerRestartIT {

    @TempDir
    static Path stateDir;

    private static EmbeddedKafkaBroker broker;
    private static CoordinatorTestBed bed;
    private static TestSidecars sidecars;

    @BeforeAll
    static void startBrokerAndCoordinator() {
        broker = EmbeddedKafkaBroker.start();
        bed = CoordinatorTestBed.on(new KafkaCluster() {
            @Override
            public String bootstrapServers() {
                return broker.bootstrapServers();
            }

            @Override
            public KafkaClusterKind kind() {
                return KafkaClusterKind.EMBEDDED;
            }
        }, stateDir).partitions(3).start();
        sidecars = new TestSidecars(bed);
    }

    @AfterAll
    static void stopCoordinatorAndBroker() {
        try {
            if (bed != null) {
                sidecars.close();
                bed.close();
            }
        } finally {
            broker.close();
        }
    }

    @Test
    void shouldDeliverTheAckOnceWhenItWasPublishedWhileTheBrokerWasDown() {
        // given checkpoint 2 completed and the sink's worker busy with checkpoint 3 for a while
        String job = CoordinatorTestBed.uniqueJobId("broker-restart");
        bed.register(Events.job(job, 200, 120_000, "source", "sink"));
        RecordingHook sink = RecordingHook.slow(id -> id == 3, Duration.ofSeconds(2));
        sidecars.start(job, "source", 0, RecordingHook.acking());
        Sidecar sinkSidecar = sidecars.start(job, "sink", 0, sink);
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 2);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> sink.calls().contains("snapshot 3"));

        // when the broker goes down, the worker finishes meanwhile, and the broker comes back
        broker.stop();
        await().atMost(CoordinatorTestBed.WAIT).until(() -> sink.calls().contains("snapshot done 3"));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !broker.isRunning());
        broker.restart();

        // then the ack made it, once, and checkpointing goes on
        CheckpointCompleted third = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == 3);
        assertThat(bed.states(third)).hasSize(2);
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 5);
        assertThat(bed.journal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)
                && a.getCheckpointId() == 3 && a.getTaskId().equals("sink"))).hasSize(1);
        assertThat(bed.journal(AckDiscarded.class, d -> d.getJobId().equals(job))).isEmpty();
        assertThat(sinkSidecar.isRunning()).isTrue();
        await().atMost(CoordinatorTestBed.WAIT).until(() -> sink.completions().stream()
                .anyMatch(n -> n.checkpointId() == 5));
    }
}
