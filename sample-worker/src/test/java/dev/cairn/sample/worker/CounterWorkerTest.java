package dev.cairn.sample.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.storage.S3Settings;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CounterWorkerTest {

    @TempDir
    Path stateDir;

    @Test
    void shouldWriteTheAdvancedCounterAtTheCheckpointsStorageLocationWhenSnapshotting() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            SnapshotResult first = snapshot(worker, request(stateDir, 1));
            SnapshotResult second = snapshot(worker, request(stateDir, 2));

            Path expected = stateDir.resolve("job-a").resolve("chk-2").resolve("map-1");
            assertThat(second.location()).isEqualTo(expected.toUri().toString());
            assertThat(Files.readString(expected)).isEqualTo("2\n");
            assertThat(second.sizeBytes()).isEqualTo(Files.size(expected)).isEqualTo(second.bytesPersisted());
            assertThat(Files.readString(Path.of(URI.create(first.location())))).isEqualTo("1\n");
            assertThat(worker.value()).isEqualTo(2);
        }
    }

    @Test
    void shouldContinueCountingFromTheRestoredValueWhenRestored() throws Exception {
        SnapshotResult third;
        try (CounterWorker before = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            snapshot(before, request(stateDir, 1));
            snapshot(before, request(stateDir, 2));
            third = snapshot(before, request(stateDir, 3));
        }
        try (CounterWorker after = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            after.restore(Optional.of(new RestorePoint(3, third.location(), third.sizeBytes())));

            assertThat(after.value()).isEqualTo(3);
            SnapshotResult fourth = snapshot(after, request(stateDir, 4));
            assertThat(Files.readString(Path.of(URI.create(fourth.location())))).isEqualTo("4\n");
        }
    }

    @Test
    void shouldAcceptAPlainPathWhenRestoringAndCountFromZeroWhenFresh() throws Exception {
        Path file = Files.writeString(stateDir.resolve("state"), "41\n");
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            worker.restore(Optional.of(new RestorePoint(9, file.toString(), 3)));
            assertThat(worker.value()).isEqualTo(41);

            worker.restore(Optional.empty());
            assertThat(worker.value()).isZero();
        }
    }

    @Test
    void shouldFailNamingTheLocationWhenTheRestoredFileIsMissingOrCorrupt() throws Exception {
        Path corrupt = Files.writeString(stateDir.resolve("corrupt"), "forty-two");
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            assertThatThrownBy(() -> worker.restore(Optional.of(new RestorePoint(5, corrupt.toUri().toString(), 9))))
                    .isInstanceOf(StateUnreadableException.class)
                    .hasMessageContaining("is not a counter value: \"forty-two\"");
            String missing = stateDir.resolve("missing").toUri().toString();
            assertThatThrownBy(() -> worker.restore(Optional.of(new RestorePoint(6, missing, 9))))
                    .isInstanceOf(StateUnreadableException.class).hasMessageContaining("does not exist")
                    .hasMessageContaining(missing);
        }
    }

    @Test
    void shouldDeleteSubsumedCheckpointsButKeepSavepointsWhenACheckpointCompletes() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            for (long id = 1; id <= 4; id++) {
                snapshot(worker, request(stateDir, id));
            }
            SnapshotResult savepoint = snapshot(worker, new SnapshotRequest(2, 0, CheckpointType.SAVEPOINT,
                    stateDir.resolve("savepoints").resolve("savepoint-2").toUri().toString(), "job-a", "map", 1));

            worker.notifyComplete(3, 2);

            Path job = stateDir.resolve("job-a");
            assertThat(job.resolve("chk-1").resolve("map-1")).doesNotExist();
            assertThat(job.resolve("chk-2").resolve("map-1")).doesNotExist();
            assertThat(job.resolve("chk-3").resolve("map-1")).exists();
            assertThat(job.resolve("chk-4").resolve("map-1")).exists();
            assertThat(Path.of(URI.create(savepoint.location())))
                    .isEqualTo(stateDir.resolve("savepoints").resolve("savepoint-2").resolve("map-1")).exists();
        }
    }

    @Test
    void shouldKeepTheCheckpointAUserChoseToRestoreFromWhenLaterCompletionsSubsumeIt() throws Exception {
        SnapshotResult second;
        try (CounterWorker before = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            snapshot(before, request(stateDir, 1));
            second = snapshot(before, request(stateDir, 2));
            snapshot(before, request(stateDir, 3));
        }
        try (CounterWorker after = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            after.restore(Optional.of(new RestorePoint(2, second.location(), second.sizeBytes(), true)));
            snapshot(after, request(stateDir, 4));

            after.notifyComplete(5, 4);

            Path job = stateDir.resolve("job-a");
            assertThat(job.resolve("chk-2").resolve("map-1")).as("restored in NO_CLAIM mode: the user's").exists();
            assertThat(job.resolve("chk-1").resolve("map-1")).doesNotExist();
            assertThat(job.resolve("chk-3").resolve("map-1")).doesNotExist();
        }
    }

    @Test
    void shouldDeleteTheCheckpointsFileWhenItIsAborted() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            Path first = Path.of(URI.create(snapshot(worker, request(stateDir, 1)).location()));
            Path second = Path.of(URI.create(snapshot(worker, request(stateDir, 2)).location()));

            worker.notifyAborted(2, 1);

            assertThat(second).doesNotExist();
            assertThat(first).exists();
        }
    }

    @Test
    void shouldDeclineACheckpointWhenItsIdIsAMultipleOfN() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 3, 0)) {
            for (long id = 1; id <= 7; id++) {
                CompletableFuture<SnapshotResult> snapshot = worker.snapshot(request(stateDir, id))
                        .toCompletableFuture();
                if (id % 3 == 0) {
                    SnapshotDeclinedException declined = declineOf(snapshot);
                    assertThat(declined.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
                    assertThat(declined.getMessage()).contains("multiple of 3").contains("this is " + id);
                } else {
                    assertThat(snapshot.get(10, TimeUnit.SECONDS).location()).endsWith("/chk-" + id + "/map-1");
                }
            }
            assertThat(worker.value()).isEqualTo(5);
        }
    }

    @Test
    void shouldCompleteAfterTheDelayWithoutHoldingUpNotificationsWhenTheWorkerIsSlow() throws Exception {
        Duration slowness = Duration.ofMillis(1500);
        try (CounterWorker worker = new CounterWorker(new FileStorage(), slowness, 0, 0)) {
            long start = System.nanoTime();
            CompletableFuture<SnapshotResult> snapshot = worker.snapshot(request(stateDir, 1)).toCompletableFuture();
            worker.notifyAborted(0, -1);

            assertThat(snapshot).as("still writing when the notification was handled").isNotDone();
            await().atMost(Duration.ofSeconds(10)).until(snapshot::isDone);
            assertThat(snapshot.get().asyncDurationMs()).isGreaterThanOrEqualTo(slowness.toMillis());
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                    .isGreaterThanOrEqualTo(slowness.toMillis());
        }
    }

    @Test
    void shouldDeclineWhenTheTaskIdIsNotAName() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            SnapshotDeclinedException declined = declineOf(worker.snapshot(new SnapshotRequest(1, 0,
                    CheckpointType.CHECKPOINT, stateDir.resolve("chk-1").toString(), "job-a", "../escape", 0))
                            .toCompletableFuture());

            assertThat(declined.getMessage()).contains("taskId \"../escape\"");
            assertThat(stateDir.resolve("escape-0")).doesNotExist();
        }
    }

    @Test
    void shouldDeclineNamingTheLocationWhenItsSchemeIsNotSupported() throws Exception {
        try (CounterWorker worker = new CounterWorker(SnapshotStorages.of(S3Settings.DEFAULTS), Duration.ZERO, 0, 0)) {
            SnapshotDeclinedException declined = declineOf(worker.snapshot(new SnapshotRequest(1, 0,
                    CheckpointType.CHECKPOINT, "hdfs://namenode/job-a/chk-1", "job-a", "map", 1))
                            .toCompletableFuture());

            assertThat(declined.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
            assertThat(declined.getMessage()).contains("hdfs://namenode/job-a/chk-1").contains("scheme hdfs");
            assertThat(worker.value()).as("nothing counted").isZero();
        }
    }

    @Test
    void shouldDeclineTheSnapshotsStillBeingWrittenWhenClosing() throws Exception {
        CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ofMinutes(5), 0, 0);
        CompletableFuture<SnapshotResult> snapshot = worker.snapshot(request(stateDir, 1)).toCompletableFuture();

        worker.close();

        SnapshotDeclinedException declined = declineOf(snapshot);
        assertThat(declined.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING);
        assertThat(declined.getMessage()).contains("closed while writing");
    }

    @Test
    void shouldDeclineAsClosingWhenTheWorkerIsClosed() throws Exception {
        CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0);
        worker.close();

        assertThat(declineOf(worker.snapshot(request(stateDir, 1)).toCompletableFuture()).reason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING);
    }

    @Test
    void shouldRejectOptionsWhenTheyAreNegative() {
        assertThatThrownBy(() -> new CounterWorker(new FileStorage(), Duration.ofMillis(-1), 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("slowness");
        assertThatThrownBy(() -> new CounterWorker(new FileStorage(), Duration.ZERO, -1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declineEvery");
    }

    @Test
    void shouldAnswerWithItsFinalStateWhenTheCounterReachesTheInputsSize() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 3)) {
            // given two records processed
            assertThat(snapshot(worker, request(stateDir, 1)).finished()).isFalse();
            assertThat(snapshot(worker, request(stateDir, 2)).finished()).isFalse();

            // when the third, last record is processed
            SnapshotResult last = snapshot(worker, request(stateDir, 3));

            // then it answers its final state, and keeps answering it
            assertThat(last.finished()).isTrue();
            assertThat(Files.readString(Path.of(URI.create(last.location())))).isEqualTo("3\n");
            assertThat(worker.isFinished()).isTrue();
            assertThat(snapshot(worker, request(stateDir, 4))).isEqualTo(last);
            assertThat(worker.value()).isEqualTo(3);
        }
    }

    @Test
    void shouldKeepItsFinalStateWhenLaterCheckpointsSubsumeIt() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 2)) {
            snapshot(worker, request(stateDir, 1));
            SnapshotResult last = snapshot(worker, request(stateDir, 2));

            worker.notifyComplete(5, 4);

            assertThat(Path.of(URI.create(last.location()))).exists();
            assertThat(stateDir.resolve("job-a").resolve("chk-1").resolve("map-1")).doesNotExist();
        }
    }

    @Test
    void shouldBeFinishedWhenRestoredFromItsFinalState() throws Exception {
        SnapshotResult last;
        try (CounterWorker before = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 1)) {
            last = snapshot(before, request(stateDir, 1));
        }
        try (CounterWorker after = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 1)) {
            after.restore(Optional.of(new RestorePoint(1, last.location(), last.sizeBytes())));

            assertThat(after.isFinished()).isTrue();
            assertThat(snapshot(after, request(stateDir, 2))).isEqualTo(SnapshotResult.finishedWith(last.location(),
                    last.sizeBytes()));
        }
    }

    @Test
    void shouldDeleteADiscardedStateWhenItLiesUnderTheJobsDirectory() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            Path late = Path.of(URI.create(snapshot(worker, request(stateDir, 1)).location()));
            Path elsewhere = Files.writeString(Files.createTempFile("not-mine", ".txt"), "keep");
            try {
                worker.discardState(new DiscardedState(1, late.toUri().toString(), 2, AckDiscardStatus.LATE, "late"));
                worker.discardState(new DiscardedState(1, elsewhere.toString(), 4, AckDiscardStatus.UNKNOWN, "?"));

                assertThat(late).doesNotExist();
                assertThat(elsewhere).exists();
            } finally {
                Files.deleteIfExists(elsewhere);
            }
        }
    }

    @Test
    void shouldKeepItsStateUnderANameOfItsOwnWhenItServesAParticipant() throws Exception {
        try (CounterWorker worker = new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0)) {
            SnapshotResult result = snapshot(worker, SnapshotRequest.forParticipant(1, 0, CheckpointType.CHECKPOINT,
                    stateDir.resolve("job-a").resolve("chk-1").toUri().toString(), "job-a", "offsets",
                    CheckpointOptions.DEFAULTS));

            assertThat(Path.of(URI.create(result.location())))
                    .isEqualTo(stateDir.resolve("job-a").resolve("chk-1").resolve("participant-offsets"));
        }
    }

    @Test
    void shouldRejectANegativeInputSize() {
        assertThatThrownBy(() -> new CounterWorker(new FileStorage(), Duration.ZERO, 0, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finishAfter");
    }

    /** A request of checkpoint {@code checkpointId} to subtask map-1 of job-a, its storage base {@code base}. */
    static SnapshotRequest request(Path base, long checkpointId) {
        return new SnapshotRequest(checkpointId, 1_700_000_000_000L + checkpointId, CheckpointType.CHECKPOINT,
                base.resolve("job-a").resolve("chk-" + checkpointId).toUri().toString(), "job-a", "map", 1);
    }

    private static SnapshotResult snapshot(CounterWorker worker, SnapshotRequest request) throws Exception {
        return worker.snapshot(request).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static SnapshotDeclinedException declineOf(CompletableFuture<SnapshotResult> snapshot) throws Exception {
        try {
            SnapshotResult result = snapshot.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected a decline, got " + result);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(SnapshotDeclinedException.class);
            return (SnapshotDeclinedException) e.getCause();
        }
    }
}
