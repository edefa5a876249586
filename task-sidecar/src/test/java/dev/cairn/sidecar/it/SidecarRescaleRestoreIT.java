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
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sidecars of a task rescaled from 2 to 3 subtasks (max parallelism 128) start on restore parts written by hand as
 * the coordinator writes them: a subtask restores every state handed to it once the completed topic shows every part
 * of the checkpoint, and declares its new key groups with its snapshots; a subtask the job no longer has restores
 * nothing.
 */
class SidecarRescaleRestoreIT extends ControlRecordsTestBase {

    /** How long a sidecar that did not wait for the second part would take, at most, to restore. */
    private static final Duration WAITING = Duration.ofSeconds(3);
    private static final List<RestoredTask> TASKS = List.of(new RestoredTask("map", 3, 128, 2));

    @Test
    void shouldRestoreEveryHandedStateWhenTheLastPartShowsAfterTheSidecarStarted() {
        // given checkpoint 5 and the first of its two parts
        String job = CoordinatorTestBed.uniqueJobId("rescaled");
        bed.retain(retained(job));
        bed.restorePart(part(job, 0, entry(job, 0, 0, 0, 63), entry(job, 1, 0, 0, 63)));

        // when subtask 1 starts, and the second part shows only after a while
        RecordingHook hook = RecordingHook.answering(request -> CompletableFuture.completedFuture(
                RecordingHook.stateOf(request).withKeyGroups(KeyGroupRange.forSubtask(128, 3, 1))));
        CompletableFuture<Sidecar> starting = CompletableFuture.supplyAsync(
                () -> bed.start(bed.taskConfig(job, "map", 1), hook));
        await().during(WAITING).atMost(WAITING.multipliedBy(3)).until(() -> hook.restores().isEmpty());
        assertThat(starting).isNotDone();
        bed.restorePart(part(job, 1, entry(job, 1, 1, 64, 127), entry(job, 2, 1, 64, 127)));

        // then it restores once, from the states of old subtasks 0 and 1, owning key groups 43 to 85
        starting.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        assertThat(hook.restores()).containsExactly(Optional.of(new RestorePoint(5, null, 0, false, List.of(), 3, 2,
                128, new KeyGroupRange(43, 85), List.of(
                        new RestoredState(0, location(job, 0), 64, List.of(), new KeyGroupRange(0, 63), null),
                        new RestoredState(1, location(job, 1), 64, List.of(), new KeyGroupRange(64, 127), null)))));
        // and its next snapshot's ack declares its new key groups
        bed.control(job, trigger(job, 6, CheckpointType.CHECKPOINT, null));
        CheckpointAcknowledged ack = bed.awaitAck(CheckpointAcknowledged.class,
                a -> a.getJobId().equals(job) && a.getCheckpointId() == 6);
        assertThat(ack.getStateHandle().getKeyGroups()).isEqualTo(new dev.cairn.events.KeyGroupRange(43, 85));
    }

    @Test
    void shouldRestoreNothingWhenTheJobNoLongerHasTheSubtask() {
        // given checkpoint 5 with both its parts
        String job = CoordinatorTestBed.uniqueJobId("rescaled-gone");
        bed.retain(retained(job));
        bed.restorePart(part(job, 0, entry(job, 0, 0, 0, 63), entry(job, 1, 0, 0, 63)));
        bed.restorePart(part(job, 1, entry(job, 1, 1, 64, 127), entry(job, 2, 1, 64, 127)));

        // when subtask 3 of a task that restores with 3 subtasks starts
        RecordingHook hook = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.taskConfig(job, "map", 3), hook);

        // then
        assertThat(hook.restores()).containsExactly(Optional.empty());
        assertThat(sidecar.restoredFrom()).isEmpty();
    }

    private static String location(String job, int from) {
        return "file:///cairn-it/" + job + "/chk-5/map-" + from;
    }

    /** The job's restore point: checkpoint 5, taken with 2 subtasks of map. */
    private static RetainedCheckpoints retained(String job) {
        CheckpointCompleted five = completed(job, 5, 4, null);
        five.setSubtaskCount(2);
        return RetainedCheckpoints.newBuilder().setJobId(job).setCheckpoints(List.of(five)).build();
    }

    private static RestorePart part(String job, int number, SubtaskState... states) {
        return new RestorePart(job, 5L, number, 2, List.of(states), TASKS);
    }

    /** The keyed state of old subtask {@code from}, handed to new subtask {@code subtask}. */
    private static SubtaskState entry(String job, int subtask, int from, int start, int end) {
        return new SubtaskState("map", subtask, "attempt-" + from, StateHandle.newBuilder()
                .setLocation(location(job, from)).setSizeBytes(64L)
                .setKeyGroups(new dev.cairn.events.KeyGroupRange(start, end)).build(), from);
    }
}
