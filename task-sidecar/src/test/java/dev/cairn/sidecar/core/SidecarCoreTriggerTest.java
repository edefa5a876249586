package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.ATTEMPT;
import static dev.cairn.sidecar.core.ControlEvents.JOB;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.TASK;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.roles;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static dev.cairn.sidecar.core.ControlEvents.triggerV1;
import static dev.cairn.sidecar.core.ControlEvents.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which triggers concern a sidecar, what its snapshots are asked for, and what its acks say. */
class SidecarCoreTriggerTest {

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    @Test
    void shouldStartTheSnapshotWithTheCheckpointsDetailsWhenTheTriggerPlansThisAttempt() {
        // when
        List<SidecarAction> actions = core.onTrigger(trigger(7, 1_000), 1_010);

        // then
        assertThat(actions).containsExactly(new StartSnapshot(new SnapshotRequest(7, 1_000, CheckpointType.CHECKPOINT,
                "file:///cp/orders/chk-7", JOB, TASK, 1), 1_010 + 5_000));
        assertThat(core.onTrigger(trigger(8, 1_100), 1_100)).as("7 runs: 8 waits").isEmpty();
    }

    @Test
    void shouldIgnoreATriggerWhenItIsOfAnotherJob() {
        CheckpointTriggered other = trigger(7, 1_000);
        other.setJobId("payments");

        assertThat(core.onTrigger(other, 1_010)).isEmpty();
        assertThat(core.onTrigger(trigger(8, 1_100), 1_100)).as("no snapshot runs: 8 starts")
                .singleElement().isInstanceOf(StartSnapshot.class);
    }

    @Test
    void shouldIgnoreAVersionOneTriggerWhenItPlansAnEarlierAttempt() {
        // given a checkpoint planned before this attempt registered
        CheckpointTriggered stale = triggerV1(7, 1_000, vertex(TASK, true, true, true, "attempt-0", "attempt-old"));

        // then
        assertThat(core.onTrigger(stale, 1_010)).isEmpty();
    }

    @Test
    void shouldIgnoreAVersionOneTriggerWhenItsPlanLacksThisSubtask() {
        CheckpointTriggered otherTask = triggerV1(7, 1_000, vertex("map", true, true, true, "x", ATTEMPT));
        CheckpointTriggered fewerSubtasks = triggerV1(8, 1_000, vertex(TASK, true, true, true, ATTEMPT));

        assertThat(core.onTrigger(otherTask, 1_010)).isEmpty();
        assertThat(core.onTrigger(fewerSubtasks, 1_010)).isEmpty();
    }

    @Test
    void shouldSnapshotWithThePlannedRolesWhenAVersionOneTriggerPlansThisAttempt() {
        List<SidecarAction> start = core.onTrigger(triggerV1(7, 1_000, vertex(TASK, true, false, true, "a", ATTEMPT)),
                1_000);

        assertThat(start).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(core.onSnapshotSucceeded(7, SnapshotResult.of("file:///s/7", 10), 1_100)).isEmpty();
    }

