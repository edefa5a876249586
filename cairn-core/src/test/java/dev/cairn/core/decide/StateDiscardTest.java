package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.events.SidecarNotifications;
import dev.cairn.core.testing.Events;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Given-when-then: what the coordinator discards when a checkpoint stops being kept, and how shared objects are
 * counted by reference (Flink: CheckpointsCleaner, PendingCheckpoint.abort, SharedStateRegistry).
 */
class StateDiscardTest {

    /** An ack of the subtask's first attempt whose own object is {@code own} and which names {@code shared}. */
    private static Command.Acknowledge ack(long id, String task, int subtask, String own, SharedState... shared) {
        CheckpointAcknowledged ack = Events.ack(JOB, id, task, subtask, attempt(task, subtask, 1))
                .setStateHandle(StateHandle.newBuilder().setLocation(own).setSizeBytes(10)
                        .setShared(List.of(shared)).build())
                .setTimestampMs(0).build();
        return new Command.Acknowledge(ack);
    }

    private static SharedState created(String location) {
        return SharedState.newBuilder().setLocation(location).setSizeBytes(100).setReused(false).build();
    }

    private static SharedState reused(String location) {
        return SharedState.newBuilder().setLocation(location).setSizeBytes(100).setReused(true).build();
    }

    /** Checkpoint {@code id} triggered at {@code id * 1000} and acknowledged by all three subtasks. */
    private static Scenario completed(Scenario scenario, long id, SharedState sourceShared) {
        long at = id * 1000;
        return scenario.and(tick(), at)
                .and(sourceShared == null ? ack(id, SOURCE, 0, "mem://s0/" + id)
                        : ack(id, SOURCE, 0, "mem://s0/" + id, sourceShared), at + 10)
                .and(ack(id, SOURCE, 1, "mem://s1/" + id), at + 20)
                .and(ack(id, SINK, 0, "mem://k0/" + id), at + 30);
    }

    private static List<String> locations(List<StateDiscarded> discards) {
        List<String> locations = new ArrayList<>();
        discards.forEach(d -> d.getObjects().forEach(o -> locations.add(o.getLocation())));
        return locations;
    }

    @Test
    void shouldDiscardTheStatesOfTheCheckpointANewerOneSubsumes() {
        Scenario scenario = completed(Scenario.runningJob(spec(config()), 1000), 1, created("mem://shared/a"));
        scenario.and(tick(), 2000).and(ack(2, SOURCE, 0, "mem://s0/2", created("mem://shared/b")), 2010)
                .and(ack(2, SOURCE, 1, "mem://s1/2"), 2020);

        Then then = scenario.when(ack(2, SINK, 0, "mem://k0/2"), 2030);

        then.thenTypes(CheckpointAcknowledged.class, CheckpointCompleted.class, StateDiscarded.class);
        StateDiscarded discarded = then.single(StateDiscarded.class);
        assertThat(discarded.getCheckpointId()).isEqualTo(1);
        assertThat(discarded.getReason()).isEqualTo(DiscardReason.SUBSUMED);
        assertThat(discarded.getMessage()).contains("subsumed by checkpoint 2");
        assertThat(discarded.getObjects()).extracting(DiscardedObject::getLocation)
                .containsExactlyInAnyOrder("mem://s0/1", "mem://s1/1", "mem://k0/1", "mem://shared/a");
        assertThat(discarded.getObjects()).filteredOn(DiscardedObject::getShared).singleElement()
                .satisfies(o -> {
                    assertThat(o.getTaskId()).isEqualTo(SOURCE);
                    assertThat(o.getSubtaskIndex()).isZero();
                });
        assertThat(SidecarNotifications.isForSidecars(discarded)).isTrue();
        assertThat(then.state().sharedState(JOB, "mem://shared/a")).isEmpty();
        assertThat(then.state().sharedState(JOB, "mem://shared/b")).hasValueSatisfying(
                e -> assertThat(e.getReferences()).isEqualTo(1));
    }

    @Test
    void shouldKeepASharedObjectUntilTheLastCheckpointReferringToItIsDiscarded() {
        Scenario scenario = completed(Scenario.runningJob(spec(config()), 1000), 1, created("mem://shared/a"));
        Then second = completed(scenario, 2, reused("mem://shared/a")).when(tick(), 3000);
        assertThat(second.state().sharedState(JOB, "mem://shared/a")).hasValueSatisfying(
                e -> assertThat(e.getReferences()).isEqualTo(1));
        Scenario afterTwo = second.scenario();
        List<StateDiscarded> discardedAtTwo = new ArrayList<>();
        afterTwo.journal().stream().filter(StateDiscarded.class::isInstance).map(StateDiscarded.class::cast)
                .forEach(discardedAtTwo::add);
        assertThat(locations(discardedAtTwo)).containsExactlyInAnyOrder("mem://s0/1", "mem://s1/1", "mem://k0/1")
                .doesNotContain("mem://shared/a");
        assertThat(discardedAtTwo.get(0).getKeptObjects()).as("shared/a stays, checkpoint 2 refers to it").isEqualTo(1);

        afterTwo.and(ack(3, SOURCE, 0, "mem://s0/3"), 3010).and(ack(3, SOURCE, 1, "mem://s1/3"), 3020);
        Then third = afterTwo.when(ack(3, SINK, 0, "mem://k0/3"), 3030);

        StateDiscarded discarded = third.single(StateDiscarded.class);
        assertThat(discarded.getCheckpointId()).isEqualTo(2);
        assertThat(locations(List.of(discarded))).contains("mem://shared/a");
        assertThat(third.state().sharedState(JOB, "mem://shared/a")).isEmpty();
    }

