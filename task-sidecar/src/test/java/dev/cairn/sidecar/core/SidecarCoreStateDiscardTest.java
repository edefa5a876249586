package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.JOB;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.PARTICIPANT;
import static dev.cairn.sidecar.core.ControlEvents.TASK;
import static dev.cairn.sidecar.core.ControlEvents.discarded;
import static dev.cairn.sidecar.core.ControlEvents.participantObject;
import static dev.cairn.sidecar.core.ControlEvents.stateDiscarded;
import static dev.cairn.sidecar.core.ControlEvents.subtaskObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.StateDiscarded;
import dev.cairn.sidecar.core.SidecarAction.DiscardState;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The objects of a checkpoint's discarded state that name this subtask or participant go to its worker, once. */
class SidecarCoreStateDiscardTest {

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @ParameterizedTest
    @EnumSource(DiscardReason.class)
    void shouldHandTheSubtasksObjectsToTheWorkerWithTheReasonWhenACheckpointsStateIsDiscarded(DiscardReason reason) {
        // given checkpoint 4's state: this subtask's own object and a shared one, and other subtasks' objects
        StateDiscarded discard = stateDiscarded(4, reason,
                subtaskObject(TASK, 0, "file:///s/4/sink-0", false),
                subtaskObject(TASK, 1, "file:///s/4/sink-1", false),
                subtaskObject("map", 1, "file:///s/4/map-1", false),
                subtaskObject(TASK, 1, "file:///s/shared/sst-2", true),
                participantObject(PARTICIPANT, "file:///s/4/offsets"));

        // when
        List<SidecarAction> actions = core.onControl(discard, 1_000);

        // then
        String why = "checkpoint 4 " + reason.name().toLowerCase();
        assertThat(actions).containsExactly(
                new DiscardState(DiscardedState.ofCheckpoint(4, "file:///s/4/sink-1", 32, false, reason, why)),
                new DiscardState(DiscardedState.ofCheckpoint(4, "file:///s/shared/sst-2", 32, true, reason, why)));
    }

    @Test
    void shouldAlsoHandOverTheObjectsOfSubtasksARescaleDownRemovedWhoseIndexMapsToThisOne() {
        // given subtask 1 restored after its task went from 5 subtasks to 2
        RestorePoint rescaled = new RestorePoint(4, null, 0, false, List.of(), 2, 5, 128, null, List.of());
        SidecarCore afterRescale = new SidecarCore(ME, Duration.ofSeconds(5), Optional.of(rescaled));
        StateDiscarded discard = stateDiscarded(4, DiscardReason.SUBSUMED,
                subtaskObject(TASK, 0, "file:///s/4/sink-0", false),
                subtaskObject(TASK, 1, "file:///s/4/sink-1", false),
                subtaskObject(TASK, 2, "file:///s/4/sink-2", false),
                subtaskObject(TASK, 3, "file:///s/4/sink-3", false),
                subtaskObject(TASK, 4, "file:///s/4/sink-4", false));

        // when
        List<SidecarAction> actions = afterRescale.onStateDiscarded(discard);

        // then its own object and that of gone subtask 3 (3 % 2 == 1); subtask 0 deletes those of 2 and 4
        assertThat(actions).extracting(a -> ((DiscardState) a).state().location())
                .containsExactly("file:///s/4/sink-1", "file:///s/4/sink-3");
    }

    @Test
    void shouldHandOverTheObjectsOfAnEarlierAttemptWhenTheyNameThisSubtask() {
        // the objects name no attempt: a state acknowledged by the attempt before this one is this subtask's
        StateDiscarded discard = subsumed(2, "file:///s/2");

        assertThat(core.onStateDiscarded(discard)).singleElement().isInstanceOf(DiscardState.class);
    }

