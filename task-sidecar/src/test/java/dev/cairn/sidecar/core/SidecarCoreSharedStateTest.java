package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.participantsTriggered;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishDecline;
import dev.cairn.sidecar.core.SidecarAction.PublishFinished;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantDecline;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shared objects of an incremental snapshot go into the ack's state handle, once the sidecar checked them. */
class SidecarCoreSharedStateTest {

    private static final String OWN = "file:///s/chk-1/sink-1";

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @Test
    void shouldPutTheSharedObjectsIntoTheAcksStateHandleWhenTheSnapshotNamesThem() {
        // given
        core.onTrigger(trigger(1, 1_000), 1_000);
        SnapshotResult result = SnapshotResult.of(OWN, 300).withShared(List.of(
                SharedObject.written("file:///s/shared/sst-7", 200),
                SharedObject.reused("file:///s/shared/sst-3", 90)));

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, result, 1_100);

        // then
        StateHandle handle = ((PublishAck) actions.get(0)).ack().getStateHandle();
        assertThat(handle.getLocation()).isEqualTo(OWN);
        assertThat(handle.getSizeBytes()).isEqualTo(300);
        assertThat(handle.getShared()).containsExactly(new SharedState("file:///s/shared/sst-7", 200L, false),
                new SharedState("file:///s/shared/sst-3", 90L, true));
    }

    @Test
    void shouldAckWithAnEmptyListWhenTheSnapshotIsSelfContained() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of(OWN, 300), 1_100);

        assertThat(((PublishAck) actions.get(0)).ack().getStateHandle().getShared()).isEmpty();
    }

    @Test
    void shouldPutTheSharedObjectsIntoTheFinalStateWhenTheTaskFinishesWithThem() {
        // given
        core.onTrigger(trigger(1, 1_000), 1_000);
        SnapshotResult finished = SnapshotResult.finishedWith(OWN, 300)
                .withShared(List.of(SharedObject.reused("file:///s/shared/sst-3", 90)));

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, finished, 1_100);

        // then
        TaskFinished end = ((PublishFinished) actions.get(0)).finished();
        assertThat(end.getFinalState().getShared()).containsExactly(new SharedState("file:///s/shared/sst-3", 90L,
                true));
    }

    @Test
    void shouldKeepTheSharedObjectsOfTheFinalStateWhenTheWorkerFinishesThroughTheSidecar() {
        StateHandle last = StateHandle.newBuilder().setLocation(OWN).setSizeBytes(300L)
                .setShared(List.of(new SharedState("file:///s/shared/sst-3", 90L, true))).build();

        List<SidecarAction> actions = core.onFinish(Optional.of(last), 1_100);

        assertThat(((PublishFinished) actions.get(0)).finished().getFinalState()).isEqualTo(last);
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "blank location  | BLANK,10                                  | entry 0 has no location",
        "no location     | NULL,10                                   | entry 0 has no location",
        "negative size   | file:///s/shared/a,-1                     | file:///s/shared/a has a negative size (-1)",
        "the state's own | file:///s/chk-1/sink-1,10                 | file:///s/chk-1/sink-1 is the state's own",
        "listed twice    | file:///s/shared/a,1;file:///s/shared/a,1 | file:///s/shared/a is listed twice",
    })
    void shouldDeclineNamingTheObjectWhenASharedObjectIsMalformed(String what, String objects, String problem) {
        // given
        core.onTrigger(trigger(1, 1_000), 1_000);
        List<SharedObject> shared = Arrays.stream(objects.split(";")).map(o -> o.split(",", -1))
                .map(o -> SharedObject.written(location(o[0]), Long.parseLong(o[1]))).toList();

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of(OWN, 300).withShared(shared),
                1_100);

        // then
        assertThat(actions).singleElement().isInstanceOf(PublishDecline.class);
        CheckpointDeclined decline = ((PublishDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);
        assertThat(decline.getMessage()).startsWith("the snapshot hook returned an invalid shared object: ")
                .contains(problem);
    }

    private static String location(String token) {
        return switch (token) {
            case "BLANK" -> " ";
            case "NULL" -> null;
            default -> token;
        };
    }

    @Test
    void shouldDeclineWhenASharedObjectIsNull() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of(OWN, 300)
                .withShared(Arrays.asList(SharedObject.written("file:///s/shared/a", 1), null)), 1_100);

        assertThat(((PublishDecline) actions.get(0)).decline().getMessage()).contains("entry 1 is null");
    }

    @Test
    void shouldDeclineWhenAParticipantNamesSharedObjects() {
        // given
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));
        participant.onParticipantsTriggered(participantsTriggered(1, 1_000, COORDINATOR_SIDE.name()), 1_000);

        // when
        List<SidecarAction> actions = participant.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/offsets", 3)
                .withShared(List.of(SharedObject.written("file:///s/shared/a", 1))), 1_100);

        // then
        ParticipantDeclined decline = ((PublishParticipantDecline) actions.get(0)).decline();
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(decline.getMessage()).contains("only a task's state may name shared objects");
    }
}
