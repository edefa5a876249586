package dev.cairn.sidecar.it;

import static dev.cairn.sidecar.it.ControlRecordsBed.WAIT;
import static dev.cairn.sidecar.it.ControlRecordsBed.aborted;
import static dev.cairn.sidecar.it.ControlRecordsBed.completed;
import static dev.cairn.sidecar.it.ControlRecordsBed.discarded;
import static dev.cairn.sidecar.it.ControlRecordsBed.trigger;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.SnapshotRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A task sidecar against hand-written control records: stop-with-savepoint (stopping, or the stop failing), a
 * worker that finishes, and states the coordinator discarded.
 */
class SidecarStopFinishDiscardIT extends ControlRecordsTestBase {

    /** Long enough for a wrongly started snapshot to reach the hook once its trigger has been handled. */
    private static final Duration QUIET = Duration.ofMillis(500);

    private static SnapshotOptions stop(PostCheckpointAction action) {
        return SnapshotOptions.newBuilder().setPostCheckpointAction(action).build();
    }

    private static SnapshotOptions plain() {
        return SnapshotOptions.newBuilder().build();
    }

    @Test
    void shouldTellTheWorkerTheJobIsStoppingAndSnapshotNoMoreWhenAStopWithSavepointCompletes() {
        // given a sidecar that snapshotted stop-with-savepoint 3 (drain)
        String job = CoordinatorTestBed.uniqueJobId("stop");
        RecordingHook hook = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.taskConfig(job, "sink", 0), hook);
        bed.control(job, trigger(job, 3, CheckpointType.SAVEPOINT, stop(PostCheckpointAction.TERMINATE)));
        bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 3);
        SnapshotRequest request = hook.snapshots().get(0);
        assertThat(request.options().synchronous()).isTrue();
        assertThat(request.options().drain()).isTrue();

        // when it completes, and a checkpoint is triggered after it
        bed.control(job, completed(job, 3, -1, stop(PostCheckpointAction.TERMINATE)));
        bed.control(job, trigger(job, 4, CheckpointType.CHECKPOINT, plain()));
        bed.control(job, discarded(sidecar.attempt(), 2, AckDiscardStatus.UNKNOWN, "file:///marker"));

        // then the worker learns the job stops, and no snapshot is taken after it
        await().atMost(WAIT).until(() -> hook.discards().size() == 1);
        assertThat(hook.completionNotices()).containsExactly(new CheckpointCompletion(3, -1, true, true));
        assertThat(sidecar.isStopping()).isTrue();
        await().during(QUIET).atMost(QUIET.multipliedBy(4)).until(() -> hook.snapshots().size() == 1);
    }

    @Test
    void shouldTellTheWorkerTheStopFailedAndKeepSnapshottingWhenAStopWithSavepointIsAborted() {
        // given a sidecar that snapshotted stop-with-savepoint 3 (no drain)
        String job = CoordinatorTestBed.uniqueJobId("stop-failed");
        RecordingHook hook = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.taskConfig(job, "sink", 0), hook);
        bed.control(job, trigger(job, 3, CheckpointType.SAVEPOINT, stop(PostCheckpointAction.SUSPEND)));
        bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 3);

        // when the stop fails, and a checkpoint is triggered after it
        bed.control(job, aborted(job, 3, stop(PostCheckpointAction.SUSPEND)));
        bed.control(job, trigger(job, 4, CheckpointType.CHECKPOINT, plain()));

        // then the worker learns it resumes, and checkpoint 4 is snapshotted
        bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 4);
        assertThat(hook.abortNotices()).containsExactly(new CheckpointAbort(3, -1, true));
        assertThat(sidecar.isStopping()).isFalse();
    }

    @Test
    void shouldPublishTaskFinishedAndSnapshotNoMoreWhenTheWorkerFinishes() {
        // given
        String job = CoordinatorTestBed.uniqueJobId("finish");
        RecordingHook hook = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.taskConfig(job, "source", 1), hook);

        // when the worker's bounded input is exhausted
        sidecar.finish("file:///final/source-1", 42);

        // then
        TaskFinished finished = bed.awaitAck(TaskFinished.class, f -> f.getJobId().equals(job));
        assertThat(finished.getTaskId()).isEqualTo("source");
        assertThat(finished.getSubtaskIndex()).isEqualTo(1);
        assertThat(finished.getAttemptId()).isEqualTo(sidecar.attemptId());
        assertThat(finished.getFinalState()).isEqualTo(
                StateHandle.newBuilder().setLocation("file:///final/source-1").setSizeBytes(42L).build());
        assertThat(sidecar.isFinished()).isTrue();

        // and when a checkpoint is triggered and completes, the worker is told but takes no snapshot
        bed.control(job, trigger(job, 5, CheckpointType.CHECKPOINT, plain()));
        bed.control(job, completed(job, 5, 4, plain()));
        await().atMost(WAIT).until(() -> hook.completions().size() == 1);
        assertThat(hook.completionNotices()).containsExactly(new CheckpointCompletion(5, 4, false, false));
        await().during(QUIET).atMost(QUIET.multipliedBy(4)).until(() -> hook.snapshots().isEmpty());
        assertThat(bed.acks(TaskFinished.class, f -> f.getJobId().equals(job))).hasSize(1);
    }

    @Test
    void shouldHandTheDiscardedStateToTheWorkerOnceWhenTheCoordinatorDiscardsItsAck() {
        // given
        String job = CoordinatorTestBed.uniqueJobId("discard");
        RecordingHook hook = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.taskConfig(job, "map", 2), hook);
        TaskAttempt me = sidecar.attempt();
        TaskAttempt stale = new TaskAttempt(job, "map", 2, "an-earlier-attempt");

        // when the coordinator discards its late ack twice, another attempt's, a duplicate, then another state
        bed.control(job, discarded(me, 7, AckDiscardStatus.LATE, "file:///s/7"));
        bed.control(job, discarded(me, 7, AckDiscardStatus.LATE, "file:///s/7"));
        bed.control(job, discarded(stale, 7, AckDiscardStatus.DISCARDED, "file:///s/7-stale"));
        bed.control(job, discarded(me, 7, AckDiscardStatus.DUPLICATE, "file:///s/7-accepted"));
        bed.control(job, discarded(me, 8, AckDiscardStatus.UNKNOWN, "file:///s/8"));

        // then the worker is handed its two states, once each
        await().atMost(WAIT).until(() -> hook.discards().size() == 2);
        assertThat(hook.discards()).extracting(DiscardedState::checkpointId, DiscardedState::location,
                DiscardedState::status).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(7L, "file:///s/7", AckDiscardStatus.LATE),
                        org.assertj.core.groups.Tuple.tuple(8L, "file:///s/8", AckDiscardStatus.UNKNOWN));
    }
}
