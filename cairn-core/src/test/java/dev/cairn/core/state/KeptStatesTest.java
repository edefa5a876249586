package dev.cairn.core.state;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.events.SidecarNotifications;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.StateHandle;
import org.junit.jupiter.api.Test;

/**
 * Kafka delivers at least once, so an ack the coordinator accepted may come again at any time (Flink's RPC never
 * delivers one twice): no worker is told to delete a state that a checkpoint the coordinator keeps refers to.
 */
class KeptStatesTest {

    /** Checkpoint 1 completed at 1100 (every subtask acked), retained as the job's restore point. */
    private static Scenario completed() {
        return Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100);
    }

    @Test
    void shouldAnswerADuplicateOfAnAcceptedAckAfterItsCheckpointCompletedWithoutItsHandle() {
        Then then = completed().when(acknowledge(1, SOURCE, 0), 5000);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle()).isNull();
        assertThat(discarded.getMessage()).contains("accepted before");
        assertThat(SidecarNotifications.isForSidecars(discarded)).as("no sidecar hears of it").isFalse();
    }

    @Test
    void shouldKeepTheHandleOfAnotherAttemptsAckWhenTheRetainedCheckpointRefersToItsLocation() {
        CheckpointAcknowledged accepted = Fixtures.ack(JOB, 1, SINK, 0, Fixtures.attempt(SINK, 0, 1), 10);
        CheckpointAcknowledged sameState = Fixtures.ack(JOB, 1, SINK, 0, Fixtures.attempt(SINK, 0, 2), 10);
        sameState.setStateHandle(StateHandle.newBuilder().setLocation(accepted.getStateHandle().getLocation())
                .setSizeBytes(99L).build());

        Then then = completed().when(new Command.Acknowledge(sameState), 5000);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStateHandle()).isNull();
        assertThat(discarded.getMessage()).contains("its state handle is kept: checkpoint 1 refers to it");
    }

    @Test
    void shouldStillHandOutTheStateOfAnAckNoKeptCheckpointRefersTo() {
        CheckpointAcknowledged stray = Fixtures.ack(JOB, 1, SINK, 0, Fixtures.attempt(SINK, 0, 2), 10);

        Then then = completed().when(new Command.Acknowledge(stray), 5000);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStateHandle()).isEqualTo(stray.getStateHandle());
        assertThat(SidecarNotifications.isForSidecars(discarded)).isTrue();
    }

    @Test
    void shouldAnswerADuplicateAckOfThePendingCheckpointWithoutItsHandle() {
        Scenario scenario = Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000).and(tick(), 1000)
                .and(acknowledge(1, SOURCE, 0), 1050);

        Then then = scenario.when(acknowledge(1, SOURCE, 0), 1060);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle()).isNull();
    }
}
