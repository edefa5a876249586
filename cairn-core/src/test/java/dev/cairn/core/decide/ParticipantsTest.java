package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.participantAck;
import static dev.cairn.core.testing.Fixtures.participantDecline;
import static dev.cairn.core.testing.Fixtures.specWithParticipants;
import static dev.cairn.core.testing.Fixtures.tick;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.events.Command;
import dev.cairn.core.events.SidecarNotifications;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobSpec;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskRoles;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coordinator-side participants (Flink: master hooks and operator coordinators): asked before the tasks, each
 * answers once, the tasks of the same checkpoint are triggered after the last ack, their states are kept in spec
 * order; a decline aborts, silence expires.
 */
class ParticipantsTest {

    private static final String ALPHA = "alpha";
    private static final String BETA = "beta";

    private static Scenario job(CheckpointConfig.Builder config) {
        return Scenario.runningJob(specWithParticipants(config, ALPHA, BETA), 1000);
    }

    /** Checkpoint 1 asked of its participants at 1000, none has answered. */
    private static Scenario asking() {
        return job(config()).and(tick(), 1000);
    }

    /**
     * Flink's CheckpointCoordinatorMasterHooksTest#ensureRegisteredAtHookTime: the checkpoint is pending (with its
     * id) when the participants are asked, and no task is triggered yet.
     */
    @Test
    void shouldAskTheParticipantsOfAPendingCheckpointBeforeTheTasks() {
        Then then = job(config()).when(tick(), 1000);

        then.thenTypes(PeriodicTriggerScheduled.class, RequestQueued.class, RequestDequeued.class,
                ParticipantsTriggered.class);
        ParticipantsTriggered asked = then.single(ParticipantsTriggered.class);
        assertThat(asked.getCheckpointId()).isEqualTo(1);
        assertThat(asked.getParticipants()).containsExactly(ALPHA, BETA);
        assertThat(asked.getTimeoutAtMs()).isEqualTo(1600);
        assertThat(asked.getStorageLocation()).isEqualTo("file:///checkpoints/job-1/chk-1");
        PendingCheckpoint pending = then.job(JOB).getPending().get(0);
        assertThat(PendingCheckpoints.tasksTriggered(pending)).isFalse();
        assertThat(pending.getAcksExpected()).isZero();
        assertThat(then.job(JOB).getNextCheckpointId()).isEqualTo(2);
        assertThat(then.job(JOB).getCounts().getInProgress()).isEqualTo(1);
    }

    /** A requester hears TRIGGERED with the id when the participants are asked. */
    @Test
    void shouldTellTheRequesterItsCheckpointIsTriggeredWhenTheParticipantsAreAsked() {
        Then then = job(config()).when(checkpointRequest("mine"), 10);

        then.thenTypes(TriggerRequest.class, RequestQueued.class, RequestDequeued.class, ParticipantsTriggered.class,
                RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.TRIGGERED);
        assertThat(outcome.getCheckpointId()).isEqualTo(1L);
    }

    /** Flink's PendingCheckpoint#acknowledgeMasterState: one master state in, the checkpoint waits for the rest. */
    @Test
    void shouldRecordAParticipantsAckAndWaitForTheOthers() {
        Then then = asking().when(participantAck(1, BETA, 5), 1100);

        then.thenTypes(ParticipantAcknowledged.class);
        assertThat(then.job(JOB).getPending().get(0).getParticipantStates())
                .extracting(ParticipantState::getParticipant).containsExactly(BETA);
    }