    @Test
    void shouldGiveThisTaskTheDefaultRolesWhenTheTriggerListsOnlyOtherTasks() {
        List<SidecarAction> start = core.onTrigger(trigger(7, 1_000, List.of(roles("map", false, false, true))), 1_000);

        assertThat(start).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(core.onSnapshotSucceeded(7, SnapshotResult.of("file:///s/7", 10), 1_100))
                .singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldSnapshotAndAckWhenTheVertexAcknowledgesButIsNotTriggered() {
        // given: Cairn has no barriers flowing between tasks, so acknowledging means snapshotting
        core.onTrigger(trigger(7, 1_000, List.of(roles(TASK, false, true, true))), 1_000);

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(7, SnapshotResult.of("file:///s/7", 10), 1_100);

        // then
        assertThat(actions).singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldSnapshotWithoutAckingWhenTheVertexIsTriggeredButDoesNotAcknowledge() {
        // given
        List<SidecarAction> start = core.onTrigger(trigger(7, 1_000, List.of(roles(TASK, true, false, true))),
                1_000);

        // when
        List<SidecarAction> done = core.onSnapshotSucceeded(7, SnapshotResult.of("file:///s/7", 10), 1_100);

        // then the coordinator would discard the ack of a vertex that does not acknowledge
        assertThat(start).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(done).isEmpty();
    }

    @Test
    void shouldTakeNoSnapshotButLearnTheOutcomeWhenTheVertexIsOnlyNotified() {
        // given
        List<SidecarAction> onTrigger = core.onTrigger(trigger(7, 1_000, List.of(roles(TASK, false, false, true))),
                1_000);

        // when
        List<SidecarAction> onComplete = core.onCompleted(completed(7, 6));

        // then
        assertThat(onTrigger).isEmpty();
        assertThat(onComplete).containsExactly(new NotifyComplete(7, 6));
    }

    @Test
    void shouldNotTellTheOutcomeWhenTheVertexIsNotNotified() {
        core.onTrigger(trigger(7, 1_000, List.of(roles(TASK, true, true, false))), 1_000);
        core.onSnapshotSucceeded(7, SnapshotResult.of("file:///s/7", 10), 1_100);

        assertThat(core.onCompleted(completed(7, -1))).isEmpty();
    }

    @Test
    void shouldRunSnapshotsOneAtATimeInTriggerOrderWhenSeveralAreTriggered() {
        // given three triggers in a row
        List<SidecarAction> first = core.onTrigger(trigger(1, 1_000), 1_000);
        List<SidecarAction> second = core.onTrigger(trigger(2, 1_100), 1_100);
        List<SidecarAction> third = core.onTrigger(trigger(3, 1_200), 1_200);

        // then only the first runs; the others wait
        assertThat(first).singleElement().isInstanceOf(StartSnapshot.class);
        assertThat(second).isEmpty();
        assertThat(third).isEmpty();

        // when the first finishes, it is acked and the second starts
        List<SidecarAction> afterFirst = core.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/1", 1), 1_300);
        assertThat(afterFirst).hasSize(2);
        assertThat(afterFirst.get(0)).isInstanceOf(PublishAck.class);
        assertThat(((StartSnapshot) afterFirst.get(1)).request().checkpointId()).isEqualTo(2);

        // and after the second, the third
        List<SidecarAction> afterSecond = core.onSnapshotSucceeded(2, SnapshotResult.of("file:///s/2", 1), 1_400);
        assertThat(((StartSnapshot) afterSecond.get(1)).request().checkpointId()).isEqualTo(3);
        assertThat(core.onSnapshotSucceeded(3, SnapshotResult.of("file:///s/3", 1), 1_500)).as("none waits")
                .singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldCarryTheStateHandleMetricsAndStartDelayWhenAcking() {
        // given checkpoint 2 triggered at 1000 waits behind checkpoint 1 and starts at 1500
        core.onTrigger(trigger(1, 900), 900);
        core.onTrigger(trigger(2, 1_000), 1_010);
        core.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/1", 1), 1_500);

        // when
        List<SidecarAction> actions = core.onSnapshotSucceeded(2,
                new SnapshotResult("file:///s/2", 4_096, 3, 40, 2, 1_024), 1_600);

        // then
        CheckpointAcknowledged ack = ((PublishAck) actions.get(0)).ack();
        assertThat(ack.getJobId()).isEqualTo(JOB);
        assertThat(ack.getCheckpointId()).isEqualTo(2);
        assertThat(ack.getTaskId()).isEqualTo(TASK);
        assertThat(ack.getSubtaskIndex()).isEqualTo(1);
        assertThat(ack.getAttemptId()).isEqualTo(ATTEMPT);
        assertThat(ack.getStateHandle().getLocation()).isEqualTo("file:///s/2");
        assertThat(ack.getStateHandle().getSizeBytes()).isEqualTo(4_096);
        assertThat(ack.getMetrics().getStartDelayMs()).isEqualTo(500);
        assertThat(ack.getMetrics().getSyncDurationMs()).isEqualTo(3);
        assertThat(ack.getMetrics().getAsyncDurationMs()).isEqualTo(40);
        assertThat(ack.getMetrics().getAlignmentDurationMs()).isEqualTo(2);
        assertThat(ack.getMetrics().getBytesPersisted()).isEqualTo(1_024);
        assertThat(ack.getTimestampMs()).isEqualTo(1_600);
    }

    @Test
    void shouldReportTheHooksWholeDurationAsAsyncWhenTheWorkerMeasuredNothing() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/1", 8), 1_250);

        CheckpointAcknowledged ack = ((PublishAck) actions.get(0)).ack();
        assertThat(ack.getMetrics().getSyncDurationMs()).isZero();
        assertThat(ack.getMetrics().getAsyncDurationMs()).isEqualTo(250);
        assertThat(ack.getMetrics().getStartDelayMs()).isZero();
    }

    @Test
    void shouldNeverReportANegativeStartDelayWhenTheCoordinatorsClockIsAhead() {
        core.onTrigger(trigger(1, 5_000), 1_000);

        List<SidecarAction> actions = core.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/1", 8), 1_100);

        assertThat(((PublishAck) actions.get(0)).ack().getMetrics().getStartDelayMs()).isZero();
    }

    @Test
    void shouldIgnoreATriggerWhenItRepeatsTheSameCheckpoint() {
        core.onTrigger(trigger(1, 1_000), 1_000);

        assertThat(core.onTrigger(trigger(1, 1_000), 1_050)).isEmpty();
        assertThat(core.onSnapshotSucceeded(1, SnapshotResult.of("file:///s/1", 1), 1_100)).as("1 is not queued again")
                .singleElement().isInstanceOf(PublishAck.class);
    }

    @Test
    void shouldIgnoreATriggerWhenItArrivesAfterItsCheckpointEnded() {
        // given the end of checkpoint 4 was seen first
        core.onCompleted(completed(4, -1));

        // then
        assertThat(core.onTrigger(trigger(4, 1_000), 1_000)).isEmpty();
        assertThat(core.onTrigger(trigger(5, 1_100), 1_100)).as("no snapshot runs: 5 starts")
                .singleElement().isInstanceOf(StartSnapshot.class);
    }

    @Test
    void shouldCarryTheTypeAndTargetLocationWhenASavepointIsRequested() {
        CheckpointTriggered savepoint = trigger(9, 1_000);
        savepoint.setType(CheckpointType.SAVEPOINT);
        savepoint.setStorageLocation("s3://savepoints/sp-9");

        List<SidecarAction> actions = core.onTrigger(savepoint, 1_000);

        SnapshotRequest request = ((StartSnapshot) actions.get(0)).request();
        assertThat(request.type()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.storageLocation()).isEqualTo("s3://savepoints/sp-9");
    }
}
