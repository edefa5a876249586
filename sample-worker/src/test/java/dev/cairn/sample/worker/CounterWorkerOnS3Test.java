package dev.cairn.sample.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.CheckpointType;
import dev.cairn.kit.storage.S3Settings;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.s3.S3ServerExtension;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sample worker on an {@code s3://} storage base, against a real S3 API server in this JVM (S3Proxy). */
class CounterWorkerOnS3Test {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    private String base;

    @BeforeEach
    void newBase() {
        base = "bases/" + UUID.randomUUID();
    }

    @Test
    void shouldKeepTheCounterAsAnObjectAtTheCheckpointsLocationAndRestoreFromIt() throws Exception {
        SnapshotResult second;
        try (CounterWorker before = worker()) {
            snapshot(before, 1);
            second = snapshot(before, 2);
        }

        try (CounterWorker after = worker()) {
            after.restore(Optional.of(new RestorePoint(2, second.location(), second.sizeBytes())));

            assertThat(second.location()).isEqualTo(S3.server().location(base + "/job-a/chk-2/map-1"));
            assertThat(S3.server().read(base + "/job-a/chk-2/map-1")).isEqualTo("2\n".getBytes(StandardCharsets.UTF_8));
            assertThat(after.value()).isEqualTo(2);
        }
    }

    @Test
    void shouldDeleteSubsumedAndAbortedStatesInTheBucketWhenNotified() throws Exception {
        try (CounterWorker worker = worker()) {
            for (long id = 1; id <= 4; id++) {
                snapshot(worker, id);
            }

            worker.notifyComplete(3, 2);
            worker.notifyAborted(4, 3);

            assertThat(S3.server().keys(base + "/")).containsExactly(base + "/job-a/chk-3/map-1");
        }
    }

    @Test
    void shouldDeleteADiscardedStateOnlyWhenItIsItsOwnUnderTheJobsDirectory() throws Exception {
        try (CounterWorker worker = worker()) {
            SnapshotResult late = snapshot(worker, 1);
            S3.server().overwrite("elsewhere/state", new byte[] {1});
            S3.server().overwrite(base + "/job-a/chk-1/map-0", new byte[] {1});

            worker.discardState(new DiscardedState(1, late.location(), 2, AckDiscardStatus.LATE, "late"));
            worker.discardState(new DiscardedState(1, S3.server().location("elsewhere/state"), 1,
                    AckDiscardStatus.UNKNOWN, "?"));
            worker.discardState(new DiscardedState(1, S3.server().location(base + "/job-a/chk-1/map-0"), 1,
                    AckDiscardStatus.UNKNOWN, "another subtask's"));

            assertThat(S3.server().keys(base + "/")).containsExactly(base + "/job-a/chk-1/map-0");
            assertThat(S3.server().keys("elsewhere/")).containsExactly("elsewhere/state");
        }
    }

    private CounterWorker worker() {
        return new CounterWorker(SnapshotStorages.of(S3Settings.fromProperties(S3.server().settings())),
                Duration.ZERO, 0, 0);
    }

    private SnapshotResult snapshot(CounterWorker worker, long checkpointId) throws Exception {
        SnapshotRequest request = new SnapshotRequest(checkpointId, 1_700_000_000_000L + checkpointId,
                CheckpointType.CHECKPOINT, S3.server().location(base + "/job-a/chk-" + checkpointId), "job-a", "map",
                1);
        return worker.snapshot(request).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
