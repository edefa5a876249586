package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.finish;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.status;
import static dev.cairn.core.testing.Fixtures.tick;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.core.state.RestorePoints;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskRoles;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Checkpoints after tasks finish (Flink's FLIP-147): a finished subtask is not triggered, counts as acknowledged
 * with its final state, answers a checkpoint that waited for it, and the job is FINISHED when all have finished.
 */
class FinishedTasksTest {

    /** source (2 subtasks, triggered, acknowledging) -> sink (1, acknowledging), every subtask running. */
    private static Scenario running() {
        return Scenario.runningJob(spec(), 1000);
    }

    /** Checkpoint 1 triggered at 1000 with every subtask running. */
    private static Scenario pending() {
        return running().and(tick(), 1000);
    }

    /**
     * Flink's CheckpointCoordinatorTest#testCheckpointTriggeredAfterSomeTasksFinishedIfAllowed: finished subtasks
     * are not triggered, not waited for, and counted as acknowledged with their final state.
     */
    @Test
    void shouldNotWaitForAFinishedSubtaskAndCountItsFinalStateInTheCheckpoint() {
        Scenario scenario = running().and(finish(SOURCE, 0, 30), 900);

        Then triggered = scenario.when(tick(), 1000);
        CheckpointTriggered trigger = triggered.single(CheckpointTriggered.class);
        assertThat(trigger.getAcksExpected()).isEqualTo(2);
        assertThat(trigger.getFinishedSubtasks()).isEqualTo(1);
        assertThat(trigger.getFinishedStateBytes()).isEqualTo(30);
        assertThat(trigger.getRoles()).containsExactly(new TaskRoles(SINK, false, true, true));

        Then completed = scenario.and(acknowledge(1, SOURCE, 1), 1100).when(acknowledge(1, SINK, 0), 1200);
        CheckpointCompleted checkpoint = completed.single(CheckpointCompleted.class);
        assertThat(checkpoint.getSubtaskCount()).isEqualTo(3);
        assertThat(checkpoint.getTotalSizeBytes()).isEqualTo(10 + 10 + 30);
    }

    /** A subtask that finished without state is counted with nothing to restore. */
    @Test
    void shouldCountASubtaskThatFinishedWithoutStateAsAcknowledgedWithNothing() {
        Then then = running().and(finish(SOURCE, 0, 1, null), 900).when(tick(), 1000);

        CheckpointTriggered trigger = then.single(CheckpointTriggered.class);
        assertThat(trigger.getFinishedSubtasks()).isEqualTo(1);
        assertThat(trigger.getFinishedStateBytes()).isZero();
    }

    /** Flink (FLIP-147): a task that finishes while a checkpoint waits for it reports its final state for it. */
    @Test
    void shouldTakeTheFinalStateAsTheAckOfACheckpointWaitingForTheSubtask() {
        Then then = pending().when(finish(SOURCE, 0, 30), 1100);

        then.thenTypes(TaskFinished.class, CheckpointAcknowledged.class);
        CheckpointAcknowledged ack = then.single(CheckpointAcknowledged.class);
        assertThat(ack.getCheckpointId()).isEqualTo(1);
        assertThat(ack.getAttemptId()).isEqualTo(Fixtures.attempt(SOURCE, 0, 1));
        assertThat(ack.getStateHandle()).isEqualTo(Fixtures.handle("mem://final/source/0", 30));
        assertThat(then.progress(JOB, 1).acksReceived()).isEqualTo(1);
    }

    /** Flink's CheckpointCoordinatorTest#testTasksFinishDuringTriggering, completed rather than aborted. */
    @Test
    void shouldCompleteTheCheckpointWhenTheLastSubtaskItWaitsForFinishes() {
        Scenario scenario = pending().and(acknowledge(1, SOURCE, 1), 1100).and(acknowledge(1, SINK, 0), 1100);

        Then then = scenario.when(finish(SOURCE, 0, 30), 1200);

        then.thenTypes(TaskFinished.class, CheckpointAcknowledged.class, CheckpointCompleted.class);
        CheckpointCompleted completed = then.single(CheckpointCompleted.class);
        assertThat(completed.getSubtaskCount()).isEqualTo(3);
        assertThat(completed.getTotalSizeBytes()).isEqualTo(50);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
    }

    /** Flink's PendingCheckpoint#acknowledgeTask: a subtask's first ack stands; finishing later does not replace it. */
    @Test
    void shouldKeepTheAckOfASubtaskThatAckedBeforeItFinished() {
        Then then = pending().and(acknowledge(1, SOURCE, 0), 1100).when(finish(SOURCE, 0, 30), 1200);

        then.thenTypes(TaskFinished.class);
        assertThat(then.state().ack(JOB, 1, SOURCE, 0)).hasValueSatisfying(
                ack -> assertThat(ack.getStateHandle().getSizeBytes()).isEqualTo(10));
    }

    /** A triggered-only subtask owes no ack: its finish answers nothing. */
    @Test
    void shouldNotAckForASubtaskOfAVertexThatDoesNotAcknowledge() {
        Scenario scenario = Scenario.runningJob(Fixtures.spec(JOB, config(), vertex("trigger-only", 2, true, false),
                vertex(SINK, 1, false, true)), 1000).and(tick(), 1000);

        scenario.when(finish("trigger-only", 0, 30), 1100).thenTypes(TaskFinished.class);
    }

    /**
     * Flink's CheckpointCoordinatorTest#testStateCleanupForLateOrUnknownMessages: a checkpoint triggered after a
     * subtask finished does not wait for it, so an ack of that subtask for it is not in the plan: it is discarded
     * (and does not stand in for the ack of a subtask that is still running).
     */
    @Test
    void shouldDiscardAnAckFromASubtaskThatFinishedBeforeTheCheckpointWasTriggered() {
        Scenario scenario = running().and(finish(SOURCE, 0, 30), 900).and(tick(), 1000);

        Then then = scenario.when(acknowledge(1, SOURCE, 0), 1100);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
        assertThat(discarded.getStateHandle()).isNotNull();
        assertThat(then.progress(JOB, 1).acksReceived()).isZero();

        Then other = then.scenario().when(acknowledge(1, SOURCE, 1), 1200);
        assertThat(other.has(CheckpointCompleted.class)).as("the sink has not acknowledged yet").isFalse();
    }

    /** Flink's DefaultCheckpointPlanCalculatorTest: a fully finished vertex takes no part in the plan. */
    @Test
    void shouldLeaveAVertexWhoseSubtasksAllFinishedOutOfTheRoles() {
        Then then = running().and(finish(SINK, 0, 5), 900).when(tick(), 1000);

        CheckpointTriggered trigger = then.single(CheckpointTriggered.class);
        assertThat(trigger.getRoles()).isEmpty();
        assertThat(trigger.getAcksExpected()).isEqualTo(2);
        assertThat(trigger.getFinishedSubtasks()).isEqualTo(1);
    }

    /**
     * Flink's DefaultCheckpointPlanCalculatorTest#testAllToAllEdgeWithSomeSourcesFinished: when every source
     * finished, the running tasks downstream are triggered instead (Cairn has no edges: every running
     * acknowledging task); Flink's CheckpointCoordinatorTest#testCheckpointAbortsIfTriggerTasksAreFinished is the
     * case without checkpoints after tasks finish.
     */
    @Test
    void shouldTriggerTheRunningAcknowledgingTasksWhenEveryTriggeredTaskFinished() {
        TaskVertex quietSink = TaskVertex.newBuilder().setTaskId(SINK).setParallelism(1).setTriggered(false)
                .setAcknowledges(true).setNotified(false).build();
        Scenario scenario = Scenario.runningJob(Fixtures.spec(JOB, config(), vertex(SOURCE, 2, true, true),
                quietSink), 1000)
                .and(finish(SOURCE, 0, 1), 900)
                .and(finish(SOURCE, 1, 2), 900);

        Then then = scenario.when(tick(), 1000);

        CheckpointTriggered trigger = then.single(CheckpointTriggered.class);
        assertThat(trigger.getRoles()).containsExactly(new TaskRoles(SINK, true, true, false));
        assertThat(trigger.getAcksExpected()).isEqualTo(1);
        assertThat(trigger.getFinishedSubtasks()).isEqualTo(2);
        assertThat(trigger.getFinishedStateBytes()).isEqualTo(3);
    }

    /** When every acknowledging subtask has finished, nothing is awaited: the checkpoint completes when triggered. */
    @Test
    void shouldCompleteACheckpointAtOnceWhenNoRunningSubtaskAcknowledges() {
        Scenario scenario = Scenario.runningJob(Fixtures.spec(JOB, config(), vertex(SOURCE, 1, true, false),
                vertex(SINK, 1, false, true)), 1000).and(finish(SINK, 0, 8), 900);

        Then then = scenario.when(tick(), 1000);

        assertThat(then.events()).extracting(e -> (Object) e.getClass())
                .containsSubsequence(CheckpointTriggered.class, CheckpointCompleted.class);
        CheckpointCompleted completed = then.single(CheckpointCompleted.class);
        assertThat(completed.getSubtaskCount()).isEqualTo(1);
        assertThat(completed.getTotalSizeBytes()).isEqualTo(8);
    }

    /** Flink: a job whose every task finished is FINISHED; its schedule stops. */
    @Test
    void shouldFinishTheJobWhenEveryRequiredSubtaskFinished() {
        Scenario scenario = running().and(finish(SOURCE, 0, 1), 900).and(finish(SOURCE, 1, 1), 900);

        Then then = scenario.when(finish(SINK, 0, 1), 950);

        then.thenTypes(TaskFinished.class, JobStatusChange.class, PeriodicTriggerStopped.class);
        assertThat(then.single(JobStatusChange.class).getStatus()).isEqualTo(JobStatus.FINISHED);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isNull();
    }

    /** Flink: a job ends FINISHED when its last task finishes, also while its checkpointing is suspended. */
    @Test
    void shouldFinishASuspendedJobWhenEveryRequiredSubtaskFinished() {
        Scenario scenario = running().and(status(JobStatus.SUSPENDED), 800).and(finish(SOURCE, 0, 1), 900)
                .and(finish(SOURCE, 1, 1), 900);

        Then then = scenario.when(finish(SINK, 0, 1), 950);

        then.thenTypes(TaskFinished.class, JobStatusChange.class);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
    }

    /** Flink (FLIP-147): the final states complete the last checkpoint before the job is FINISHED. */
    @Test
    void shouldCompleteThePendingCheckpointWithTheFinalStatesBeforeTheJobFinishes() {
        Scenario scenario = pending().and(finish(SOURCE, 0, 1), 1100).and(finish(SOURCE, 1, 2), 1100);

        Then then = scenario.when(finish(SINK, 0, 4), 1200);

        then.thenTypes(TaskFinished.class, CheckpointAcknowledged.class, CheckpointCompleted.class,
                JobStatusChange.class, PeriodicTriggerStopped.class);
        assertThat(then.single(CheckpointCompleted.class).getTotalSizeBytes()).isEqualTo(7);
        assertThat(then.job(JOB).getLatestCompletedId()).isEqualTo(1);
    }

    /** A new attempt of a finished subtask (a restart from a checkpoint) runs again: it is triggered and awaited. */
    @Test
    void shouldRunAFinishedSubtaskAgainWhenANewAttemptOfItStarts() {
        Scenario scenario = running().and(finish(SOURCE, 0, 30), 900);

        Then started = scenario.when(Fixtures.start(SOURCE, 0, 2), 950);
        started.thenTypes(TaskStarted.class);
        assertThat(started.state().finished(JOB, SOURCE, 0)).isEmpty();
        assertThat(started.job(JOB).getFinishedSubtasks()).isZero();

        CheckpointTriggered trigger = scenario.when(tick(), 1000).single(CheckpointTriggered.class);
        assertThat(trigger.getAcksExpected()).isEqualTo(3);
        assertThat(trigger.getFinishedSubtasks()).isZero();
    }

    /** Flink's Execution#markFinished applies to the current attempt only; a stale attempt's report is rejected. */
    @Test
    void shouldRejectAFinishOfAnAttemptThatIsNotTheRunningOne() {
        Scenario scenario = running().and(Fixtures.start(SOURCE, 0, 2), 900);

        Then then = scenario.when(finish(SOURCE, 0, 1, null), 950);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("is not the running one");
        assertThat(then.state().finished(JOB, SOURCE, 0)).isEmpty();
    }

    /** Flink's CheckpointCoordinatorTest#testStateCleanupForLateOrUnknownMessages, for a finish of no such subtask. */
    @ParameterizedTest
    @CsvSource({"nope, 0", "source, 2", "sink, 1"})
    void shouldRejectAFinishOfATaskOrSubtaskTheJobDoesNotHave(String taskId, int subtask) {
        Then then = running().when(finish(taskId, subtask, 1, null), 950);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).startsWith("unknown task");
    }

    /** Flink's ExecutionState FINISHED is terminal: a second report of the same finish changes nothing. */
    @Test
    void shouldRefuseARepeatedFinishWithItsReason() {
        Then then = running().and(finish(SOURCE, 0, 30), 900).when(finish(SOURCE, 0, 30), 950);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("finished already")
                .endsWith("a repeated finish changes nothing");
    }

    /** A subtask that finished is not failed by its absence: a decline of the others still aborts as usual. */
    @Test
    void shouldAbortACheckpointWithFinishedSubtasksWhenARunningOneDeclines() {
        Scenario scenario = running().and(finish(SOURCE, 0, 30), 900).and(tick(), 1000);

        Then then = scenario.when(decline(1, SINK, 0), 1100);

        assertThat(then.job(JOB).getPending()).isEmpty();
        assertThat(then.history(JOB)).singleElement()
                .satisfies(s -> assertThat(s.getStatus()).isEqualTo(CheckpointStatus.FAILED));
    }

    /**
     * Flink's CheckpointCoordinatorTest#testCheckpointTriggeredAfterSomeTasksFinishedIfAllowed: the statistics count
     * finished subtasks as acknowledged, so a checkpoint's history shows as many acks as it expected.
     */
    @Test
    void shouldCountFinishedSubtasksOnBothSidesOfTheHistorysAckFigures() {
        Scenario scenario = running().and(finish(SOURCE, 0, 30), 900).and(tick(), 1000)
                .and(acknowledge(1, SOURCE, 1), 1100).and(acknowledge(1, SINK, 0), 1200)
                .and(tick(), 2000);

        Scenario failed = scenario.and(decline(2, SINK, 0), 2100);

        List<CheckpointSummary> history = failed.history(JOB);
        assertThat(history).extracting(CheckpointSummary::getStatus)
                .containsExactly(CheckpointStatus.COMPLETED, CheckpointStatus.FAILED);
        assertThat(history.get(0).getAcksReceived()).isEqualTo(3);
        assertThat(history.get(0).getAcksExpected()).isEqualTo(3);
        assertThat(history.get(0).getStateSizeBytes()).isEqualTo(50);
        assertThat(history.get(1).getAcksReceived()).as("the finished subtask only").isEqualTo(1);
        assertThat(history.get(1).getAcksExpected()).isEqualTo(3);
    }

    /** The final states of finished subtasks are handed out for restore with the acks, by task and subtask. */
    @Test
    void shouldHandOutTheFinalStatesOfFinishedSubtasksForRestore() {
        CheckpointAcknowledged sinkAck = Fixtures.ack(JOB, 4, SINK, 0, "sink-0-a1", 3);
        TaskFinished source0 = finish(SOURCE, 0, 30).event();
        TaskFinished source1 = finish(SOURCE, 1, 1, null).event();
        TaskFinished notCounted = finish("other", 0, 9).event();

        CheckpointCompleted completed = CheckpointCompleted.newBuilder().setJobId(JOB).setCheckpointId(4)
                .setType(CheckpointType.CHECKPOINT).setTriggerTimestampMs(0).setCompletionTimestampMs(1)
                .setStorageLocation("file:///cp").setSubtaskStates(List.of()).setTotalSizeBytes(33)
                .setSubtaskCount(3).build();
        TaskVertex source = TaskVertex.newBuilder().setTaskId(SOURCE).setParallelism(2).build();

        List<CheckpointAcknowledged> states = RestorePoints.statesOf(completed, List.of(sinkAck),
                () -> List.of(source1, notCounted, source0),
                taskId -> taskId.equals(SOURCE) ? java.util.Optional.of(source) : java.util.Optional.empty());

        assertThat(states).extracting(CheckpointAcknowledged::getTaskId, CheckpointAcknowledged::getSubtaskIndex,
                a -> a.getStateHandle().getSizeBytes()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(SINK, 0, 3L),
                org.assertj.core.groups.Tuple.tuple(SOURCE, 0, 30L),
                org.assertj.core.groups.Tuple.tuple(SOURCE, 1, 0L));
        assertThat(states).allSatisfy(a -> assertThat(a.getCheckpointId()).isEqualTo(4));
        completed.setSubtaskCount(1);
        assertThat(RestorePoints.statesOf(completed, List.of(sinkAck), () -> {
            throw new AssertionError("a checkpoint that counts no finished subtask reads none");
        }, taskId -> java.util.Optional.of(source))).containsExactly(sinkAck);
    }
}
