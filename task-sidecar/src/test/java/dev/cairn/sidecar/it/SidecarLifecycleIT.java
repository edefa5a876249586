package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarKeys;
import dev.cairn.sidecar.app.SidecarMain;
import dev.cairn.sidecar.app.SidecarMainAccess;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A sidecar's life: restart with a new attempt and restore, and the sidecar process run from its settings. */
class SidecarLifecycleIT extends SidecarTestBase {

    @Test
    void shouldAbortThePendingCheckpointAndRestoreFromTheLatestCompletedWhenASidecarRestarts() {
        // given checkpoint 2 completed and checkpoint 3 pending, the sink's worker stuck in its snapshot
        String job = CoordinatorTestBed.uniqueJobId("restart");
        bed.register(Events.job(job, 150, 60_000, "source", "sink"));
        RecordingHook source = RecordingHook.acking();
        RecordingHook stuckSink = RecordingHook.stuck(id -> id == 3);
        sidecars.start(job, "source", 0, source);
        Sidecar first = sidecars.start(job, "sink", 0, stuckSink);
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 2);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> stuckSink.calls().contains("snapshot 3"));

        // when the sink's sidecar stops and a new one starts beside a fresh worker
        first.close();
        RecordingHook restartedSink = RecordingHook.acking();
        Sidecar second = sidecars.start(job, "sink", 0, restartedSink);

        // then the new attempt registered, the pending checkpoint was aborted as a task failure...
        assertThat(second.attemptId()).isNotEqualTo(first.attemptId());
        bed.awaitJournal(TaskStarted.class,
                t -> t.getJobId().equals(job) && t.getAttemptId().equals(second.attemptId()));
        CheckpointAborted aborted = bed.awaitJournal(CheckpointAborted.class,
                a -> a.getJobId().equals(job) && a.getCheckpointId() == 3);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.TASK_FAILURE);
        // ...the fresh worker restored from the sink's state in checkpoint 2...
        String state = "file:///cairn-it/" + job + "/chk-2/sink-0";
        RestorePoint expected = new RestorePoint(2, state, 1_000, false, List.of(), 1, 1, 128,
                new KeyGroupRange(0, 127), List.of(new RestoredState(0, state, 1_000, List.of())));
        assertThat(restartedSink.restores()).containsExactly(Optional.of(expected));
        assertThat(second.restoredFrom()).contains(expected);
        // ...and checkpoints resume with the new attempt
        CheckpointCompleted resumed = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() > 3);
        assertThat(bed.states(resumed)).filteredOn(s -> s.getTaskId().equals("sink"))
                .extracting(SubtaskState::getAttemptId).containsExactly(second.attemptId());
        await().atMost(CoordinatorTestBed.WAIT).until(() -> restartedSink.completions().stream()
                .anyMatch(n -> n.checkpointId() == resumed.getCheckpointId()));
        // ...each request telling the worker the newest completed checkpoint: first its restore point's, 2
        assertThat(restartedSink.snapshots()).first().extracting(SnapshotRequest::latestCompletedId).isEqualTo(2L);
        assertThat(restartedSink.snapshots()).extracting(SnapshotRequest::latestCompletedId).isSorted()
                .allMatch(latest -> latest >= 2);
        // the stopped attempt never answered checkpoint 3
        assertThat(bed.journal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 3
                && a.getAttemptId().equals(first.attemptId()))).isEmpty();
        assertThat(bed.journal(CheckpointDeclined.class, d -> d.getJobId().equals(job))).isEmpty();
        assertThat(first.isRunning()).isFalse();
    }

    /** The hook the sidecar process instantiates by class name; it acks everything. */
    public static final class ProcessHook implements SnapshotHook {
        static final AtomicReference<RecordingHook> LATEST = new AtomicReference<>();
        private final RecordingHook recording = RecordingHook.acking();

        public ProcessHook() {
            LATEST.set(recording);
        }

        @Override
        public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
            return recording.snapshot(request);
        }

        @Override
        public void notifyComplete(long checkpointId, long lastSubsumedId) {
            recording.notifyComplete(checkpointId, lastSubsumedId);
        }

        @Override
        public void notifyAborted(long checkpointId, long latestCompletedId) {
            recording.notifyAborted(checkpointId, latestCompletedId);
        }

        @Override
        public void restore(Optional<RestorePoint> from) {
            recording.restore(from);
        }
    }

    @Test
    void shouldServeTheHookItsSettingsNameUntilStoppedWhenRunAsAProcess() throws Exception {
        // given a job and the settings of a sidecar process, from the environment only
        String job = CoordinatorTestBed.uniqueJobId("process");
        bed.register(Events.job(job, 150, 10_000, "only"));
        Map<String, String> env = Map.of(
                SidecarKeys.SCHEMA.envName("bootstrap.servers"), bed.bootstrapServers(),
                SidecarKeys.SCHEMA.envName("topic.prefix"), bed.topics().prefix(),
                SidecarKeys.SCHEMA.envName("job.id"), job,
                SidecarKeys.SCHEMA.envName("task.id"), "only",
                SidecarKeys.SCHEMA.envName("subtask.index"), "0",
                SidecarKeys.SCHEMA.envName("hook.class"), ProcessHook.class.getName(),
                SidecarKeys.SCHEMA.envName("kafka.linger.ms"), "1",
                SidecarKeys.SCHEMA.envName(SidecarKeys.AUTH_KEY), bed.jobKey(job).orElseThrow().toBase64());
        SidecarMain main = SidecarMainAccess.create(env);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> SidecarMainAccess.execute(main));

        // when it has served two checkpoints and is stopped
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 2);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> ProcessHook.LATEST.get() != null
                && ProcessHook.LATEST.get().completions().size() >= 2);
        SidecarMainAccess.stop(main);

        // then it exits cleanly, having told its worker of both completions
        assertThat(exit.get()).isZero();
        assertThat(ProcessHook.LATEST.get().completions()).startsWith(new RecordingHook.Notification(1, -1),
                new RecordingHook.Notification(2, 1));
    }
}
