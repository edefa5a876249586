package dev.cairn.sample.worker;

import static dev.cairn.sidecar.it.ControlRecordsBed.WAIT;
import static dev.cairn.sidecar.it.ControlRecordsBed.completed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import dev.cairn.sidecar.it.ControlRecordsBed;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample worker behind a real task sidecar, reached over the HTTP hook, against hand-written control records:
 * its snapshots are files at the checkpoints' storage locations that the acknowledgements point at, it deletes those a
 * completed checkpoint subsumes, and a bounded input ends its subtask.
 */
@ExtendWith(KafkaClusterExtension.class)
class SampleWorkerBehindASidecarIT {

    private static ControlRecordsBed bed;

    @BeforeAll
    static void createTopics(KafkaCluster cluster) {
        bed = new ControlRecordsBed(cluster);
    }

    @AfterEach
    void stopTheTestsSidecars() {
        bed.stopSidecars();
    }

    @AfterAll
    static void closeBed() {
        bed.close();
    }

    private static String uniqueJobId(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    /** Checkpoint {@code id} of {@code job} triggered with its storage location under {@code base}. */
    private static CheckpointTriggered trigger(Path base, String job, long id) {
        return CheckpointTriggered.newBuilder(ControlRecordsBed.trigger(job, id, CheckpointType.CHECKPOINT, plain()))
                .setStorageLocation(base.resolve(job).resolve("chk-" + id).toUri().toString()).build();
    }

    private static SnapshotOptions plain() {
        return SnapshotOptions.newBuilder().build();
    }

    @Test
    void shouldAcknowledgeTheFileItWroteAndDeleteItWhenALaterCheckpointSubsumesIt(@TempDir Path workerDir)
            throws Exception {
        // given the sample worker, reached over HTTP, that acknowledged checkpoint 1 with the file it wrote
        String job = uniqueJobId("http");
        CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0);
        try (HookServer server = HookServer.start(worker, new InetSocketAddress("127.0.0.1", 0))) {
            bed.start(SidecarConfigCopies.withHttpHook(bed.taskConfig(job, "counter", 0), server.baseUrl(),
                    Duration.ofSeconds(5)));
            bed.control(job, trigger(workerDir, job, 1));
            StateHandle state = bed.awaitAck(CheckpointAcknowledged.class,
                    a -> a.getJobId().equals(job) && a.getCheckpointId() == 1).getStateHandle();
            Path file = Path.of(URI.create(state.getLocation()));
            assertThat(file).exists();
            assertThat(state.getSizeBytes()).isEqualTo(Files.size(file));

            // when checkpoint 2 is acknowledged and completes, subsuming 1
            bed.control(job, trigger(workerDir, job, 2));
            bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 2);
            bed.control(job, completed(job, 2, 1, plain()));

            // then the worker, told of the completion, deletes the subsumed file
            await().atMost(WAIT).until(() -> !Files.exists(file));
        }
    }

    @Test
    void shouldPublishTaskFinishedWhenItsBoundedInputIsExhausted(@TempDir Path workerDir) throws Exception {
        // given the sample worker with an input of 2 records, reached over HTTP
        String job = uniqueJobId("finish-http");
        CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 2);
        try (HookServer server = HookServer.start(worker, new InetSocketAddress("127.0.0.1", 0))) {
            Sidecar sidecar = bed.start(SidecarConfigCopies.withHttpHook(bed.taskConfig(job, "counter", 0),
                    server.baseUrl(), Duration.ofSeconds(5)));

            // when checkpoints 1 and 2 are triggered
            bed.control(job, trigger(workerDir, job, 1));
            bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 1);
            bed.control(job, trigger(workerDir, job, 2));

            // then the second is answered with the end of the subtask and its final state
            TaskFinished finished = bed.awaitAck(TaskFinished.class, f -> f.getJobId().equals(job));
            assertThat(finished.getAttemptId()).isEqualTo(sidecar.attemptId());
            assertThat(finished.getFinalState().getLocation())
                    .isEqualTo(workerDir.resolve(job).resolve("chk-2").resolve("counter-0").toUri().toString());
            assertThat(bed.acks(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)))
                    .extracting(CheckpointAcknowledged::getCheckpointId).containsExactly(1L);
            await().atMost(WAIT).until(sidecar::isFinished);
        }
    }
}
