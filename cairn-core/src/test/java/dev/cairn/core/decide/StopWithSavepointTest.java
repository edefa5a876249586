package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.declined;
import static dev.cairn.core.testing.Fixtures.request;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerFailed;
import dev.cairn.events.TriggerRequest;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Stop-with-savepoint: a synchronous savepoint ({@code postCheckpointAction} SUSPEND or TERMINATE) that stops the
 * periodic trigger when it is asked for, ends the job when it completes, and gives the job back its schedule when
 * it fails (Flink: SchedulerBase#stopWithSavepoint and StopWithSavepointTerminationHandlerImpl).
 */
class StopWithSavepointTest {

    /** Flink's CheckpointFailureReason#isPreFlight. */
    private static final Set<CheckpointFailureReason> PRE_FLIGHT = EnumSet.of(
            CheckpointFailureReason.PERIODIC_SCHEDULER_SHUTDOWN, CheckpointFailureReason.TOO_MANY_CHECKPOINT_REQUESTS,
            CheckpointFailureReason.MINIMUM_TIME_BETWEEN_CHECKPOINTS,
            CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING, CheckpointFailureReason.IO_EXCEPTION,
            CheckpointFailureReason.BLOCKING_OUTPUT_EXIST);

    /** A running job (periodic trigger due at 1000) whose stop-with-savepoint, checkpoint 1, is pending since 10. */
    private static Scenario stopping(CheckpointConfig.Builder config) {
        return Scenario.runningJob(spec(config), 1000).and(stop("stop", PostCheckpointAction.SUSPEND), 10);
    }

    /**
     * Flink's CheckpointCoordinator#stopCheckpointScheduler, called before triggerSynchronousSavepoint: the
     * periodic trigger stops, what is pending is aborted and what is queued dropped, then the stop runs.
     */
    @Test
    void shouldStopThePeriodicTriggerAndAbortPendingAndQueuedRequestsBeforeTheStopRuns() {
        Scenario scenario = Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000)
                .and(tick(), 1000)
                .and(tick(), 2000)
                .and(checkpointRequest("manual"), 2010);

        Then then = scenario.when(stop("stop", PostCheckpointAction.SUSPEND), 2100);

        then.thenTypes(TriggerRequest.class, PeriodicTriggerStopped.class, CheckpointAborted.class,
                RequestDequeued.class, RequestOutcome.class, RequestDequeued.class, RequestQueued.class,
                RequestDequeued.class, CheckpointTriggered.class, RequestOutcome.class);
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getCheckpointId()).isEqualTo(1);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
        assertThat(then.all(RequestDequeued.class)).extracting(RequestDequeued::getReason).containsExactly(
                CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND,
                CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND, null);
        assertThat(then.all(RequestOutcome.class)).extracting(RequestOutcome::getRequestId, RequestOutcome::getStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("manual", RequestStatus.FAILED),
                        org.assertj.core.groups.Tuple.tuple("stop", RequestStatus.TRIGGERED));
        assertThat(then.has(CheckpointFailureCounted.class)).as("suspension does not count").isFalse();
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isNull();
        assertThat(then.job(JOB).getQueue()).isEmpty();
    }

    /** Flink's SavepointType#suspend and #terminate: the trigger tells the tasks which stop it is. */
    @ParameterizedTest
    @EnumSource(value = PostCheckpointAction.class, names = {"SUSPEND", "TERMINATE"})
    void shouldTriggerASynchronousSavepointThatCarriesItsPostCheckpointAction(PostCheckpointAction action) {
        Then then = Scenario.runningJob(spec(), 1000).when(stop("stop", action), 10);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(triggered.getForce()).isTrue();
        assertThat(triggered.getStorageLocation()).isEqualTo("file:///checkpoints/job-1/savepoint-1");
        assertThat(triggered.getOptions().getPostCheckpointAction()).isEqualTo(action);
        assertThat(then.has(PeriodicTriggerStopped.class)).isTrue();
    }

    /** Flink's stopCheckpointScheduler empties the coordinator first, so a stop of an unaligned job runs at once. */
    @Test
    void shouldRunAStopOfAnUnalignedJobAtOnceAlthoughItIsNotForced() {
        Scenario scenario = Scenario.runningJob(spec(config().setUnalignedEnabled(true).setTimeoutMs(10_000)), 1000)
                .and(tick(), 1000);

        Then then = scenario.when(stop("stop", PostCheckpointAction.SUSPEND), 1100);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getForce()).isFalse();
        assertThat(triggered.getCheckpointId()).isEqualTo(2);
        assertThat(then.job(JOB).getPending()).hasSize(1);
    }

    /** Flink's StreamTask#setSynchronousSavepoint: at most one stop-with-savepoint at a time. */
    @Test
    void shouldRejectASecondStopWhileTheFirstIsPending() {
        Then then = stopping(config()).when(stop("again", PostCheckpointAction.TERMINATE), 20);

        then.thenTypes(TriggerRequest.class, RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getRequestId()).isEqualTo("again");
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.INVALID_REQUEST);
        assertThat(outcome.getMessage()).contains("already in progress");
        assertThat(then.job(JOB).getPending()).extracting(p -> p.getRequestId()).containsExactly("stop");
    }

    /** As above, for a non-forced stop still waiting in the queue behind a pending checkpoint (a given journal). */
    @Test
    void shouldRejectASecondStopWhileTheFirstIsQueued() {
        Scenario scenario = Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000).and(tick(), 1000);
        scenario.andJournal(RequestQueued.newBuilder()
                .setJobId(JOB).setRequestId("first").setType(CheckpointType.SAVEPOINT).setForce(false)
                .setPeriodic(false).setSequence(scenario.job(JOB).getNextRequestSequence()).setTimestampMs(1010)
                .setPostCheckpointAction(PostCheckpointAction.SUSPEND).build());

        Then then = scenario.when(stop("second", PostCheckpointAction.SUSPEND), 1100);

        then.thenTypes(TriggerRequest.class, RequestOutcome.class);
        assertThat(then.single(RequestOutcome.class).getReason()).isEqualTo(CheckpointFailureReason.INVALID_REQUEST);
        assertThat(then.job(JOB).getQueue()).extracting(q -> q.getRequestId()).containsExactly("first");
    }

    /**
     * Flink's StopWithSavepointTerminationHandlerImplTest#testHappyPath: the job ends, scheduling stays off; the
     * savepoint is kept for recovery, as Flink keeps a stop's savepoint in its completed checkpoint store.
     */
    @ParameterizedTest
    @EnumSource(value = PostCheckpointAction.class, names = {"SUSPEND", "TERMINATE"})
    void shouldFinishTheJobWhenTheStopCompletes(PostCheckpointAction action) {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(stop("stop", action), 10)
                .and(acknowledge(1, SOURCE, 0), 20)
                .and(acknowledge(1, SOURCE, 1), 20);

        Then then = scenario.when(acknowledge(1, SINK, 0), 30);

        then.thenTypes(CheckpointAcknowledged.class, CheckpointCompleted.class, RequestOutcome.class,
                JobStatusChange.class);
        CheckpointCompleted completed = then.single(CheckpointCompleted.class);
        assertThat(completed.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(completed.getOptions().getPostCheckpointAction()).isEqualTo(action);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.COMPLETED);
        assertThat(then.single(JobStatusChange.class).getStatus()).isEqualTo(JobStatus.FINISHED);
        var job = then.job(JOB);
        assertThat(job.getStatus()).isEqualTo(JobStatus.FINISHED);
        assertThat(job.getNextPeriodicDueMs()).as("the periodic trigger is not resumed").isNull();
        assertThat(job.getLastSucceededId()).isEqualTo(1);
        assertThat(job.getLatestCompletedId()).as("a savepoint is not the latest checkpoint").isEqualTo(-1);
        assertThat(then.state().retained(JOB).orElseThrow().getCheckpoints())
                .as("the stop's savepoint is the job's restore point: a sink that dies before it commits restores it")
                .extracting(CheckpointCompleted::getCheckpointId).containsExactly(1L);
    }

    /** Flink: once the job is finished, nothing it still had pending can complete. */
    @Test
    void shouldAbortACheckpointForcedDuringTheStopWhenTheStopFinishesTheJob() {
        Scenario scenario = stopping(config().setMaxConcurrent(1))
                .and(new Command.RequestTrigger(request("forced", CheckpointType.CHECKPOINT, true)), 15)
                .and(acknowledge(1, SOURCE, 0), 20)
                .and(acknowledge(1, SOURCE, 1), 20);

        Then then = scenario.when(acknowledge(1, SINK, 0), 30);

        assertThat(then.events()).extracting(e -> (Object) e.getClass()).containsSubsequence(
                CheckpointCompleted.class, JobStatusChange.class, CheckpointAborted.class);
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getCheckpointId()).isEqualTo(2);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
        assertThat(then.job(JOB).getPending()).isEmpty();
    }

    /** Flink (FLIP-147, stop with drain): a subtask that finishes instead of acking completes the stop. */
    @Test
    void shouldCompleteTheStopWhenItsLastSubtaskFinishesInsteadOfAcknowledging() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(stop("stop", PostCheckpointAction.TERMINATE), 10)
                .and(acknowledge(1, SOURCE, 0), 20)
                .and(acknowledge(1, SOURCE, 1), 20);

        Then then = scenario.when(Fixtures.finish(SINK, 0, 40), 30);

        then.thenTypes(TaskFinished.class, CheckpointAcknowledged.class, CheckpointCompleted.class,
                RequestOutcome.class, JobStatusChange.class);
        assertThat(then.single(CheckpointCompleted.class).getTotalSizeBytes()).isEqualTo(10 + 10 + 40);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
    }

    /**
     * Flink's CheckpointCoordinatorTest#jobFailsIfInFlightSynchronousSavepointIsDiscarded: a task's decline of a
     * stop fails the job at once, whatever the tolerance, and is not counted; the job stays RUNNING with its
     * schedule back until an orchestrator acts.
     */
    @Test
    void shouldFailTheJobAtOnceAndResumeTheScheduleWhenATaskDeclinesTheStop() {
        Then then = stopping(config().setTolerableFailures(5)).when(decline(1, SOURCE, 0), 20);

        then.thenTypes(CheckpointDeclined.class, CheckpointAborted.class, RequestOutcome.class, JobFailed.class,
                PeriodicTriggerScheduled.class);
        assertThat(then.single(CheckpointAborted.class).getOptions().getPostCheckpointAction())
                .as("the abort tells the tasks the stop is off").isEqualTo(PostCheckpointAction.SUSPEND);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.FAILED);
        JobFailed failed = then.single(JobFailed.class);
        assertThat(failed.getCause()).startsWith("Stop-with-savepoint 1 failed: CHECKPOINT_DECLINED");
        assertThat(failed.getTolerableFailures()).isEqualTo(5);
        assertThat(then.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(20 + 1000);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(then.job(JOB).getConsecutiveFailures()).isZero();
        assertThat(failed.getConsecutiveFailures()).as("the counter as it was: nothing failed before").isZero();
    }

    /**
     * Flink's CheckpointFailureManager: failing the job for a stop does not clear the consecutive failure counter
     * (only the threshold does), so failures before the stop still count after it.
     */
    @Test
    void shouldKeepTheConsecutiveFailureCountWhenATaskDeclinesTheStop() {
        Scenario oneFailure = Scenario.runningJob(spec(config().setTolerableFailures(5)), 1000)
                .and(tick(), 1000)
                .and(decline(1, SOURCE, 0), 1100);
        assertThat(oneFailure.when(tick(), 1100).job(JOB).getConsecutiveFailures()).isEqualTo(1);

        Then then = oneFailure.and(stop("stop", PostCheckpointAction.SUSPEND), 1200).when(decline(2, SOURCE, 0), 1300);

        assertThat(then.single(JobFailed.class).getConsecutiveFailures()).isEqualTo(1);
        assertThat(then.job(JOB).getConsecutiveFailures()).isEqualTo(1);
    }

    /**
     * Flink's CheckpointFailureManager#handleTaskLevelCheckpointException fails the job for any task-level failure
     * of a synchronous savepoint; a pre-flight reason makes it job-level (handleSynchronousSavepointFailure).
     */
    @ParameterizedTest
    @EnumSource(CheckpointFailureReason.class)
    void shouldFailTheJobForATasksDeclineOfTheStopUnlessItsReasonIsPreFlight(CheckpointFailureReason reason) {
        Then then = stopping(config().setTolerableFailures(5))
                .when(new Command.Decline(declined(1, SINK, 0, reason)), 20);

        assertThat(then.single(CheckpointAborted.class).getReason()).isEqualTo(reason);
        assertThat(then.has(JobFailed.class)).isEqualTo(!PRE_FLIGHT.contains(reason));
        assertThat(then.has(CheckpointFailureCounted.class)).as("a savepoint's failure is never counted").isFalse();
        assertThat(then.has(PeriodicTriggerScheduled.class)).isTrue();
        assertThat(then.history(JOB)).singleElement()
                .satisfies(s -> assertThat(s.getStatus()).isEqualTo(CheckpointStatus.FAILED));
    }

    /**
     * Flink's StopWithSavepointTerminationHandlerImplTest#testSavepointCreationFailureWithoutExecutionTermination:
     * a stop that expires fails the request, not the job, and the checkpoint scheduling is enabled again.
     */
    @Test
    void shouldResumeTheScheduleWithoutFailingTheJobWhenTheStopExpires() {
        Then then = stopping(config()).when(tick(), 610);

        then.thenTypes(CheckpointAborted.class, RequestOutcome.class, PeriodicTriggerScheduled.class);
        assertThat(then.single(CheckpointAborted.class).getReason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(then.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(610 + 1000);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isEqualTo(1610);
    }

    /**
     * Flink's StopWithSavepointTerminationHandlerImpl#onSavepointCreationFailure, which ends in
     * terminateExceptionally and startCheckpointScheduler: a stop that cannot even be triggered (a task is not
     * running) fails its request and gives the job its schedule back.
     */
    @Test
    void shouldResumeTheScheduleWhenTheStopCannotBeTriggered() {
        Scenario scenario = Scenario.given().and(new Command.RegisterJob(spec(config()), 0.0), 0);

        Then then = scenario.when(stop("stop", PostCheckpointAction.SUSPEND), 10);

        then.thenTypes(TriggerRequest.class, PeriodicTriggerStopped.class, RequestQueued.class, RequestDequeued.class,
                TriggerFailed.class, RequestOutcome.class, PeriodicTriggerScheduled.class);
        assertThat(then.single(TriggerFailed.class).getReason())
                .isEqualTo(CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isEqualTo(10 + 1000);
    }

    /** Flink raises an interval below minPause to minPause; the resumed schedule waits that effective interval. */
    @Test
    void shouldResumeTheScheduleOneEffectiveIntervalAfterTheFailure() {
        Then then = stopping(config().setIntervalMs(1000).setMinPauseMs(3000)).when(tick(), 610);

        assertThat(then.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(610 + 3000);
    }

    /** After a failed stop, the periodic trigger runs again and a new stop may be asked for and succeed. */
    @Test
    void shouldTriggerPeriodicallyAgainAndAcceptANewStopAfterAFailedOne() {
        Scenario scenario = stopping(config()).and(tick(), 610);

        Then periodic = scenario.when(tick(), 1610);
        CheckpointTriggered triggered = periodic.single(CheckpointTriggered.class);
        assertThat(triggered.getCheckpointId()).isEqualTo(2);
        assertThat(triggered.getPeriodic()).isTrue();
        assertThat(periodic.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(2610);

        Then again = scenario.when(stop("stop-again", PostCheckpointAction.SUSPEND), 1700);
        assertThat(again.single(CheckpointTriggered.class).getCheckpointId()).isEqualTo(3);
        assertThat(again.single(CheckpointAborted.class).getCheckpointId()).isEqualTo(2);

        Scenario done = scenario.ackAll(JOB, 3, 1800);
        assertThat(done.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
    }

    /** A task restart aborts the stop as a job-level failure (TASK_FAILURE): the job is not failed for it. */
    @Test
    void shouldResumeTheScheduleWithoutFailingTheJobWhenATaskRestartsDuringTheStop() {
        Then then = stopping(config()).when(Fixtures.start(SOURCE, 1, 2), 20);

        then.thenTypes(TaskStarted.class, CheckpointAborted.class, RequestOutcome.class,
                PeriodicTriggerScheduled.class);
        assertThat(then.single(CheckpointAborted.class).getReason()).isEqualTo(CheckpointFailureReason.TASK_FAILURE);
    }

    /**
     * Flink's CheckpointFailureManager#handleSynchronousSavepointFailure: a stop that fails at the coordinator,
     * before any barrier reached the tasks (here: a participant declines), does not fail the job.
     */
    @Test
    void shouldNotFailTheJobWhenAParticipantDeclinesTheStop() {
        Scenario scenario = Scenario.runningJob(Fixtures.specWithParticipants(config(), "coordinator"), 1000)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 10);

        Then then = scenario.when(Fixtures.participantDecline(1, "coordinator",
                CheckpointFailureReason.CHECKPOINT_DECLINED), 20);

        then.thenTypes(ParticipantDeclined.class, CheckpointAborted.class, RequestOutcome.class,
                PeriodicTriggerScheduled.class);
    }

    /** A task cannot decline a stop whose barrier it was not sent yet: the job is not failed for a stray decline. */
    @Test
    void shouldNotFailTheJobForATasksDeclineWhileTheStopsParticipantsSnapshot() {
        Scenario scenario = Scenario.runningJob(Fixtures.specWithParticipants(config(), "coordinator"), 1000)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 10);

        Then then = scenario.when(decline(1, SOURCE, 0), 20);

        then.thenTypes(dev.cairn.events.CommandRejected.class);
        assertThat(then.job(JOB).getPending()).extracting(p -> p.getRequestId()).containsExactly("stop");
    }

    /** A job leaving RUNNING takes the stop with it, and no schedule comes back. */
    @Test
    void shouldNotResumeTheScheduleWhenTheJobLeavesRunningDuringTheStop() {
        Then then = stopping(config()).when(Fixtures.status(JobStatus.SUSPENDED), 20);

        then.thenTypes(JobStatusChange.class, CheckpointAborted.class, RequestOutcome.class);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isNull();
    }
}
