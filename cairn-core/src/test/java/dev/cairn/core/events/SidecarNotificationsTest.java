package dev.cairn.core.events;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Which journal events also go to the sidecars on {@code cairn.control}: what Flink's coordinator sends to the
 * tasks (trigger, notifyCheckpointComplete, notifyCheckpointAborted) and to the coordinators, and the state
 * handles of acks it discards.
 */
class SidecarNotificationsTest {

    private static List<SpecificRecord> forSidecars(Then then) {
        return then.events().stream().filter(SidecarNotifications::isForSidecars).toList();
    }

    /** A savepoint of the default job, acked by every subtask but the sink. */
    private static Scenario savepointPending(Command.RequestTrigger request) {
        return Scenario.runningJob(spec(), 1000).and(request, 10)
                .and(acknowledge(1, SOURCE, 0), 20).and(acknowledge(1, SOURCE, 1), 20);
    }

    /** Flink's CheckpointCoordinatorTest#testTriggerAndConfirmSimpleCheckpoint: the tasks are told to commit. */
    @Test
    void shouldSendTheTriggerAndTheCompletionOfACheckpointToTheSidecars() {
        Scenario scenario = Scenario.runningJob(spec(), 1000);

        Then triggered = scenario.when(checkpointRequest("cp"), 10);
        assertThat(forSidecars(triggered)).singleElement().isInstanceOf(CheckpointTriggered.class);

        Then completed = scenario.and(acknowledge(1, SOURCE, 0), 20).and(acknowledge(1, SOURCE, 1), 20)
                .when(acknowledge(1, SINK, 0), 30);
        assertThat(forSidecars(completed)).singleElement().isInstanceOf(CheckpointCompleted.class);
    }

    /**
     * Flink's CheckpointCoordinatorTest#testTriggerAndConfirmSimpleSavepoint and #testSavepointsAreNotSubsumed:
     * since Flink 1.15 no task is notified of an ordinary savepoint's completion, so no sink commits on one.
     */
    @Test
    void shouldKeepTheCompletionOfAnOrdinarySavepointFromTheSidecars() {
        Then then = savepointPending(savepointRequest("sp", null)).when(acknowledge(1, SINK, 0), 30);

        assertThat(then.single(CheckpointCompleted.class).getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(forSidecars(then)).isEmpty();
    }

    /** Flink's notifyCheckpointComplete for a synchronous savepoint: the stopping tasks wait for it to finish. */
    @ParameterizedTest
    @EnumSource(value = PostCheckpointAction.class, names = {"SUSPEND", "TERMINATE"})
    void shouldSendTheCompletionOfAStopWithSavepointToTheSidecars(PostCheckpointAction action) {
        Then then = savepointPending(stop("stop", action)).when(acknowledge(1, SINK, 0), 30);

        assertThat(forSidecars(then)).singleElement().isInstanceOf(CheckpointCompleted.class);
    }

    /** Flink's notifyCheckpointAborted reaches the tasks of checkpoints and savepoints alike. */
    @ParameterizedTest
    @EnumSource(CheckpointType.class)
    void shouldSendEveryAbortToTheSidecars(CheckpointType type) {
        Then then = Scenario.runningJob(spec(), 1000)
                .and(new Command.RequestTrigger(Fixtures.request("r", type, true)), 10)
                .when(tick(), 610);

        assertThat(forSidecars(then)).singleElement().isInstanceOf(CheckpointAborted.class);
    }

    /** The coordinator-side participants hear of a checkpoint through the control topic too. */
    @Test
    void shouldSendTheParticipantsTriggerToTheSidecars() {
        Then then = Scenario.runningJob(Fixtures.specWithParticipants(config(), "hook"), 1000).when(tick(), 1000);

        assertThat(forSidecars(then)).singleElement().isInstanceOf(ParticipantsTriggered.class);
    }

    /**
     * Flink's CheckpointCoordinatorTest#testStateCleanupForLateOrUnknownMessages: the state of an ack that is not
     * accepted is discarded, so its subtask is told to delete it (never-triggered checkpoint, unknown task, late).
     */
    @Test
    void shouldSendDiscardedAcksWithAStateHandleToTheSidecars() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000);

        Then neverTriggered = scenario.when(acknowledge(9, SOURCE, 0), 1100);
        Then unknownTask = scenario.when(new Command.Acknowledge(Fixtures.ack(JOB, 1, "nope", 0, "a", 4)), 1100);
        Then late = scenario.and(tick(), 1600).when(acknowledge(1, SOURCE, 0), 1700);

        assertThat(neverTriggered.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.DISCARDED);
        assertThat(unknownTask.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
        assertThat(late.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.LATE);
        for (Then then : List.of(neverTriggered, unknownTask, late)) {
            assertThat(forSidecars(then)).singleElement().isInstanceOfSatisfying(AckDiscarded.class,
                    d -> assertThat(d.getStateHandle()).isNotNull());
        }
    }

