package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.participantAck;
import static dev.cairn.core.testing.Fixtures.participantDecline;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobSpec;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.ParticipantsTriggered;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two phases of the coordinator-side participants (Flink: CheckpointCoordinator#startTriggeringCheckpoint
 * snapshots the operator coordinators first and the master hooks only once those completed, then triggers the
 * tasks): the spec's {@code participants} are asked first, its {@code masterHooks} after every participant acked.
 */
class MasterHooksTest {

    private static final String COORDINATOR = "enumerator";
    private static final String HOOK = "offsets";

    private static JobSpec spec(List<String> participants, List<String> hooks) {
        JobSpec spec = Fixtures.spec(config());
        spec.setParticipants(participants);
        spec.setMasterHooks(hooks);
        return spec;
    }

    /** Checkpoint 1 of a job with one participant and one master hook, its participant asked at 1000. */
    private static Scenario askingTheParticipant() {
        return Scenario.runningJob(spec(List.of(COORDINATOR), List.of(HOOK)), 1000).and(tick(), 1000);
    }

    @Test
    void shouldAskOnlyTheParticipantsFirst() {
        Then then = Scenario.runningJob(spec(List.of(COORDINATOR), List.of(HOOK)), 1000).when(tick(), 1000);

        assertThat(then.single(ParticipantsTriggered.class).getParticipants()).containsExactly(COORDINATOR);
        assertThat(then.job(JOB).getPending().get(0).getParticipants()).containsExactly(COORDINATOR);
    }

    @Test
    void shouldAskTheMasterHooksOfTheSameCheckpointOnceEveryParticipantAcked() {
        Then then = askingTheParticipant().when(participantAck(1, COORDINATOR, 5), 1100);

        then.thenTypes(ParticipantAcknowledged.class, ParticipantsTriggered.class);
        ParticipantsTriggered hooks = then.single(ParticipantsTriggered.class);
        assertThat(hooks.getCheckpointId()).isEqualTo(1);
        assertThat(hooks.getParticipants()).containsExactly(HOOK);
        assertThat(hooks.getTimestampMs()).isEqualTo(1100);
        assertThat(hooks.getTimeoutAtMs()).as("the checkpoint's own timeout").isEqualTo(1600);
        assertThat(hooks.getStorageLocation()).isEqualTo("file:///checkpoints/job-1/chk-1");
        PendingCheckpoint pending = then.job(JOB).getPending().get(0);
        assertThat(pending.getParticipants()).containsExactly(COORDINATOR, HOOK);
        assertThat(pending.getTriggerTimestampMs()).isEqualTo(1000);
        assertThat(PendingCheckpoints.tasksTriggered(pending)).isFalse();
        assertThat(then.job(JOB).getNextCheckpointId()).as("no second id").isEqualTo(2);
    }

    @Test
    void shouldTriggerTheTasksOnceTheMasterHooksAcked() {
        Scenario scenario = askingTheParticipant().and(participantAck(1, COORDINATOR, 5), 1100);

        Then then = scenario.when(participantAck(1, HOOK, 7), 1200);

        then.thenTypes(ParticipantAcknowledged.class, CheckpointTriggered.class);
        assertThat(then.single(CheckpointTriggered.class).getCheckpointId()).isEqualTo(1);
        assertThat(PendingCheckpoints.tasksTriggered(then.job(JOB).getPending().get(0))).isTrue();
    }

    @Test
    void shouldAskTheMasterHooksFirstWhenTheJobHasNoParticipants() {
        Then then = Scenario.runningJob(spec(List.of(), List.of(HOOK)), 1000).when(tick(), 1000);

        assertThat(then.single(ParticipantsTriggered.class).getParticipants()).containsExactly(HOOK);
        assertThat(then.has(CheckpointTriggered.class)).isFalse();
    }

    @Test
    void shouldRejectAMasterHooksAnswerBeforeItIsAsked() {
        Then then = askingTheParticipant().when(participantAck(1, HOOK, -1), 1050);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("offsets is not a participant");
    }

    @Test
    void shouldAbortWithoutAskingTheMasterHooksWhenAParticipantDeclines() {
        Then then = askingTheParticipant()
                .when(participantDecline(1, COORDINATOR, CheckpointFailureReason.CHECKPOINT_DECLINED), 1100);

        assertThat(then.single(CheckpointAborted.class).getReason())
                .isEqualTo(CheckpointFailureReason.TRIGGER_CHECKPOINT_FAILURE);
        assertThat(then.has(ParticipantsTriggered.class)).isFalse();
    }

    @Test
    void shouldKeepTheParticipantsStatesBeforeTheMasterHooksStates() {
        Scenario scenario = askingTheParticipant()
                .and(participantAck(1, COORDINATOR, 5), 1100)
                .and(participantAck(1, HOOK, 7), 1200)
                .and(acknowledge(1, SOURCE, 0), 1300)
                .and(acknowledge(1, SOURCE, 1), 1300);

        Then then = scenario.when(acknowledge(1, SINK, 0), 1400);

        assertThat(then.single(CheckpointCompleted.class).getParticipantStates())
                .extracting(ParticipantState::getParticipant).containsExactly(COORDINATOR, HOOK);
    }

    /** Flink's CheckpointCoordinatorMasterHooksTest#testDeduplicateOnRegister: a name is one participant or hook. */
    @Test
    void shouldRejectASpecThatNamesAParticipantAlsoAsAMasterHook() {
        Then then = Scenario.given().when(new Command.RegisterJob(spec(List.of(HOOK), List.of(HOOK)), 0.0), 0);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("masterHooks[0] is named twice");
    }
}
