package dev.cairn.sidecar.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SharedObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a subtask restores when the restore parts say how its task restores: rescaled or not, and from which parts. */
class RestorePointsRescaleTest {

    private static final Optional<RetainedCheckpoints> RETAINED = Optional.of(RetainedCheckpoints.newBuilder()
            .setJobId("job").setCheckpoints(List.of(checkpoint(4), checkpoint(5))).build());

    static {
        ControlEvents.trustCairnClasses();
    }

    @Test
    void shouldHandEveryStateOfARescaledSubtaskWhenTheyAreSpreadOverTwoParts() {
        // given map goes from 2 to 3 subtasks (max parallelism 128); new subtask 1 reads old 0's and old 1's keyed
        // states and both union states, in two parts; other subtasks' entries and an older checkpoint's part between
        List<RestoredTask> tasks = List.of(task("map", 3, 128, 2), task("sink", 1, 128, 1));
        RestorePart first = part(5, 0, 2, tasks, entry("map", 0, 0, keyed(0, 63)), entry("map", 1, 0, keyed(0, 63)),
                entry("map", 1, 0, union("file:///cp/chk-5/map-0-offsets")));
        RestorePart second = part(5, 1, 2, tasks, entry("map", 1, 1, keyed(64, 127)),
                entry("map", 1, 1, union("file:///cp/chk-5/map-1-offsets")), entry("map", 2, 1, keyed(64, 127)));
        RestorePart older = part(4, 2, 3, tasks, entry("map", 1, 0, keyed(0, 63)));

        // when
        Optional<RestorePoint> point = RestorePoints.latest(RETAINED, List.of(second, older, first), "map", 1);

        // then
        assertThat(point).contains(new RestorePoint(5, null, 0, false, List.of(), 3, 2, 128,
                new KeyGroupRange(43, 85), List.of(
                        new RestoredState(0, "file:///cp/chk-5/map-0-0-63", 64, List.of(), new KeyGroupRange(0, 63),
                                null),
                        new RestoredState(0, "file:///cp/chk-5/map-0-offsets", 8, List.of(), null,
                                OperatorStateMode.UNION),
                        new RestoredState(1, "file:///cp/chk-5/map-1-64-127", 64, List.of(),
                                new KeyGroupRange(64, 127), null),
                        new RestoredState(1, "file:///cp/chk-5/map-1-offsets", 8, List.of(), null,
                                OperatorStateMode.UNION))));
        assertThat(point.get().rescaled()).isTrue();
    }

    @Test
    void shouldTellANewSubtaskItsKeyGroupsWhenItHasNoStateToRead() {
        // given map goes from 2 to 4 subtasks, and no state is handed to new subtask 3
        List<RestoredTask> tasks = List.of(task("map", 4, 128, 2));
        RestorePart only = part(5, 0, 1, tasks, entry("map", 0, 0, keyed(0, 63)), entry("map", 2, 1, keyed(64, 127)));

        // when
        Optional<RestorePoint> point = RestorePoints.latest(RETAINED, List.of(only), "map", 3);

        // then
        assertThat(point).contains(new RestorePoint(5, null, 0, false, List.of(), 4, 2, 128,
                new KeyGroupRange(96, 127), List.of()));
        assertThat(point.get().rescaled()).isTrue();
    }

    @Test
    void shouldRestoreItsOwnStateWithTheTasksLayoutWhenTheParallelismIsTheSame() {
        // given map keeps its 2 subtasks; subtask 1's own state declares its key groups and has a shared object
        SubtaskState own = entry("map", 1, -1, keyed(64, 127));
        own.getHandle().setShared(List.of(new SharedState("file:///cp/shared/sst-1", 10L, true)));
        RestorePart only = part(5, 0, 1, List.of(task("map", 2, 128, 2)), entry("map", 0, -1, keyed(0, 63)), own);

        // when
        Optional<RestorePoint> point = RestorePoints.latest(RETAINED, List.of(only), "map", 1);

        // then
        List<SharedObject> shared = List.of(SharedObject.reused("file:///cp/shared/sst-1", 10));
        assertThat(point).contains(new RestorePoint(5, "file:///cp/chk-5/map-1-64-127", 64, false, shared, 2, 2, 128,
                new KeyGroupRange(64, 127), List.of(new RestoredState(1, "file:///cp/chk-5/map-1-64-127", 64, shared,
                        new KeyGroupRange(64, 127), null))));
        assertThat(point.get().rescaled()).isFalse();
    }

    @Test
    void shouldRestoreAsBeforeWhenAnOlderCoordinatorWroteThePartsWithoutTasks() {
        // given parts without tasks, whose handle declares key groups all the same
        RestorePart only = part(5, 0, 1, List.of(), entry("map", 1, -1, keyed(64, 127)));

        // when
        Optional<RestorePoint> point = RestorePoints.latest(RETAINED, List.of(only), "map", 1);

        // then the point of today: its own state, the task's parallelism unknown
        assertThat(point).contains(new RestorePoint(5, "file:///cp/chk-5/map-1-64-127", 64));
        assertThat(point.get().parallelism()).isZero();
        assertThat(point.get().keyGroups()).isNull();
        assertThat(point.get().states()).containsExactly(new RestoredState(-1, "file:///cp/chk-5/map-1-64-127", 64,
                List.of()));
        assertThat(point.get().rescaled()).isFalse();
    }

