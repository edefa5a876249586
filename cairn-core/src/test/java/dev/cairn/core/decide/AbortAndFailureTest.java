package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.declined;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.MapStorage;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.testing.CountingStorage;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobFailed;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskStarted;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AbortAndFailureTest {

    /** The reasons Flink's CheckpointFailureManager counts (FINALIZE_CHECKPOINT_FAILURE no longer does). */
    private static final Set<CheckpointFailureReason> COUNTED = EnumSet.of(
            CheckpointFailureReason.CHECKPOINT_EXPIRED, CheckpointFailureReason.CHECKPOINT_DECLINED,
            CheckpointFailureReason.IO_EXCEPTION, CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);

    /** Flink's pre-flight reasons: job-level even when a task reports them. */
    private static final Set<CheckpointFailureReason> PRE_FLIGHT = EnumSet.of(
            CheckpointFailureReason.PERIODIC_SCHEDULER_SHUTDOWN, CheckpointFailureReason.TOO_MANY_CHECKPOINT_REQUESTS,
            CheckpointFailureReason.MINIMUM_TIME_BETWEEN_CHECKPOINTS,
            CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING, CheckpointFailureReason.IO_EXCEPTION,
            CheckpointFailureReason.BLOCKING_OUTPUT_EXIST);

    /** Checkpoint 1 pending, triggered at 1000, times out at 1600. */
    private static Scenario pending(CheckpointConfig.Builder config) {
        return Scenario.runningJob(spec(config), 1000).and(tick(), 1000);
    }

    @Test
    void shouldAbortAtOnceWhenATaskDeclines() {
        Then then = pending(config().setTolerableFailures(5)).when(decline(1, SINK, 0), 1100);

        then.thenTypes(CheckpointDeclined.class, CheckpointAborted.class, CheckpointFailureCounted.class);
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(aborted.getMessage()).startsWith("Decline checkpoint 1 by task sink of job job-1");
        assertThat(aborted.getLatestCompletedId()).isEqualTo(-1);
        assertThat(then.job(JOB).getPending()).isEmpty();
        assertThat(then.history(JOB)).singleElement().satisfies(s -> {
            assertThat(s.getStatus()).isEqualTo(CheckpointStatus.FAILED);
            assertThat(s.getFailureReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        });
        assertThat(then.job(JOB).getConsecutiveFailures()).isEqualTo(1);
    }

    @Test
    void shouldTellTheStorageThatAnAbortedCheckpointTakesNoMoreAcks() {
        CountingStorage storage = new CountingStorage(new MapStorage());
        Scenario scenario = Scenario.over(storage).runningJobOf(spec(config()), 1000).and(tick(), 1000)
                .and(acknowledge(1, SOURCE, 0), 1050);
        assertThat(storage.settled).isEmpty();

        scenario.and(decline(1, SINK, 0), 1100);

        assertThat(scenario.history(JOB)).singleElement()
                .satisfies(s -> assertThat(s.getStatus()).isEqualTo(CheckpointStatus.FAILED));
        assertThat(storage.settled).containsExactly(new CheckpointKey(JOB, 1));
        assertThat(scenario.state().acks(JOB, 1)).as("the stored acks stay for the summary").hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(CheckpointFailureReason.class)
    void shouldCountOnlyFlinksCountedReasonsTowardsTolerableFailures(CheckpointFailureReason reason) {
        Then then = pending(config().setTolerableFailures(5))
                .when(new Command.Decline(declined(1, SOURCE, 0, reason)), 1100);

        assertThat(then.single(CheckpointAborted.class).getReason()).isEqualTo(reason);
        assertThat(then.has(CheckpointFailureCounted.class)).isEqualTo(COUNTED.contains(reason));
        assertThat(then.job(JOB).getConsecutiveFailures()).isEqualTo(COUNTED.contains(reason) ? 1 : 0);
    }

    @Test
    void shouldRejectDeclineOfCheckpointThatIsNotPending() {
        Then then = pending(config()).and(tick(), 1600).when(decline(1, SOURCE, 0), 1700);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("is not pending");
    }

    @Test
    void shouldRejectDeclineForFutureCheckpointId() {
        pending(config()).when(decline(5, SOURCE, 0), 1100).thenTypes(CommandRejected.class);
    }

    @Test
    void shouldAbortAsExpiredWhenTimeoutPasses() {
        Then then = pending(config().setTolerableFailures(3)).when(tick(), 1600);

        then.thenTypes(CheckpointAborted.class, CheckpointFailureCounted.class);
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(aborted.getMessage()).isEqualTo("Checkpoint 1 of job job-1 expired before completing");
    }

    @Test
    void shouldNotExpireBeforeTimeout() {
        pending(config()).when(tick(), 1599).thenNothing();
    }

    @Test
    void shouldAbortPendingCheckpointsTheRestartedSubtaskHadNotAcknowledged() {
        Scenario scenario = Scenario.runningJob(spec(config().setMaxConcurrent(2).setTimeoutMs(10_000)), 1000)
                .and(checkpointRequest("a"), 10)
                .and(checkpointRequest("b"), 20)
                .and(acknowledge(1, SOURCE, 1), 30);

        Then then = scenario.when(Fixtures.start(SOURCE, 1, 2), 40);

        assertThat(then.events().get(0)).isInstanceOf(TaskStarted.class);
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getCheckpointId()).isEqualTo(2);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.TASK_FAILURE);
        assertThat(then.single(RequestOutcome.class).getRequestId()).isEqualTo("b");
        assertThat(then.job(JOB).getPending()).extracting(p -> p.getCheckpointId()).containsExactly(1L);
        assertThat(then.state().attempt(JOB, SOURCE, 1)).contains("source-1-a2");
        assertThat(then.has(CheckpointFailureCounted.class)).as("task failure does not count").isFalse();
    }

    @Test
    void shouldRefuseARepeatedRegistrationOfTheCurrentAttemptWithItsReason() {
        Then then = pending(config()).when(Fixtures.start(SOURCE, 0, 1), 1100);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("is the running one already");
    }

    @Test
    void shouldReportFailedOutcomeWithTheAbortReasonToTheRequester() {
        Then then = Scenario.runningJob(spec(), 1000).and(checkpointRequest("mine"), 10).when(tick(), 610);

        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(outcome.getCheckpointId()).isEqualTo(1L);
    }

    /** Flink's CheckpointFailureManagerTest: a task-level failure of a savepoint is counted like a checkpoint's. */
    @ParameterizedTest
    @EnumSource(CheckpointFailureReason.class)
    void shouldCountATasksDeclineOfASavepointUnlessItsReasonIsPreFlight(CheckpointFailureReason reason) {
        Then then = Scenario.runningJob(spec(config().setTolerableFailures(0)), 1000)
                .and(savepointRequest("sp", null), 10)
                .when(new Command.Decline(declined(1, SOURCE, 0, reason)), 20);

        boolean counted = COUNTED.contains(reason) && !PRE_FLIGHT.contains(reason);
        assertThat(then.single(CheckpointAborted.class).getReason()).isEqualTo(reason);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(then.has(CheckpointFailureCounted.class)).isEqualTo(counted);
        assertThat(then.has(JobFailed.class)).isEqualTo(counted);
    }

    @Test
    void shouldNotCountASavepointThatExpires() {
        Then then = Scenario.runningJob(spec(), 1000).and(savepointRequest("sp", null), 10)
                .when(tick(), 610);

        assertThat(then.single(CheckpointAborted.class).getReason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(then.has(CheckpointFailureCounted.class)).isFalse();
        assertThat(then.has(JobFailed.class)).isFalse();
    }

    @Test
    void shouldCountACheckpointDeclinedForAPreFlightReasonAsAJobLevelFailure() {
        Then then = pending(config().setTolerableFailures(3))
                .when(new Command.Decline(declined(1, SOURCE, 0, CheckpointFailureReason.IO_EXCEPTION)), 1100);

        assertThat(then.single(CheckpointFailureCounted.class).getConsecutiveFailures()).isEqualTo(1);
    }

    @Test
    void shouldIgnoreFailuresOfCheckpointsOlderThanTheLastSuccess() {
        Scenario scenario = Scenario.runningJob(spec(config().setMaxConcurrent(2)), 1000)
                .and(checkpointRequest("old"), 10)
                .and(savepointRequest("sp", null), 20)
                .ackAll(JOB, 2, 30);

        Then then = scenario.when(tick(), 610);

        assertThat(then.single(CheckpointAborted.class).getCheckpointId()).isEqualTo(1);
        assertThat(then.has(CheckpointFailureCounted.class)).isFalse();
    }

    @Test
    void shouldFailJobWhenConsecutiveFailuresExceedTolerableFailures() {
        Scenario scenario = pending(config().setTolerableFailures(1)).and(tick(), 1600).and(tick(), 2000);

        Then then = scenario.when(tick(), 2600);

        assertThat(then.single(CheckpointFailureCounted.class).getConsecutiveFailures()).isEqualTo(2);
        JobFailed failed = then.single(JobFailed.class);
        assertThat(failed.getConsecutiveFailures()).isEqualTo(2);
        assertThat(failed.getTolerableFailures()).isEqualTo(1);
        assertThat(failed.getCause()).contains("Exceeded checkpoint tolerable failure threshold");
        assertThat(then.job(JOB).getConsecutiveFailures()).as("counter reset after failing the job").isZero();
    }

    @Test
    void shouldResetFailureCounterOnCompletion() {
        Scenario scenario = pending(config().setTolerableFailures(5)).and(tick(), 1600).and(tick(), 2000);
        assertThat(scenario.job(JOB).getConsecutiveFailures()).isEqualTo(1);

        Scenario completed = scenario.ackAll(JOB, 2, 2100);

        assertThat(completed.job(JOB).getConsecutiveFailures()).isZero();
        assertThat(completed.job(JOB).getCountedFailureIds()).isEmpty();
    }

    @Test
    void shouldCarryTheLatestCompletedIdInEveryAbort() {
        Scenario scenario = pending(config().setTolerableFailures(5)).ackAll(JOB, 1, 1100).and(tick(), 2000);

        Then then = scenario.when(decline(2, SOURCE, 0), 2100);

        assertThat(then.single(CheckpointAborted.class).getLatestCompletedId()).isEqualTo(1);
    }
}