    @Test
    void shouldDiscardTheAcknowledgedStatesOfAnAbortedCheckpoint() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000).and(tick(), 1000)
                .and(ack(1, SOURCE, 0, "mem://s0/1", created("mem://shared/new")), 1010);

        Then then = scenario.when(decline(1, SOURCE, 1), 1020);

        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        StateDiscarded discarded = then.single(StateDiscarded.class);
        assertThat(then.events().indexOf(discarded)).isGreaterThan(then.events().indexOf(aborted));
        assertThat(discarded.getReason()).isEqualTo(DiscardReason.ABORTED);
        assertThat(discarded.getObjects()).extracting(DiscardedObject::getLocation)
                .containsExactlyInAnyOrder("mem://s0/1", "mem://shared/new");
        assertThat(then.state().sharedState(JOB, "mem://shared/new")).isEmpty();
    }

    @Test
    void shouldWriteNoDiscardForAnAbortedCheckpointNothingAcknowledged() {
        Then then = Scenario.runningJob(spec(config()), 1000).and(tick(), 1000).when(decline(1, SOURCE, 1), 1020);

        then.single(CheckpointAborted.class);
        assertThat(then.has(StateDiscarded.class)).isFalse();
    }

    @Test
    void shouldKeepASharedObjectTheCompletedCheckpointStillRefersToWhenAPendingOneAborts() {
        Scenario scenario = completed(Scenario.runningJob(spec(config()), 1000), 1, created("mem://shared/a"))
                .and(tick(), 2000).and(ack(2, SOURCE, 0, "mem://s0/2", reused("mem://shared/a")), 2010);

        Then then = scenario.when(decline(2, SOURCE, 1), 2020);

        StateDiscarded discarded = then.single(StateDiscarded.class);
        assertThat(locations(List.of(discarded))).containsExactly("mem://s0/2");
        assertThat(then.state().sharedState(JOB, "mem://shared/a")).hasValueSatisfying(
                e -> assertThat(e.getReferences()).isEqualTo(1));
    }

    @Test
    void shouldRefuseAnAckThatReusesASharedObjectNoCheckpointRefersTo() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000).and(tick(), 1000);

        Then then = scenario.when(ack(1, SOURCE, 0, "mem://s0/1", reused("mem://shared/gone"),
                created("mem://shared/fresh")), 1010);

        AckDiscarded refused = then.single(AckDiscarded.class);
        assertThat(refused.getStatus()).isEqualTo(AckDiscardStatus.DISCARDED);
        assertThat(refused.getMessage()).contains("mem://shared/gone", "no checkpoint refers to any more");
        assertThat(refused.getStateHandle().getShared()).extracting(SharedState::getLocation)
                .containsExactly("mem://shared/fresh");
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(then.state().sharedState(JOB, "mem://shared/fresh")).isEmpty();
    }

    @Test
    void shouldHandOutOnlyTheObjectsNoKeptCheckpointRefersToWhenAReplayedAckIsDiscarded() {
        Scenario scenario = completed(Scenario.runningJob(spec(config()), 1000), 1, created("mem://shared/a"));
        scenario = completed(scenario, 2, reused("mem://shared/a"));

        Then then = scenario.when(ack(1, SOURCE, 0, "mem://s0/1-retried", created("mem://shared/a"),
                created("mem://shared/only-this")), 3500);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isNotEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle().getLocation()).isEqualTo("mem://s0/1-retried");
        assertThat(discarded.getStateHandle().getShared()).extracting(SharedState::getLocation)
                .containsExactly("mem://shared/only-this");
    }

    @Test
    void shouldNeverDiscardTheStatesOfAUsersSavepoint() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000)
                .and(savepointRequest("sp-1", "file:///savepoints"), 500)
                .and(ack(1, SOURCE, 0, "mem://sp/s0", created("mem://shared/sp")), 510)
                .and(ack(1, SOURCE, 1, "mem://sp/s1"), 520)
                .and(ack(1, SINK, 0, "mem://sp/k0"), 530);
        scenario = completed(scenario, 2, reused("mem://shared/sp"));
        scenario = completed(scenario, 3, null);
        Then then = completed(scenario, 4, null).when(tick(), 5000);

        List<StateDiscarded> all = then.scenario().journal().stream().filter(StateDiscarded.class::isInstance)
                .map(StateDiscarded.class::cast).toList();
        assertThat(all).extracting(StateDiscarded::getCheckpointId).doesNotContain(1L);
        assertThat(locations(all)).doesNotContain("mem://sp/s0", "mem://sp/s1", "mem://sp/k0", "mem://shared/sp");
        assertThat(then.state().sharedState(JOB, "mem://shared/sp")).hasValueSatisfying(
                e -> assertThat(e.getReferences()).isEqualTo(1));
    }
}