    @Test
    void shouldRestoreNothingWhenTheJobNoLongerHasTheSubtasksIndex() {
        // given map goes from 4 to 2 subtasks; an entry for subtask 3 would be the coordinator's mistake
        RestorePart only = part(5, 0, 1, List.of(task("map", 2, 128, 4)), entry("map", 3, 3, keyed(96, 127)));

        assertThat(RestorePoints.latest(RETAINED, List.of(only), "map", 3)).isEmpty();
        assertThat(RestorePoints.restoredTask(RETAINED, List.of(only), "map")).contains(task("map", 2, 128, 4));
    }

    @Test
    void shouldNameTheTaskAndTheProblemWhenThePartsGiveAParallelismAboveTheMaxParallelism() {
        RestorePart only = part(5, 0, 1, List.of(task("map", 200, 128, 2)));

        assertThatThrownBy(() -> RestorePoints.latest(RETAINED, List.of(only), "map", 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the restore parts of checkpoint 5 name task map with parallelism 200 (previously 2) and"
                        + " max parallelism 128: parallelism 200 exceeds the max parallelism 128");
    }

    @Test
    void shouldNameTheTaskAndTheProblemWhenThePartsGiveNoParallelism() {
        RestorePart only = part(5, 0, 1, List.of(task("map", 0, 128, 2)));

        assertThatThrownBy(() -> RestorePoints.latest(RETAINED, List.of(only), "map", 0))
                .isInstanceOf(IllegalStateException.class).hasMessageEndingWith("parallelism must be >= 1, not 0");
    }

    @Test
    void shouldNameTheStateWhenItsKeyGroupRangeCannotBe() {
        SubtaskState broken = entry("map", 1, 0, keyed(0, 63));
        broken.getHandle().getKeyGroups().setStartKeyGroup(-4);
        RestorePart only = part(5, 0, 1, List.of(task("map", 3, 128, 2)), broken);

        assertThatThrownBy(() -> RestorePoints.latest(RETAINED, List.of(only), "map", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the restore parts of checkpoint 5 hand task map subtask 1 the state of"
                        + " subtask 0 (file:///cp/chk-5/map-0-0-63) with a key-group range that cannot be: ");
    }

    @Test
    void shouldNameTheMissingPartsWhenOnlySomeOfTheNewestCheckpointsPartsWereRead() {
        List<RestoredTask> tasks = List.of(task("map", 3, 128, 2));

        assertThat(RestorePoints.missingParts(RETAINED, List.of(part(5, 0, 3, tasks), part(5, 2, 3, tasks))))
                .contains("2 of the 3 restore parts of checkpoint 5 (missing: [1])");
        assertThat(RestorePoints.missingParts(RETAINED, List.of(part(5, 1, 2, tasks))))
                .contains("1 of the 2 restore parts of checkpoint 5 (missing: [0])");
    }

    @Test
    void shouldFindNothingMissingWhenThePartsAreWholeOrNoneWasWritten() {
        List<RestoredTask> tasks = List.of(task("map", 3, 128, 2));
        // a part key of a higher number still holding part 2 of an earlier layout of checkpoint 5 (3 parts)
        List<RestorePart> whole = List.of(part(5, 0, 2, tasks), part(5, 1, 2, tasks), part(5, 2, 3, tasks),
                part(4, 3, 4, tasks));

        assertThat(RestorePoints.missingParts(RETAINED, whole)).isEmpty();
        assertThat(RestorePoints.missingParts(RETAINED, List.of(part(4, 0, 1, tasks)))).isEmpty();
        assertThat(RestorePoints.missingParts(Optional.empty(), List.of())).isEmpty();
    }

    private static RestoredTask task(String id, int parallelism, int maxParallelism, int previousParallelism) {
        return new RestoredTask(id, parallelism, maxParallelism, previousParallelism);
    }

    private static StateHandle keyed(int start, int end) {
        return StateHandle.newBuilder().setLocation("file:///cp/chk-5/map-?-" + start + "-" + end)
                .setSizeBytes(end - start + 1L).setKeyGroups(new dev.cairn.events.KeyGroupRange(start, end)).build();
    }

    private static StateHandle union(String location) {
        return StateHandle.newBuilder().setLocation(location).setSizeBytes(8L)
                .setOperatorStateMode(dev.cairn.events.OperatorStateMode.UNION).build();
    }

    /** An entry for new subtask {@code subtask} of the handle of old subtask {@code from} (-1: its own). */
    private static SubtaskState entry(String task, int subtask, int from, StateHandle handle) {
        int writer = from >= 0 ? from : subtask;
        StateHandle named = StateHandle.newBuilder(handle)
                .setLocation(handle.getLocation().replace("?", Integer.toString(writer))).build();
        return SubtaskState.newBuilder().setTaskId(task).setSubtaskIndex(subtask).setAttemptId("attempt-" + writer)
                .setHandle(named).setFromSubtaskIndex(from).build();
    }

    private static RestorePart part(long id, int part, int parts, List<RestoredTask> tasks, SubtaskState... states) {
        return new RestorePart("job", id, part, parts, List.of(states), tasks);
    }

    private static CheckpointCompleted checkpoint(long id) {
        return CheckpointCompleted.newBuilder().setJobId("job").setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("file:///cp/chk-" + id)
                .setSubtaskStates(List.of()).setSubtaskCount(3).setTotalSizeBytes(0).build();
    }
}
