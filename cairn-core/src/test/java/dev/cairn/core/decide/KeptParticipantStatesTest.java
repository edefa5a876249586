package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.participantAck;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.specWithParticipants;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.core.events.SidecarNotifications;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import org.junit.jupiter.api.Test;

/**
 * A participant's signed answer may be written to {@code cairn.acks} again at any time (at-least-once delivery, or
 * a replay by someone who can write the topic): no participant is told to delete a state that a checkpoint or
 * savepoint the coordinator keeps refers to.
 */
class KeptParticipantStatesTest {

    private static final String ALPHA = "alpha";

    /** Savepoint 1 and checkpoint 2 completed, each with the participant's state; only 2 is retained. */
    private static Scenario savepointThenCheckpoint() {
        return Scenario.runningJob(specWithParticipants(config().setTimeoutMs(10_000), ALPHA), 1_000_000)
                .and(savepointRequest("sp-1", "file:///savepoints/sp-1"), 100)
                .and(participantAck(1, ALPHA, 5), 200).ackAll(JOB, 1, 300)
                .and(checkpointRequest("cp-2"), 400)
                .and(participantAck(2, ALPHA, 6), 500).ackAll(JOB, 2, 600);
    }

    @Test
    void shouldAnswerAReplayedParticipantAckOfAKeptSavepointWithoutItsState() {
        Scenario scenario = savepointThenCheckpoint();
        assertThat(scenario.state().savepoints(JOB)).extracting(CheckpointCompleted::getCheckpointId)
                .containsExactly(1L);
        assertThat(scenario.state().retained(JOB).orElseThrow().getCheckpoints())
                .extracting(CheckpointCompleted::getCheckpointId, CheckpointCompleted::getType)
                .containsExactly(tuple(2L, CheckpointType.CHECKPOINT));

        Then then = scenario.when(participantAck(1, ALPHA, 5), 5_000);

        then.thenTypes(AckDiscarded.class);
        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle()).as("no state handed out for deletion").isNull();
        assertThat(discarded.getMessage()).contains("its state is kept: savepoint 1 refers to it");
        assertThat(SidecarNotifications.isForSidecars(discarded)).as("no sidecar hears of it").isFalse();
    }

    @Test
    void shouldAnswerAReplayedParticipantAckOfTheRetainedCheckpointWithoutItsState() {
        Then then = savepointThenCheckpoint().when(participantAck(2, ALPHA, 6), 5_000);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle()).isNull();
        assertThat(discarded.getMessage()).contains("retained checkpoint 2 refers to it");
    }
}