    @Test
    void shouldHandEachObjectOnceWhenTheSamePartArrivesTwice() {
        // given
        StateDiscarded discard = subsumed(4, "file:///s/4");
        core.onStateDiscarded(discard);

        // when
        List<SidecarAction> again = core.onStateDiscarded(discard);
        List<SidecarAction> otherCheckpoint = core.onStateDiscarded(stateDiscarded(5, DiscardReason.ABORTED,
                subtaskObject(TASK, 1, "file:///s/4", false)));

        // then
        assertThat(again).isEmpty();
        assertThat(otherCheckpoint).as("de-duplicated by checkpoint and location").hasSize(1);
    }

    @Test
    void shouldIgnoreTheDiscardWhenItIsAnotherJobsOrNamesNothingOfThisSubtask() {
        StateDiscarded otherJob = subsumed(4, "file:///s/4");
        otherJob.setJobId("payments");
        StateDiscarded othersOnly = stateDiscarded(4, DiscardReason.SUBSUMED,
                subtaskObject(TASK, 2, "file:///s/4/sink-2", false), participantObject(TASK, "file:///s/4/p"));

        assertThat(core.onStateDiscarded(otherJob)).isEmpty();
        assertThat(core.onStateDiscarded(othersOnly)).isEmpty();
    }

    @Test
    void shouldHandAParticipantOnlyItsOwnObjectsWhenACheckpointsStateIsDiscarded() {
        // given
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));
        StateDiscarded discard = stateDiscarded(4, DiscardReason.ABORTED,
                participantObject(PARTICIPANT, "file:///s/4/offsets"), participantObject("enumerator", "file:///s/4/e"),
                subtaskObject(PARTICIPANT, -1, "file:///s/4/not-a-participant", false));

        // when
        List<SidecarAction> actions = participant.onStateDiscarded(discard);

        // then
        assertThat(actions).containsExactly(new DiscardState(DiscardedState.ofCheckpoint(4, "file:///s/4/offsets", 16,
                false, DiscardReason.ABORTED, "checkpoint 4 aborted")));
    }

    @Test
    void shouldHandOutWhatNamesThisSubtaskOnceWhenDiscardsPrecededTheStart() {
        // given what control showed before the position: discards of this subtask by an earlier attempt, another
        // subtask's, a duplicate's handle, and the same part twice
        TaskAttempt earlier = new TaskAttempt(JOB, TASK, 1, "attempt-before");
        StateDiscarded subsumed = subsumed(3, "file:///s/3");
        List<Object> before = List.of(
                subsumed,
                discarded(earlier, 5, AckDiscardStatus.LATE, "file:///s/5-late"),
                discarded(new TaskAttempt(JOB, TASK, 0, "attempt-x"), 5, AckDiscardStatus.LATE, "file:///s/5-other"),
                discarded(earlier, 6, AckDiscardStatus.DUPLICATE, "file:///s/6-accepted"),
                subsumed);

        // when
        List<SidecarAction> actions = core.discardedBeforeStart(before);

        // then
        assertThat(actions).extracting(a -> ((DiscardState) a).state())
                .extracting(DiscardedState::checkpointId, DiscardedState::location, DiscardedState::cause)
                .containsExactly(
                        tuple(3L, "file:///s/3", "SUBSUMED"),
                        tuple(5L, "file:///s/5-late", "LATE"));
        // and a discard read live afterwards is not handed out again
        assertThat(core.onControl(subsumed, 2_000)).isEmpty();
    }

    @Test
    void shouldStillIgnoreAnEarlierAttemptsDiscardedAckWhenItArrivesLive() {
        // live, the sidecar of that attempt (if it still runs) is the one it is addressed to
        TaskAttempt earlier = new TaskAttempt(JOB, TASK, 1, "attempt-before");

        assertThat(core.onControl(discarded(earlier, 5, AckDiscardStatus.LATE, "file:///s/5-late"), 1_000)).isEmpty();
    }

    /** Checkpoint {@code id}'s state subsumed: one object of this subtask. */
    private static StateDiscarded subsumed(long id, String location) {
        return stateDiscarded(id, DiscardReason.SUBSUMED, subtaskObject(TASK, 1, location, false));
    }
}
