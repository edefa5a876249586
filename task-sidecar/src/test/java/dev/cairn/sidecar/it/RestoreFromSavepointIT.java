package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TriggerRequest;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Savepoints a job comes back from, against the real coordinator: the savepoint of a stop is what a restarted worker
 * restores, and a stopped job restored from an older savepoint in NO_CLAIM mode hands every new worker that savepoint,
 * goes on with new checkpoint ids, takes a full checkpoint first, and never tells a worker to discard the savepoint.
 */
class RestoreFromSavepointIT extends SidecarTestBase {

    private static final String SAVEPOINT_PATH = "file:///savepoints/older";

    private static TriggerRequest savepoint(String job, String requestId, String target, PostCheckpointAction action) {
        return Events.triggerRequest(job, requestId).setType(CheckpointType.SAVEPOINT).setTargetLocation(target)
                .setPostCheckpointAction(action).build();
    }

    private static JobSpec incrementalJob(String job) {
        JobSpec spec = Events.job(job, 200, 10_000, "map");
        spec.getConfig().setBackupType(BackupType.INCREMENTAL);
        return spec;
    }

    private static CheckpointCompleted completion(String job, String requestId) {
        long id = bed.awaitJournal(dev.cairn.events.RequestOutcome.class, o -> o.getJobId().equals(job)
                && o.getRequestId().equals(requestId) && o.getCheckpointId() != null).getCheckpointId();
        return bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == id);
    }

    private static CheckpointTriggered triggerOf(String job, CheckpointCompleted completed) {
        return bed.awaitJournal(CheckpointTriggered.class, t -> t.getJobId().equals(job)
                && t.getCheckpointId() == completed.getCheckpointId());
    }

    @Test
    void shouldHandAWorkerStartedAfterTheStopTheStopsSavepoint() {
        // given a job that completed checkpoints and was stopped with a savepoint
        String job = CoordinatorTestBed.uniqueJobId("stop-restore");
        bed.register(Events.job(job, 200, 10_000, "map"));
        sidecars.start(job, "map", 0, RecordingHook.acking());
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() >= 2);
        bed.sendRequest(job, new RequestEnvelope(savepoint(job, "stop", null, PostCheckpointAction.SUSPEND)));
        CheckpointCompleted stop = completion(job, "stop");
        bed.awaitJournal(JobStatusChange.class, s -> s.getJobId().equals(job) && s.getStatus() == JobStatus.FINISHED);
        sidecars.stopAll();

        // when a new worker starts (its sink had not committed the stop's results), and the job runs again
        RecordingHook restarted = RecordingHook.acking();
        sidecars.start(job, "map", 0, restarted);
        bed.changeStatus(job, JobStatus.RUNNING);

        // then it restored the stop's savepoint, not the checkpoint before it, and the ids go on above it
        assertThat(restarted.restores()).extracting(r -> r.map(RestorePoint::checkpointId))
                .containsExactly(Optional.of(stop.getCheckpointId()));
        CheckpointTriggered next = bed.awaitJournal(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && t.getCheckpointId() > stop.getCheckpointId());
        assertThat(next.getCheckpointId()).isEqualTo(stop.getCheckpointId() + 1);
    }

    @Test
    void shouldRestoreAnOlderSavepointInNoClaimModeWhileNewerCheckpointsExist() {
        // given a job with a savepoint, two newer checkpoints, and a stop
        String job = CoordinatorTestBed.uniqueJobId("no-claim");
        bed.register(incrementalJob(job));
        RecordingHook first = RecordingHook.acking();
        sidecars.start(job, "map", 0, first);
        bed.sendRequest(job, new RequestEnvelope(savepoint(job, "older", SAVEPOINT_PATH, PostCheckpointAction.NONE)));
        CheckpointCompleted older = completion(job, "older");
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job)
                && c.getType() == CheckpointType.CHECKPOINT && c.getCheckpointId() >= older.getCheckpointId() + 2);
        bed.sendRequest(job, new RequestEnvelope(savepoint(job, "stop", null, PostCheckpointAction.SUSPEND)));
        CheckpointCompleted stop = completion(job, "stop");
        bed.awaitJournal(JobStatusChange.class, s -> s.getJobId().equals(job) && s.getStatus() == JobStatus.FINISHED);
        sidecars.stopAll();
        String savepointState = bed.states(older).get(0).getHandle().getLocation();

        // when the job is restored from the older savepoint, by its path, in NO_CLAIM mode, and a worker starts
        bed.sendRequest(job, new RequestEnvelope(RestoreJob.newBuilder().setJobId(job).setRequestId("restore")
                .setSavepointPath(SAVEPOINT_PATH).setRestoreMode(RestoreMode.NO_CLAIM).setRequester("it")
                .setTimestampMs(System.currentTimeMillis()).build()));
        JobRestored restored = bed.awaitJournal(JobRestored.class, r -> r.getJobId().equals(job));
        RecordingHook second = RecordingHook.acking();
        sidecars.start(job, "map", 0, second);

        // then the worker restores the savepoint, on purpose
        assertThat(restored.getRestorePoint().getCheckpointId()).isEqualTo(older.getCheckpointId());
        assertThat(second.restores()).containsExactly(Optional.of(new RestorePoint(older.getCheckpointId(),
                savepointState, 1_000, true, List.of(), 1, 1, 128, new KeyGroupRange(0, 127),
                List.of(new RestoredState(0, savepointState, 1_000, List.of())))));
        // and the checkpoints after it take new ids, the first completed one full, and none says the savepoint is
        // subsumed (a checkpoint triggered before the new worker registered is aborted: its attempt was replaced)
        CheckpointCompleted firstAfter = bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job)
                && c.getCheckpointId() > stop.getCheckpointId());
        CheckpointCompleted secondAfter = bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job)
                && c.getCheckpointId() > firstAfter.getCheckpointId());
        assertThat(triggerOf(job, firstAfter).getOptions().getBackupType()).isEqualTo(BackupType.FULL);
        assertThat(triggerOf(job, secondAfter).getOptions().getBackupType()).isEqualTo(BackupType.INCREMENTAL);
        assertThat(List.of(firstAfter, secondAfter)).extracting(CheckpointCompleted::getLastSubsumedId)
                .containsExactly(-1L, firstAfter.getCheckpointId());
        await().atMost(CoordinatorTestBed.WAIT).until(() -> second.completions().size() >= 2);
        assertThat(second.discards()).noneMatch(d -> d.location().equals(savepointState));
        assertThat(second.completions()).noneMatch(n -> n.otherId() >= older.getCheckpointId()
                && n.otherId() < firstAfter.getCheckpointId());
    }
}
