package dev.cairn.sidecar.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SharedObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RestorePointsTest {

    static {
        ControlEvents.trustCairnClasses();
    }

    @Test
    void shouldRestoreItsOwnSubtasksStateFromThePartsOfTheNewestRetainedCheckpoint() {
        RetainedCheckpoints retained = retained(checkpoint(4, 1), checkpoint(5, 2));
        List<RestorePart> parts = List.of(part(5, 0, 2, "map", 0), part(5, 1, 2, "map", 1), part(4, 0, 1, "map", 1));

        Optional<RestorePoint> point = RestorePoints.latest(Optional.of(retained), parts, "map", 1);

        assertThat(point).contains(new RestorePoint(5, "file:///cp/chk-5/map-1", 501));
    }

    @Test
    void shouldHandOverTheSharedObjectsWhenTheSubtasksStateNamesThem() {
        // given
        RetainedCheckpoints retained = retained(checkpoint(5, 1));
        SubtaskState incremental = state(5, "map", 1);
        incremental.getHandle().setShared(List.of(new SharedState("file:///cp/shared/sst-2", 40L, true),
                new SharedState("file:///cp/shared/sst-5", 60L, false)));
        RestorePart part = new RestorePart("job", 5L, 0, 1, List.of(incremental), List.of());

        // when
        Optional<RestorePoint> point = RestorePoints.latest(Optional.of(retained), List.of(part), "map", 1);

        // then
        assertThat(point).contains(new RestorePoint(5, "file:///cp/chk-5/map-1", 501, false, List.of(
                SharedObject.reused("file:///cp/shared/sst-2", 40),
                SharedObject.written("file:///cp/shared/sst-5", 60))));
    }

    @Test
    void shouldStartFreshWhenNothingIsRetained() {
        assertThat(RestorePoints.latest(Optional.empty(), List.of(), "map", 0)).isEmpty();
        assertThat(RestorePoints.latest(Optional.of(retained()), List.of(), "map", 0)).isEmpty();
    }

    @Test
    void shouldStartFreshWhenTheNewestCheckpointHoldsNothingForItsSubtask() {
        // an older checkpoint's part has state for sink 0, but the newest one (after a plan change) has not
        RetainedCheckpoints retained = retained(checkpoint(4, 1), checkpoint(5, 1));
        List<RestorePart> parts = List.of(part(4, 0, 1, "sink", 0), part(5, 0, 1, "map", 0));

        assertThat(RestorePoints.latest(Optional.of(retained), parts, "sink", 0)).isEmpty();
    }

    @Test
    void shouldReadTheStatesAVersionOneCompletionListsItself() {
        CheckpointCompleted v1 = checkpoint(3, -1);
        v1.setSubtaskStates(List.of(state(3, "map", 0), state(3, "map", 1)));

        assertThat(RestorePoints.latest(Optional.of(retained(v1)), List.of(), "map", 1))
                .contains(new RestorePoint(3, "file:///cp/chk-3/map-1", 301));
    }

    @Test
    void shouldRestoreAParticipantFromItsEntryInTheNewestRetainedCheckpoint() {
        // given the newest checkpoint holds two participants' states; the older one another state
        CheckpointCompleted older = checkpoint(4, 1);
        older.setParticipantStates(List.of(participant("offsets", "file:///cp/chk-4/offsets")));
        CheckpointCompleted newest = checkpoint(5, 1);
        newest.setParticipantStates(List.of(participant("enumerator", "file:///cp/chk-5/enumerator"),
                participant("offsets", "file:///cp/chk-5/offsets")));

        // when
        Optional<RestorePoint> point = RestorePoints.participant(Optional.of(retained(older, newest)), "offsets");

        // then
        assertThat(point).contains(new RestorePoint(5, "file:///cp/chk-5/offsets", 7));
    }

    @Test
    void shouldStartAParticipantFreshWhenTheNewestCheckpointHasNoStateForIt() {
        // given
        CheckpointCompleted older = checkpoint(4, 1);
        older.setParticipantStates(List.of(participant("offsets", "file:///cp/chk-4/offsets")));
        CheckpointCompleted nothingKept = checkpoint(5, 1);
        nothingKept.setParticipantStates(List.of(new ParticipantState("offsets", null)));
        CheckpointCompleted notAParticipantThen = checkpoint(6, 1);

        // then
        assertThat(RestorePoints.participant(Optional.of(retained(older, nothingKept)), "offsets")).isEmpty();
        assertThat(RestorePoints.participant(Optional.of(retained(older, notAParticipantThen)), "offsets")).isEmpty();
        assertThat(RestorePoints.participant(Optional.empty(), "offsets")).isEmpty();
        assertThat(RestorePoints.participant(Optional.of(retained()), "offsets")).isEmpty();
    }

    private static ParticipantState participant(String name, String location) {
        return new ParticipantState(name, StateHandle.newBuilder().setLocation(location).setSizeBytes(7L).build());
    }

    private static RetainedCheckpoints retained(CheckpointCompleted... checkpoints) {
        return RetainedCheckpoints.newBuilder().setJobId("job").setCheckpoints(List.of(checkpoints)).build();
    }

    /** A completed checkpoint of {@code subtasks} states (-1: a version 1 record). */
    private static CheckpointCompleted checkpoint(long id, int subtasks) {
        return CheckpointCompleted.newBuilder().setJobId("job").setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("file:///cp/chk-" + id)
                .setSubtaskStates(List.of()).setSubtaskCount(subtasks).setTotalSizeBytes(0).build();
    }

    /** One restore part with states for (task, subtask) pairs. */
    private static RestorePart part(long id, int part, int parts, Object... taskAndSubtask) {
        List<SubtaskState> states = new ArrayList<>();
        for (int i = 0; i < taskAndSubtask.length; i += 2) {
            states.add(state(id, (String) taskAndSubtask[i], (Integer) taskAndSubtask[i + 1]));
        }
        return new RestorePart("job", id, part, parts, states, List.of());
    }

    private static SubtaskState state(long id, String task, int subtask) {
        return SubtaskState.newBuilder().setTaskId(task).setSubtaskIndex(subtask).setAttemptId("a")
                .setHandle(StateHandle.newBuilder().setLocation("file:///cp/chk-" + id + "/" + task + "-" + subtask)
                        .setSizeBytes(id * 100 + subtask).build())
                .build();
    }
}