    /** Flink's CheckpointCoordinatorMasterHooksTest#testHooksAreCalledOnTrigger: then the tasks, same checkpoint. */
    @Test
    void shouldTriggerTheTasksOfTheSameCheckpointAfterTheLastParticipantAcked() {
        Then then = asking().and(participantAck(1, BETA, 5), 1100).when(participantAck(1, ALPHA, 7), 1200);

        then.thenTypes(ParticipantAcknowledged.class, CheckpointTriggered.class);
        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getCheckpointId()).isEqualTo(1);
        assertThat(triggered.getTimestampMs()).isEqualTo(1200);
        assertThat(triggered.getTimeoutAtMs()).as("the checkpoint's own timeout").isEqualTo(1600);
        assertThat(triggered.getPeriodic()).isTrue();
        assertThat(triggered.getAcksExpected()).isEqualTo(3);
        assertThat(triggered.getRoles()).containsExactly(new TaskRoles(SINK, false, true, true));
        assertThat(triggered.getStorageLocation()).isEqualTo("file:///checkpoints/job-1/chk-1");
        PendingCheckpoint pending = then.job(JOB).getPending().get(0);
        assertThat(PendingCheckpoints.tasksTriggered(pending)).isTrue();
        assertThat(pending.getAcksExpected()).isEqualTo(3);
        assertThat(pending.getTriggerTimestampMs()).as("the checkpoint started with its participants")
                .isEqualTo(1000);
        assertThat(then.job(JOB).getNextCheckpointId()).as("no second id").isEqualTo(2);
        assertThat(then.job(JOB).getCounts().getTriggered()).isEqualTo(1);
    }

    /**
     * Flink's CheckpointCoordinatorMasterHooksTest#testHooksAreCalledOnTrigger: the completed checkpoint holds the
     * participants' states, in the spec's order whatever order they answered in; a participant that returned no
     * state is left out, as Flink keeps only the hooks' non-null states.
     */
    @Test
    void shouldCompleteWithTheParticipantStatesInSpecOrder() {
        Scenario scenario = asking()
                .and(participantAck(1, BETA, -1), 1100)
                .and(participantAck(1, ALPHA, 7), 1200)
                .and(acknowledge(1, SOURCE, 0), 1300)
                .and(acknowledge(1, SOURCE, 1), 1300);

        Then then = scenario.when(acknowledge(1, SINK, 0), 1400);

        CheckpointCompleted completed = then.single(CheckpointCompleted.class);
        assertThat(completed.getParticipantStates()).extracting(ParticipantState::getParticipant)
                .containsExactly(ALPHA);
        assertThat(completed.getParticipantStates().get(0).getState().getSizeBytes()).isEqualTo(7);
        assertThat(completed.getTriggerTimestampMs()).isEqualTo(1000);
        assertThat(completed.getSubtaskCount()).isEqualTo(3);
        assertThat(then.state().retained(JOB).orElseThrow().getCheckpoints()).containsExactly(completed);
    }

    /** Each participant answers once: a repeated ack changes nothing. */
    @Test
    void shouldRefuseARepeatedAckOfAParticipantWithItsReason() {
        Then then = asking().and(participantAck(1, BETA, 5), 1100).when(participantAck(1, BETA, 6), 1150);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).isEqualTo("participant " + BETA
                + " answered checkpoint 1 of job " + JOB + " already: a repeated answer changes nothing");
    }

    /** Flink's PendingCheckpoint#acknowledgeMasterState: a master state once in is not taken back. */
    @Test
    void shouldRejectADeclineOfAParticipantThatAlreadyAcked() {
        Then then = asking().and(participantAck(1, BETA, 5), 1100)
                .when(participantDecline(1, BETA, CheckpointFailureReason.CHECKPOINT_DECLINED), 1150);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("already acknowledged");
        assertThat(then.job(JOB).getPending()).hasSize(1);
    }

    /** Flink's CheckpointCoordinator#onTriggerFailure: a failing master hook or coordinator aborts the checkpoint. */
    @Test
    void shouldAbortWithTheParticipantsReasonWhenItDeclines() {
        Then then = asking().and(participantAck(1, BETA, 5), 1100)
                .when(participantDecline(1, ALPHA, CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION), 1200);

        assertThat(then.events().get(0)).isInstanceOf(ParticipantDeclined.class);
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);
        assertThat(aborted.getMessage()).startsWith("Participant alpha declined checkpoint 1 of job job-1");
        assertThat(then.has(CheckpointTriggered.class)).isFalse();
        assertThat(then.job(JOB).getPending()).isEmpty();
    }

    /** A participant that never answers lets the checkpoint expire (Flink: the checkpoint canceller). */
    @Test
    void shouldExpireWhenAParticipantNeverAnswers() {
        Then then = asking().and(participantAck(1, ALPHA, 5), 1100).when(tick(), 1600);

        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(then.has(CheckpointTriggered.class)).isFalse();
    }

    static Stream<Arguments> misdirectedAcks() {
        return Stream.of(
                Arguments.of("a checkpoint never triggered", participantAck(2, ALPHA, 1), AckDiscardStatus.DISCARDED,
                        "is not waiting"),
                Arguments.of("a participant the job does not have", participantAck(1, "gamma", 1),
                        AckDiscardStatus.UNKNOWN, "gamma is not a participant"));
    }

    /**
     * Flink's CheckpointCoordinatorTest#testStateCleanupForLateOrUnknownMessages, for coordinator-side state: an
     * answer no checkpoint waits for is discarded, its state reported for clean-up to the participant (named as
     * task and attempt, subtask index -1).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("misdirectedAcks")
    void shouldDiscardAndReportTheStateOfAnAnswerThatNoCheckpointWaitsFor(String what, Command.AcknowledgeParticipant
            answer, AckDiscardStatus status, String reason) {
        Then then = asking().when(answer, 1100);

        then.thenTypes(AckDiscarded.class);
        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(status);
        assertThat(discarded.getTaskId()).isEqualTo(answer.event().getParticipant());
        assertThat(discarded.getSubtaskIndex())
                .isEqualTo(dev.cairn.events.topics.CairnTopics.PARTICIPANT_SUBTASK_INDEX);
        assertThat(discarded.getStateHandle()).isEqualTo(answer.event().getState());
        assertThat(discarded.getMessage()).contains(reason);
        assertThat(SidecarNotifications.isForSidecars(discarded)).isTrue();
    }

    static Stream<Arguments> misdirectedAnswers() {
        return Stream.of(
                Arguments.of("an answer without state for a checkpoint never triggered",
                        participantAck(2, ALPHA, 1).event(), "is not waiting"),
                Arguments.of("a decline for a checkpoint never triggered",
                        participantDecline(7, BETA, CheckpointFailureReason.CHECKPOINT_DECLINED), "is not waiting"),
                Arguments.of("a decline from a participant the job does not have",
                        participantDecline(1, "gamma", CheckpointFailureReason.CHECKPOINT_DECLINED),
                        "gamma is not a participant"));
    }

    /** An answer that no checkpoint waits for and that carries no state to clean up is rejected. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("misdirectedAnswers")
    void shouldRejectAnAnswerWithoutStateThatNoCheckpointWaitsFor(String what, Object answer, String reason) {
        Command command = answer instanceof ParticipantAcknowledged ack
                ? new Command.AcknowledgeParticipant(withoutState(ack)) : (Command) answer;
        Then then = asking().when(command, 1100);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains(reason);
    }

    /** Once the tasks are triggered, the participants' part is over: a late answer is discarded or rejected. */
    @Test
    void shouldRejectAParticipantsAnswerAfterTheTasksWereTriggered() {
        Scenario scenario = asking().and(participantAck(1, ALPHA, 1), 1100).and(participantAck(1, BETA, 1), 1100);

        scenario.when(participantAck(1, ALPHA, 2), 1200).thenTypes(AckDiscarded.class);
        scenario.when(participantDecline(1, BETA, CheckpointFailureReason.CHECKPOINT_DECLINED), 1200)
                .thenTypes(CommandRejected.class);
    }

    private static ParticipantAcknowledged withoutState(ParticipantAcknowledged ack) {
        return ParticipantAcknowledged.newBuilder(ack).setState(null).build();
    }

    /** Flink's CheckpointCoordinatorTest#testStateCleanupForLateOrUnknownMessages: an ack the plan cannot hold. */
    @Test
    void shouldDiscardATasksAckThatArrivesBeforeTheTasksWereTriggered() {
        Then then = asking().when(acknowledge(1, SOURCE, 0), 1100);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
        assertThat(discarded.getStateHandle()).isNotNull();
        assertThat(then.progress(JOB, 1).acksReceived()).isZero();
        assertThat(then.state().ack(JOB, 1, SOURCE, 0)).isEmpty();
    }

    /**
     * As for an ack: no task was told of the checkpoint while its participants snapshot, so a task's decline then
     * is a stray message; it neither aborts the checkpoint nor counts (nor, for a stop, fails the job).
     */
    @Test
    void shouldRejectATasksDeclineBeforeTheTasksWereTriggered() {
        Then then = asking().when(Fixtures.decline(1, SOURCE, 0), 1100);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("has not triggered its tasks yet");
        assertThat(then.job(JOB).getPending()).hasSize(1);
    }

    /** The tasks are planned when they are triggered: a subtask that finished meanwhile counts as finished. */
    @Test
    void shouldPlanTheTasksWhenTheyAreTriggeredNotWhenTheParticipantsWereAsked() {
        Scenario scenario = asking().and(participantAck(1, ALPHA, 1), 1100).and(Fixtures.finish(SOURCE, 1, 30), 1150);

        Then then = scenario.when(participantAck(1, BETA, 1), 1200);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getAcksExpected()).isEqualTo(2);
        assertThat(triggered.getFinishedSubtasks()).isEqualTo(1);
        assertThat(triggered.getFinishedStateBytes()).isEqualTo(30);
    }

    /**
     * When the tasks triggered after the last participant have nothing to acknowledge (every acknowledging subtask
     * finished), the checkpoint completes at once, and the request waiting for its slot runs.
     */
    @Test
    void shouldRunTheQueueWhenTheLastParticipantsAckCompletesTheCheckpoint() {
        JobSpec spec = Fixtures.spec(JOB, config().setTimeoutMs(10_000), vertex(SOURCE, 1, true, false),
                vertex(SINK, 1, false, true));
        spec.setParticipants(List.of(ALPHA));
        Scenario scenario = Scenario.runningJob(spec, 1000)
                .and(tick(), 1000)
                .and(checkpointRequest("waiting"), 1010)
                .and(Fixtures.finish(SINK, 0, 5), 1020);
        assertThat(scenario.job(JOB).getQueue()).hasSize(1);

        Then then = scenario.when(participantAck(1, ALPHA, 1), 1100);

        assertThat(then.single(CheckpointCompleted.class).getCheckpointId()).isEqualTo(1);
        ParticipantsTriggered next = then.single(ParticipantsTriggered.class);
        assertThat(next.getCheckpointId()).isEqualTo(2);
        assertThat(next.getRequestId()).isEqualTo("waiting");
        assertThat(then.job(JOB).getQueue()).isEmpty();
    }

    static Stream<Arguments> invalidParticipants() {
        return Stream.of(
                Arguments.of(List.of(ALPHA, BETA, ALPHA), "participants[2] is named twice"),
                Arguments.of(List.of(ALPHA, " "), "participants[1] is empty"));
    }

    /**
     * Flink's CheckpointCoordinatorMasterHooksTest#testDeduplicateOnRegister and #testNullOrInvalidId: a job names
     * each participant once, by a non-blank id.
     */
    @ParameterizedTest
    @MethodSource("invalidParticipants")
    void shouldRejectASpecWithDuplicateOrBlankParticipants(List<String> participants, String reason) {
        JobSpec spec = Fixtures.spec(config());
        spec.setParticipants(participants);

        Then then = Scenario.given().when(new Command.RegisterJob(spec, 0.0), 0);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains(reason);
    }
}
