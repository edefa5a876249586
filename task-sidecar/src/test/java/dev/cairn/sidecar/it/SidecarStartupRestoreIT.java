package dev.cairn.sidecar.it;

import static dev.cairn.sidecar.it.ControlRecordsBed.WAIT;
import static dev.cairn.sidecar.it.ControlRecordsBed.completed;
import static dev.cairn.sidecar.it.ControlRecordsBed.trigger;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A sidecar starting while a completion is visible on the control topic but not yet on the completed topic: the
 * coordinator writes both in one transaction, which Kafka makes visible partition by partition (during a leader
 * change, the completed topic can lag). Written by hand here: the completion to control only, then the restore point.
 */
class SidecarStartupRestoreIT extends ControlRecordsTestBase {

    /** How long a sidecar that did not wait would take, at most, to restore from the older point. */
    private static final Duration WAITING = Duration.ofSeconds(3);

    @Test
    void shouldNumberEveryAttemptOfTheJobAfterTheAttemptsRegisteredBeforeIt() {
        // given one attempt of sink 0, then one of source 1 of the same job
        String job = CoordinatorTestBed.uniqueJobId("attempt-numbers");
        RecordingHook first = RecordingHook.acking();
        Sidecar sink = bed.start(bed.taskConfig(job, "sink", 0), first);
        RecordingHook second = RecordingHook.acking();
        bed.start(bed.taskConfig(job, "source", 1), second);

        // when sink 0 starts again
        sink.close();
        RecordingHook third = RecordingHook.acking();
        Sidecar again = bed.start(bed.taskConfig(job, "sink", 0), third);

        // then each worker was handed its own attempt with a number greater than every attempt registered before
        assertThat(first.attempts()).singleElement().extracting(AttemptNumber::attemptId)
                .isEqualTo(sink.attempt().attemptId());
        assertThat(third.attempts()).singleElement().extracting(AttemptNumber::attemptId)
                .isEqualTo(again.attempt().attemptId());
        long one = first.attempts().get(0).number();
        long two = second.attempts().get(0).number();
        long three = third.attempts().get(0).number();
        assertThat(one).isLessThan(two);
        assertThat(two).isLessThan(three);
    }

    @Test
    void shouldRestoreTheCompletionVisibleOnControlWhenTheCompletedTopicCatchesUpLater() {
        // given the completed topic shows checkpoint 4, and control already shows 5 completed
        String job = CoordinatorTestBed.uniqueJobId("startup-behind");
        bed.retain(retained(job, 4));
        bed.control(job, completed(job, 4, 3, null));
        bed.control(job, completed(job, 5, 4, null));

        // when a sidecar starts, and the completed topic shows 5 only after a while
        RecordingHook hook = RecordingHook.acking();
        CompletableFuture<Sidecar> starting = CompletableFuture.supplyAsync(
                () -> bed.start(bed.taskConfig(job, "sink", 0), hook));
        await().during(WAITING).atMost(WAITING.multipliedBy(3)).until(() -> hook.restores().isEmpty());
        assertThat(starting).isNotDone();
        bed.retain(retained(job, 5));

        // then the worker restores from 5 only, never from 4
        Sidecar sidecar = starting.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        RestorePoint five = new RestorePoint(5, location(job, 5), 100);
        assertThat(hook.restores()).containsExactly(Optional.of(five));
        assertThat(sidecar.restoredFrom()).contains(five);
        // and its first snapshot request knows that 5 completed
        bed.control(job, trigger(job, 6, CheckpointType.CHECKPOINT, null));
        bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 6);
        assertThat(hook.snapshots()).first().extracting(SnapshotRequest::latestCompletedId).isEqualTo(5L);
    }

    @Test
    void shouldTellTheFirstRequestOfACompletionSeenOnlyOnControlWhenItIsNoRestorePoint() {
        // given the restore point 4, and a plain savepoint 5 completed after it (the user's: no restore point)
        String job = CoordinatorTestBed.uniqueJobId("startup-savepoint");
        bed.retain(retained(job, 4));
        bed.control(job, completed(job, 4, 3, null));
        CheckpointCompleted savepoint = completed(job, 5, 4,
                SnapshotOptions.newBuilder().setPostCheckpointAction(PostCheckpointAction.NONE).build());
        savepoint.setType(CheckpointType.SAVEPOINT);
        bed.control(job, savepoint);

        // when
        RecordingHook hook = RecordingHook.acking();
        bed.start(bed.taskConfig(job, "sink", 0), hook);
        bed.control(job, trigger(job, 6, CheckpointType.CHECKPOINT, null));

        // then the worker restored from 4 at once, and its first request knows that 5 completed
        assertThat(hook.restores()).containsExactly(Optional.of(new RestorePoint(4, location(job, 4), 100)));
        bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 6);
        assertThat(hook.snapshots()).first().extracting(SnapshotRequest::latestCompletedId).isEqualTo(5L);
    }

    private static String location(String job, long id) {
        return "file:///cairn-it/" + job + "/chk-" + id + "/sink-0";
    }

    /** The job's retained checkpoints up to {@code newest}, each listing the sink's state (a version 1 record). */
    private static RetainedCheckpoints retained(String job, long newest) {
        CheckpointCompleted older = withSinkState(completed(job, newest - 1, newest - 2, null), job);
        CheckpointCompleted latest = withSinkState(completed(job, newest, newest - 1, null), job);
        return RetainedCheckpoints.newBuilder().setJobId(job).setCheckpoints(List.of(older, latest)).build();
    }

    private static CheckpointCompleted withSinkState(CheckpointCompleted completed, String job) {
        completed.setSubtaskCount(-1);
        completed.setSubtaskStates(List.of(new SubtaskState("sink", 0, "attempt-old",
                StateHandle.newBuilder().setLocation(location(job, completed.getCheckpointId())).setSizeBytes(100L)
                        .build(), -1)));
        return completed;
    }
}
