package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.participantsTriggered;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.StateHandle;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishDecline;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantDecline;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a snapshot declares for a rescale (its key groups, or the mode its state that is not keyed is handed out by)
 * goes into the ack's state handle once the sidecar checked it; a declaration it cannot pass on declines.
 */
class SidecarCoreKeyGroupsTest {

    private static final String OWN = "file:///s/chk-1/sink-1";

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @Test
    void shouldAckWithTheKeyGroupsWhenTheSnapshotDeclaresThem() {
        // given
        core.onTrigger(trigger(1, 1_000), 1_000);
        SnapshotResult result = SnapshotResult.of(OWN, 300).withKeyGroups(new KeyGroupRange(32, 63));

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, result, 1_100);

        // then
        StateHandle handle = ((PublishAck) actions.get(0)).ack().getStateHandle();
        assertThat(handle.getKeyGroups()).isEqualTo(new dev.cairn.events.KeyGroupRange(32, 63));
    }

    @Test
    void shouldAckARangeOfOneKeyGroupWhenItStartsAtTheFirstGroup() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of(OWN, 300)
                .withKeyGroups(new KeyGroupRange(0, 0)), 1_100);

        assertThat(actions.get(0)).isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldDeclineNamingTheRangeWhenTheKeyGroupRangeIsEmpty() {
        // given
        core.onTrigger(trigger(1, 1_000), 1_000);

        // when the range ends before it starts (the SPI's empty range: a state holds at least one key group)
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of(OWN, 300)
                .withKeyGroups(new KeyGroupRange(8, 7)), 1_100);

        // then
        assertThat(actions).singleElement().isInstanceOf(PublishDecline.class);
        CheckpointDeclined decline = ((PublishDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);
        assertThat(decline.getMessage()).isEqualTo("the snapshot hook returned an invalid key-group range [8, 7]: a"
                + " state's range holds at least one key group, [start, end] with 0 <= start <= end");
    }

    @Test
    void shouldDeclineWhenAFinishedTaskDeclaresKeyGroupsWithoutAState() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.finishedWithoutState()
                .withOperatorStateMode(OperatorStateMode.UNION), 1_100);

        assertThat(((PublishDecline) actions.get(0)).decline().getMessage()).isEqualTo("the snapshot hook answered"
                + " operator state mode UNION but no state handle location");
    }

    @Test
    void shouldDeclineWhenAParticipantDeclaresKeyGroups() {
        // given
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));
        participant.onParticipantsTriggered(participantsTriggered(1, 1_000, COORDINATOR_SIDE.name()), 1_000);

        // when
        List<SidecarAction> actions = participant.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/offsets", 3)
                .withKeyGroups(new KeyGroupRange(0, 127)), 1_100);

        // then
        ParticipantDeclined decline = ((PublishParticipantDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(decline.getMessage()).startsWith("the participant's hook answered key groups [0, 127]; only a"
                + " task's state is redistributed on a rescale");
    }

    @Test
    void shouldDeclineWhenAParticipantDeclaresAnOperatorStateMode() {
        // given
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));
        participant.onParticipantsTriggered(participantsTriggered(1, 1_000, COORDINATOR_SIDE.name()), 1_000);

        // when
        List<SidecarAction> actions = participant.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/offsets", 3)
                .withOperatorStateMode(OperatorStateMode.SPLIT_DISTRIBUTE), 1_100);

        // then
        ParticipantDeclined decline = ((PublishParticipantDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(decline.getMessage()).contains("operator state mode SPLIT_DISTRIBUTE")
                .contains("a participant declares neither key groups nor an operator state mode");
    }
}
