package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.JOB;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.TASK;
import static dev.cairn.sidecar.core.ControlEvents.discarded;
import static dev.cairn.sidecar.core.ControlEvents.discardedWithShared;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.sidecar.core.SidecarAction.DiscardState;
import dev.cairn.sidecar.hook.DiscardedState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A state handle the coordinator discarded with this attempt's ack is handed to the worker for deletion, once. */
class SidecarCoreDiscardTest {

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @ParameterizedTest
    @EnumSource(value = AckDiscardStatus.class, names = {"UNKNOWN", "DISCARDED", "LATE"})
    void shouldHandTheStateToTheWorkerWhenTheCoordinatorDiscardsThisAttemptsAck(AckDiscardStatus status) {
        // when
        List<SidecarAction> actions = core.onControl(discarded(ME, 7, status, "file:///s/7"), 1_000);

        // then
        assertThat(actions).containsExactly(new DiscardState(new DiscardedState(7, "file:///s/7", 64, status,
                "checkpoint 7 is not pending")));
    }

    @Test
    void shouldHandOutTheOwnObjectAndEachSharedObjectWhenTheDiscardedHandleListsSharedObjects() {
        // when
        List<SidecarAction> actions = core.onAckDiscarded(discardedWithShared(ME, 7, "file:///s/7",
                "file:///s/shared/a", "file:///s/shared/b"));

        // then
        String why = "checkpoint 7 is not pending";
        assertThat(actions).containsExactly(
                new DiscardState(DiscardedState.ofAck(7, "file:///s/7", 64, false, AckDiscardStatus.DISCARDED, why)),
                new DiscardState(DiscardedState.ofAck(7, "file:///s/shared/a", 8, true, AckDiscardStatus.DISCARDED,
                        why)),
                new DiscardState(DiscardedState.ofAck(7, "file:///s/shared/b", 8, true, AckDiscardStatus.DISCARDED,
                        why)));
    }

    @Test
    void shouldHandEachStateOnceWhenTheSameDiscardArrivesTwice() {
        // given
        core.onAckDiscarded(discarded(ME, 7, AckDiscardStatus.LATE, "file:///s/7"));

        // when
        List<SidecarAction> again = core.onAckDiscarded(discarded(ME, 7, AckDiscardStatus.UNKNOWN, "file:///s/7"));
        List<SidecarAction> otherHandle = core.onAckDiscarded(discarded(ME, 7, AckDiscardStatus.LATE, "file:///s/7b"));

        // then
        assertThat(again).isEmpty();
        assertThat(otherHandle).hasSize(1);
    }

    @Test
    void shouldIgnoreTheDiscardWhenItNamesAnotherAttemptSubtaskTaskOrJob() {
        List<TaskAttempt> others = List.of(new TaskAttempt(JOB, TASK, 1, "attempt-old"),
                new TaskAttempt(JOB, TASK, 0, ME.attemptId()), new TaskAttempt(JOB, "map", 1, ME.attemptId()),
                new TaskAttempt("payments", TASK, 1, ME.attemptId()));

        for (TaskAttempt other : others) {
            assertThat(core.onAckDiscarded(discarded(other, 7, AckDiscardStatus.LATE, "file:///s/7")))
                    .as(other.toString())
                    .isEmpty();
        }
    }

    @Test
    void shouldIgnoreTheDiscardWhenItIsADuplicateOrHasNoHandle() {
        // a duplicate's handle is the one the coordinator accepted: it must stay
        AckDiscarded duplicate = discarded(ME, 7, AckDiscardStatus.DUPLICATE, "file:///s/7");
        AckDiscarded noHandle = discarded(ME, 8, AckDiscardStatus.UNKNOWN, null);

        assertThat(core.onAckDiscarded(duplicate)).isEmpty();
        assertThat(core.onAckDiscarded(noHandle)).isEmpty();
    }

    @Test
    void shouldStillHandTheStateOverWhenTheSubtaskHasFinished() {
        // given
        core.onFinish(Optional.empty(), 1_000);

        // when
        List<SidecarAction> actions = core.onAckDiscarded(discarded(ME, 7, AckDiscardStatus.LATE, "file:///s/7"));

        // then
        assertThat(actions).singleElement().isInstanceOf(DiscardState.class);
    }

    @Test
    void shouldIgnoreATasksDiscardWhenTheSidecarIsAParticipant() {
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));

        assertThat(participant.onAckDiscarded(discarded(ME, 7, AckDiscardStatus.LATE, "file:///s/7"))).isEmpty();
    }

    @Test
    void shouldHandAParticipantTheStateTheCoordinatorDiscardedFromItsAnswer() {
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));

        List<SidecarAction> actions = participant.onAckDiscarded(toParticipant(COORDINATOR_SIDE.name(), 7));
        List<SidecarAction> toAnotherParticipant = participant.onAckDiscarded(toParticipant("other", 8));

        assertThat(actions).containsExactly(new DiscardState(new DiscardedState(7, "file:///s/7", 64,
                AckDiscardStatus.LATE, "late")));
        assertThat(toAnotherParticipant).isEmpty();
        assertThat(core.onAckDiscarded(toParticipant(COORDINATOR_SIDE.name(), 9))).as("a task's sidecar").isEmpty();
    }

    /** How the coordinator addresses a participant's discarded state: its name as task and attempt, subtask -1. */
    private static AckDiscarded toParticipant(String name, long id) {
        return AckDiscarded.newBuilder().setJobId(JOB).setCheckpointId(id).setTaskId(name).setSubtaskIndex(-1)
                .setAttemptId(name).setStatus(AckDiscardStatus.LATE)
                .setStateHandle(StateHandle.newBuilder().setLocation("file:///s/" + id).setSizeBytes(64L).build())
                .setMessage("late").setTimestampMs(5).build();
    }
}
