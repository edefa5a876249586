package dev.cairn.core.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskStarted;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * The event union: every type of the journal's Avro union has exactly one {@link EventKind}, and the per-kind
 * properties agree with the unions of the other topics, so a new event type cannot be forgotten.
 */
class EventKindTest {

    private static final double FRACTION = 0.25;

    /** The classes of the union field {@code event} of an envelope. */
    private static Set<Class<?>> unionOf(Schema envelope) {
        return envelope.getField("event").schema().getTypes().stream()
                .<Class<?>>map(type -> SpecificData.get().getClass(type))
                .collect(Collectors.toSet());
    }

    private static Set<Class<?>> typesOf(Set<EventKind> kinds) {
        return kinds.stream().map(EventKind::type).collect(Collectors.toSet());
    }

    private static Set<EventKind> kindsWith(Predicate<EventKind> property) {
        return Arrays.stream(EventKind.values()).filter(property)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(EventKind.class)));
    }

    /** An empty event of the type, naming job {@code job-1}. */
    private static SpecificRecordBase eventOf(Class<?> type) {
        SpecificRecordBase event = (SpecificRecordBase) SpecificData.newInstance(type, null);
        event.put("jobId", "job-1");
        return event;
    }

    @Test
    void shouldClassifyEveryTypeWhenTheJournalUnionIsEnumerated() {
        Set<Class<?>> journal = unionOf(JournalEnvelope.getClassSchema());

        for (Class<?> type : journal) {
            assertThat(EventKind.of(eventOf(type)).type()).as(type.getSimpleName()).isEqualTo(type);
        }
        assertThat(typesOf(EnumSet.allOf(EventKind.class))).isEqualTo(journal);
    }

    @Test
    void shouldTakeTheInputKindsFromTheRequestAndAckUnionsWhenClassifying() {
        assertThat(typesOf(kindsWith(k -> k.origin() == EventKind.Origin.REQUESTS)))
                .isEqualTo(unionOf(RequestEnvelope.getClassSchema()));
        assertThat(typesOf(kindsWith(k -> k.origin() == EventKind.Origin.ACKS)))
                .isEqualTo(unionOf(AckEnvelope.getClassSchema()));
    }

    @Test
    void shouldLetExactlyTheControlUnionsKindsGoToSidecarsWhenClassifying() {
        assertThat(typesOf(kindsWith(EventKind::mayGoToSidecars))).isEqualTo(unionOf(ControlEnvelope.getClassSchema()));
    }

    @Test
    void shouldSetATimerWhenACheckpointIsTriggeredOrAPeriodicTriggerScheduled() {
        assertThat(kindsWith(EventKind::setsTimer)).containsExactlyInAnyOrder(EventKind.CHECKPOINT_TRIGGERED,
                EventKind.PARTICIPANTS_TRIGGERED, EventKind.PERIODIC_TRIGGER_SCHEDULED);
        CheckpointTriggered triggered = (CheckpointTriggered) eventOf(CheckpointTriggered.class);
        triggered.setTimeoutAtMs(5_000);
        PeriodicTriggerScheduled scheduled = (PeriodicTriggerScheduled) eventOf(PeriodicTriggerScheduled.class);
        scheduled.setDueAtMs(7_000);

        assertThat(TimerIndex.timer(triggered)).contains(new TimerIndex.Timer("job-1", 5_000));
        assertThat(TimerIndex.timer(scheduled)).contains(new TimerIndex.Timer("job-1", 7_000));
        assertThat(TimerIndex.timer(eventOf(CheckpointCompleted.class))).isEmpty();
    }

    @Test
    void shouldThrowWhenEvolvingAnEventOfNoKind() {
        CheckpointEvolver evolver = new CheckpointEvolver(CoordinatorSettings.DEFAULTS);
        CoordinatorState state = CoordinatorState.inMemory();

        assertThatThrownBy(() -> evolver.evolve(state, new JobState()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a journal event").hasMessageContaining("JobState");
        assertThat(state).isEqualTo(CoordinatorState.inMemory());
    }

    @Test
    void shouldThrowWhenTheKindOfNullIsAsked() {
        assertThatThrownBy(() -> EventKind.of(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a journal event: null");
    }

    @Test
    void shouldMakeACommandOfTheEventsJobWhenTheEventIsAnInput() {
        for (EventKind kind : kindsWith(k -> k.origin() != EventKind.Origin.DECIDED)) {
            SpecificRecordBase event = eventOf(kind.type());

            Command.Input command = Command.of(event, () -> FRACTION);

            assertThat(command.event()).as(kind.name()).isSameAs(event);
            assertThat(command.kind()).isEqualTo(kind);
            assertThat(command.jobId()).isEqualTo("job-1");
        }
    }

    @Test
    void shouldPassTheRandomFractionWhenTheCommandMaySchedule() {
        assertThat(((Command.RegisterJob) Command.of(Fixtures.spec(), () -> FRACTION)).initialDelayFraction())
                .isEqualTo(FRACTION);
        assertThat(Command.of(eventOf(TaskStarted.class), () -> {
            throw new AssertionError("no random value is needed for a task start");
        })).isInstanceOf(Command.StartTask.class);
    }

    @Test
    void shouldRefuseACommandWhenTheEventIsDecidedByTheCoordinator() {
        for (EventKind kind : kindsWith(k -> k.origin() == EventKind.Origin.DECIDED)) {
            assertThatThrownBy(() -> Command.of(eventOf(kind.type()), () -> FRACTION)).as(kind.name())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(kind.name()).hasMessageContaining("decided by the coordinator");
        }
    }
}
