package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.aborted;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.options;
import static dev.cairn.sidecar.core.ControlEvents.savepoint;
import static dev.cairn.sidecar.core.ControlEvents.savepointAborted;
import static dev.cairn.sidecar.core.ControlEvents.savepointCompleted;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.FrozenSchemaWriter;
import dev.cairn.sidecar.core.SidecarAction.NotifyAborted;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.SnapshotSkipped;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The options a snapshot is taken with, and stop-with-savepoint: the job stopping, or the stop failing. */
class SidecarCoreStopTest {

    private static final SnapshotResult RESULT = SnapshotResult.of("file:///s", 100);

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @Test
    void shouldHandTheHookTheTriggersOptionsWhenTheTriggerCarriesThem() {
        // given
        CheckpointTriggered trigger = trigger(7, 1_000);
        trigger.setOptions(options(PostCheckpointAction.NONE));

        // when
        List<SidecarAction> actions = core.onTrigger(trigger, 1_000);

        // then
        SnapshotRequest request = ((StartSnapshot) actions.get(0)).request();
        assertThat(request.options()).isEqualTo(new CheckpointOptions(BackupType.INCREMENTAL, SavepointFormat.NATIVE,
                PostCheckpointAction.NONE, AlignmentType.UNALIGNED, 250));
        assertThat(request.options().synchronous()).isFalse();
    }

    @Test
    void shouldHandTheHookTheDefaultOptionsWhenTheTriggerCarriesNone() {
        // given a trigger written before options existed (ControlEnvelope v2), as the sidecar decodes it
        CheckpointTriggered written = trigger(7, 1_000);
        written.setOptions(null);
        CheckpointTriggered old = (CheckpointTriggered) CairnSerdes.control().deserialize("cairn.control",
                FrozenSchemaWriter.encode(new ControlEnvelope(written), 2)).getEvent();

        // when
        List<SidecarAction> actions = core.onTrigger(old, 1_000);

        // then FULL, CANONICAL, NONE, ALIGNED, -1
        assertThat(((StartSnapshot) actions.get(0)).request().options()).isEqualTo(CheckpointOptions.DEFAULTS);
        assertThat(CheckpointOptions.DEFAULTS).isEqualTo(new CheckpointOptions(BackupType.FULL,
                SavepointFormat.CANONICAL, PostCheckpointAction.NONE, AlignmentType.ALIGNED, -1));
    }

    @Test
    void shouldTellTheHookTheSavepointIsSynchronousAndDrainsWhenItIsATerminatingStop() {
        // when
        List<SidecarAction> actions = core.onTrigger(savepoint(9, 1_000, PostCheckpointAction.TERMINATE), 1_000);

        // then
        CheckpointOptions options = ((StartSnapshot) actions.get(0)).request().options();
        assertThat(options.synchronous()).isTrue();
        assertThat(options.drain()).isTrue();
    }

    @Test
    void shouldTellTheWorkerTheJobIsStoppingAndDrainedWhenATerminatingStopCompletes() {
        // given
        core.onTrigger(savepoint(9, 1_000, PostCheckpointAction.TERMINATE), 1_000);
        core.onSnapshotSucceeded(9, RESULT, 1_100);

        // when
        List<SidecarAction> actions = core.onCompleted(savepointCompleted(9, PostCheckpointAction.TERMINATE));

        // then
        assertThat(actions).containsExactly(new NotifyComplete(9, -1, true, true));
        assertThat(core.isStopping()).isTrue();
    }

    @Test
    void shouldTellTheWorkerTheJobIsStoppingWithoutDrainingWhenASuspendingStopCompletes() {
        // given
        core.onTrigger(savepoint(9, 1_000, PostCheckpointAction.SUSPEND), 1_000);
        core.onSnapshotSucceeded(9, RESULT, 1_100);

        // when
        List<SidecarAction> actions = core.onCompleted(savepointCompleted(9, PostCheckpointAction.SUSPEND));

        // then
        assertThat(actions).containsExactly(new NotifyComplete(9, -1, true, false));
    }

    @Test
    void shouldIgnoreLaterTriggersWhenAStopWithSavepointCompleted() {
        // given the job stopped with savepoint 9
        core.onTrigger(savepoint(9, 1_000, PostCheckpointAction.SUSPEND), 1_000);
        core.onSnapshotSucceeded(9, RESULT, 1_100);
        core.onCompleted(savepointCompleted(9, PostCheckpointAction.SUSPEND));

        // when
        List<SidecarAction> actions = core.onTrigger(trigger(10, 2_000), 2_000);

        // then no snapshot, and nothing to be told later
        assertThat(actions).isEmpty();
        assertThat(core.onCompleted(completed(10, 9))).isEmpty();
    }

    @Test
    void shouldSkipQueuedSnapshotsWithoutAnswerWhenAStopWithSavepointCompletes() {
        // given checkpoint 10 queued behind checkpoint 8, which runs, while savepoint 9 needs no snapshot here
        core.onTrigger(trigger(8, 1_000), 1_000);
        core.onTrigger(trigger(10, 1_200), 1_200);

        // when stop-with-savepoint 9 completes
        List<SidecarAction> actions = core.onCompleted(savepointCompleted(9, PostCheckpointAction.TERMINATE));

        // then 10 is skipped; 8 still gets its answer, and nothing starts after it
        assertThat(actions).singleElement().isInstanceOfSatisfying(SnapshotSkipped.class,
                skipped -> assertThat(skipped.checkpointId()).isEqualTo(10));
        assertThat(core.onSnapshotSucceeded(8, RESULT, 1_300)).singleElement().isInstanceOf(PublishAck.class);
        assertThat(core.onSnapshotSucceeded(10, RESULT, 1_400)).as("10 never runs").isEmpty();
    }

    @Test
    void shouldTellTheWorkerTheStopFailedWhenAStopWithSavepointIsAborted() {
        // given
        core.onTrigger(savepoint(9, 1_000, PostCheckpointAction.TERMINATE), 1_000);
        core.onSnapshotSucceeded(9, RESULT, 1_100);

        // when
        List<SidecarAction> actions = core.onAborted(savepointAborted(9, PostCheckpointAction.TERMINATE));

        // then
        assertThat(actions).containsExactly(new NotifyAborted(9, -1, true));
    }

    @Test
    void shouldKeepSnapshottingWhenAStopWithSavepointIsAborted() {
        // given the stop failed
        core.onTrigger(savepoint(9, 1_000, PostCheckpointAction.SUSPEND), 1_000);
        core.onSnapshotSucceeded(9, RESULT, 1_100);
        core.onAborted(savepointAborted(9, PostCheckpointAction.SUSPEND));

        // when
        List<SidecarAction> actions = core.onTrigger(trigger(10, 2_000), 2_000);

        // then
        assertThat(actions).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(core.isStopping()).isFalse();
    }

    @Test
    void shouldNotStopWhenAnOrdinarySavepointOrCheckpointCompletes() {
        // given
        core.onTrigger(savepoint(9, 1_000, PostCheckpointAction.NONE), 1_000);
        core.onSnapshotSucceeded(9, RESULT, 1_100);

        // when
        List<SidecarAction> onComplete = core.onCompleted(savepointCompleted(9, PostCheckpointAction.NONE));
        List<SidecarAction> onAbort = core.onAborted(aborted(11, 9));

        // then
        assertThat(onComplete).containsExactly(new NotifyComplete(9, -1, false, false));
        assertThat(onAbort).isEmpty();
        assertThat(core.onTrigger(trigger(10, 2_000), 2_000)).singleElement().isInstanceOf(StartSnapshot.class);
    }
}