    /** A duplicate ack has nothing to delete: its handle is the one accepted. */
    @Test
    void shouldKeepADuplicateAckFromTheSidecars() {
        Then then = Scenario.runningJob(spec(), 1000).and(tick(), 1000).and(acknowledge(1, SOURCE, 0), 1100)
                .when(acknowledge(1, SOURCE, 0), 1200);

        assertThat(then.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(forSidecars(then)).isEmpty();
    }

    /**
     * Completions with the default options, as records written before options existed decode (RecordUpcasterTest):
     * a savepoint's completion then cannot be a stop's.
     */
    @Test
    void shouldTellCompletionsWithTheDefaultOptionsApartByTheirType() {
        CheckpointCompleted checkpoint = completion(CheckpointType.CHECKPOINT);
        CheckpointCompleted savepoint = completion(CheckpointType.SAVEPOINT);

        assertThat(SidecarNotifications.isForSidecars(checkpoint)).isTrue();
        assertThat(SidecarNotifications.isForSidecars(savepoint)).isFalse();
    }

    /** A discarded ack without a handle has nothing to clean up, whatever its status. */
    @ParameterizedTest
    @EnumSource(AckDiscardStatus.class)
    void shouldKeepADiscardedAckWithoutHandleFromTheSidecars(AckDiscardStatus status) {
        AckDiscarded withHandle = discarded(status,
                StateHandle.newBuilder().setLocation("mem://x").setSizeBytes(1L).build());
        AckDiscarded withoutHandle = discarded(status, null);

        assertThat(SidecarNotifications.isForSidecars(withHandle)).isEqualTo(status != AckDiscardStatus.DUPLICATE);
        assertThat(SidecarNotifications.isForSidecars(withoutHandle)).isFalse();
    }

    /** What only the coordinator acts on stays in the journal: requests, acks, outcomes, schedule, failures. */
    @Test
    void shouldKeepTheCoordinatorsOwnBookkeepingFromTheSidecars() {
        Scenario scenario = Scenario.runningJob(spec(), 1000);
        Then triggered = scenario.when(checkpointRequest("cp"), 1000);
        Then acked = scenario.when(acknowledge(1, SOURCE, 0), 1100);
        Then expired = scenario.when(tick(), 1600);

        List<SpecificRecord> journalOnly = new java.util.ArrayList<>(triggered.events());
        journalOnly.addAll(acked.events());
        journalOnly.addAll(expired.events());
        journalOnly.removeIf(e -> e instanceof CheckpointTriggered || e instanceof CheckpointAborted
                || e instanceof StateDiscarded);
        journalOnly.add(acknowledge(1, SOURCE, 1).event());
        journalOnly.add(Fixtures.finish(SOURCE, 1, 5).event());
        journalOnly.add(Fixtures.participantAck(1, "hook", 1).event());

        assertThat(journalOnly).isNotEmpty().noneMatch(SidecarNotifications::isForSidecars);
        assertThat(journalOnly).anyMatch(e -> e instanceof CheckpointAcknowledged);
    }

    /** The states of an aborted checkpoint go to the sidecars that delete them; a discard naming none does not. */
    @Test
    void shouldSendADiscardToTheSidecarsOnlyWhenItNamesObjects() {
        Scenario scenario = Scenario.runningJob(spec(), 1000);
        scenario.and(checkpointRequest("cp"), 1000).and(acknowledge(1, SOURCE, 0), 1100);
        StateDiscarded discarded = scenario.when(tick(), 1600).single(StateDiscarded.class);

        assertThat(discarded.getObjects()).isNotEmpty();
        assertThat(SidecarNotifications.isForSidecars(discarded)).isTrue();
        discarded.setObjects(List.of());
        assertThat(SidecarNotifications.isForSidecars(discarded)).isFalse();
    }

    private static CheckpointCompleted completion(CheckpointType type) {
        return CheckpointCompleted.newBuilder().setJobId(JOB).setCheckpointId(1).setType(type)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("mem://l")
                .setSubtaskStates(List.of()).setTotalSizeBytes(0).setLastSubsumedId(-1).setSubtaskCount(0)
                .setParticipantStates(List.of()).setOptions(SnapshotOptions.newBuilder().build()).build();
    }

    private static AckDiscarded discarded(AckDiscardStatus status, StateHandle handle) {
        return AckDiscarded.newBuilder().setJobId(JOB).setCheckpointId(1).setTaskId(SOURCE).setSubtaskIndex(0)
                .setAttemptId("a").setStatus(status).setStateHandle(handle).setMessage("m").setTimestampMs(0).build();
    }
}
