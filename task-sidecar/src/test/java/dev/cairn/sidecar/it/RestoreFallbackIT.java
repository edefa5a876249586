package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * A restore point a worker cannot read, against the real coordinator on a real broker: the sidecar reports it, the
 * job falls back to the previous retained checkpoint, a sidecar whose worker restored the rejected point stops saying
 * why, and restarted workers restore the fallback.
 */
class RestoreFallbackIT extends SidecarTestBase {

    @Test
    void shouldFallBackToThePreviousRetainedCheckpointWhenAWorkerCannotReadTheRestorePoint() {
        // given a job retaining two checkpoints, stopped once checkpoint 2 completed
        String job = CoordinatorTestBed.uniqueJobId("fallback");
        bed.register(retainingTwo(job));
        Sidecar source = sidecars.start(job, "source", 0, RecordingHook.acking());
        Sidecar sink = sidecars.start(job, "sink", 0, RecordingHook.acking());
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() >= 2);
        bed.changeStatus(job, JobStatus.SUSPENDED);
        bed.awaitJournal(JobStatusChange.class, c -> c.getJobId().equals(job) && c.getStatus() == JobStatus.SUSPENDED);
        source.close();
        sink.close();
        long newest = newestCompleted(job);

        // when the sink restarts and restores, then the source's worker finds the restore point's state corrupt
        RecordingHook restartedSink = RecordingHook.acking();
        Sidecar sinkAgain = sidecars.start(job, "sink", 0, restartedSink);
        assertThat(restartedSink.restores()).singleElement()
                .satisfies(p -> assertThat(p).map(RestorePoint::checkpointId).contains(newest));
        assertThatThrownBy(() -> sidecars.start(job, "source", 0, new UnreadableHook()))
                .hasMessageContaining("checkpoint " + newest + " cannot be restored")
                .hasMessageContaining("checksum");

        // then the coordinator falls back to the checkpoint before, and the sink's sidecar stops to restore it
        RestoreFailed reported = bed.awaitJournal(RestoreFailed.class, f -> f.getJobId().equals(job));
        assertThat(reported.getCheckpointId()).isEqualTo(newest);
        RestorePointRejected rejected = bed.awaitJournal(RestorePointRejected.class, r -> r.getJobId().equals(job));
        assertThat(rejected.getCheckpointId()).isEqualTo(newest);
        assertThat(rejected.getFallback().getCheckpointId()).isLessThan(newest);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> !sinkAgain.isRunning());
        assertThat(sinkAgain.stopReason()).hasValueSatisfying(why -> assertThat(why)
                .contains("falls back from checkpoint " + newest));

        // and workers started again restore the fallback, chosen
        RecordingHook sinkThird = RecordingHook.acking();
        RecordingHook sourceAgain = RecordingHook.acking();
        sidecars.start(job, "sink", 0, sinkThird);
        sidecars.start(job, "source", 0, sourceAgain);
        long fallback = rejected.getFallback().getCheckpointId();
        assertThat(sourceAgain.restores()).singleElement().satisfies(p -> {
            assertThat(p).map(RestorePoint::checkpointId).contains(fallback);
            assertThat(p).map(RestorePoint::chosen).contains(true);
        });
        assertThat(sinkThird.restores()).singleElement()
                .satisfies(p -> assertThat(p).map(RestorePoint::checkpointId).contains(fallback));
    }

    private static long newestCompleted(String job) {
        return bed.journal(CheckpointCompleted.class, c -> c.getJobId().equals(job)).stream()
                .mapToLong(CheckpointCompleted::getCheckpointId).max().orElseThrow();
    }

    private static JobSpec retainingTwo(String job) {
        return Events.jobSpec(job, "source", "sink")
                .setConfig(Events.config(150, 10_000).setRetained(2).setTolerableFailures(100).build()).build();
    }

    /** A worker whose state at the restore point fails its checksum. */
    private static final class UnreadableHook implements SnapshotHook {
        @Override
        public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
            return CompletableFuture.failedFuture(new IllegalStateException("never restored"));
        }

        @Override
        public void notifyComplete(long checkpointId, long lastSubsumedId) {
            // never restored, so never notified
        }

        @Override
        public void notifyAborted(long checkpointId, long latestCompletedId) {
            // never restored, so never notified
        }

        @Override
        public void restore(Optional<RestorePoint> from) throws StateUnreadableException {
            throw new StateUnreadableException("the state " + from.map(RestorePoint::location).orElse("-")
                    + " is corrupt: its checksum is 0x1 but its content sums to 0x2");
        }
    }
}
