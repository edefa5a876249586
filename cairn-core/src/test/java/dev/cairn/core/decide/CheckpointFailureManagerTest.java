package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.declined;
import static dev.cairn.core.testing.Fixtures.participantDecline;
import static dev.cairn.core.testing.Fixtures.request;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.specWithParticipants;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import dev.cairn.events.PostCheckpointAction;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The failure manager by level (Flink's current CheckpointFailureManager): job-level failures of checkpoints count,
 * of savepoints not; task-level failures count for checkpoints and ordinary savepoints and fail the job at once for
 * a stop-with-savepoint; only some reasons count, ids up to the last success are ignored, each id counts once.
 */
class CheckpointFailureManagerTest {

    /** Flink's CheckpointFailureManager#checkFailureCounter: the reasons that count. */
    private static final Set<CheckpointFailureReason> COUNTED = EnumSet.of(
            CheckpointFailureReason.CHECKPOINT_EXPIRED, CheckpointFailureReason.CHECKPOINT_DECLINED,
            CheckpointFailureReason.IO_EXCEPTION, CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);

    private static Scenario job(CheckpointConfig.Builder config) {
        return Scenario.runningJob(spec(config), 1000);
    }

    /** Flink's CheckpointFailureManagerTest#testTotalCountValue: with no tolerance, exactly these reasons fail it. */
    @ParameterizedTest
    @EnumSource(CheckpointFailureReason.class)
    void shouldFailAJobWithoutToleranceForTheCountedReasonsOnly(CheckpointFailureReason reason) {
        Then then = job(config().setTolerableFailures(0)).and(tick(), 1000)
                .when(new Command.Decline(declined(1, SOURCE, 0, reason)), 1100);

        assertThat(then.has(JobFailed.class)).isEqualTo(COUNTED.contains(reason));
    }

    /** Flink's CheckpointCoordinatorTest#testExpiredCheckpointExceedsTolerableFailureNumber. */
    @Test
    void shouldFailAJobWithoutToleranceWhenACheckpointExpires() {
        Then then = job(config().setTolerableFailures(0)).and(tick(), 1000).when(tick(), 1600);

        assertThat(then.single(CheckpointFailureCounted.class).getReason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(then.single(JobFailed.class).getConsecutiveFailures()).isEqualTo(1);
    }

    /**
     * Flink's CheckpointFailureManagerTest#testContinuousFailure: a failure that does not count (here a task
     * restart) neither counts nor breaks the run of consecutive failures.
     */
    @Test
    void shouldKeepCountingAcrossAFailureThatDoesNotCount() {
        Scenario scenario = job(config().setTolerableFailures(2))
                .and(checkpointRequest("c1"), 1100).and(decline(1, SOURCE, 0), 1110)
                .and(checkpointRequest("c2"), 1200).and(decline(2, SOURCE, 0), 1210)
                .and(checkpointRequest("c3"), 1300).and(Fixtures.start(SOURCE, 0, 2), 1310)
                .and(checkpointRequest("c4"), 1400);
        assertThat(scenario.job(JOB).getConsecutiveFailures()).isEqualTo(2);

        Then then = scenario.when(decline(4, SOURCE, 1), 1410);

        assertThat(then.single(CheckpointFailureCounted.class).getConsecutiveFailures()).isEqualTo(3);
        assertThat(then.single(JobFailed.class).getTolerableFailures()).isEqualTo(2);
    }

    /** Flink's CheckpointFailureManagerTest#testBreakContinuousFailure: a success starts the count over. */
    @Test
    void shouldStartCountingOverAfterASuccess() {
        Scenario scenario = job(config().setTolerableFailures(2))
                .and(checkpointRequest("c1"), 1100)
                .and(new Command.Decline(declined(1, SOURCE, 0, CheckpointFailureReason.IO_EXCEPTION)), 1110)
                .and(checkpointRequest("c2"), 1200).and(decline(2, SOURCE, 0), 1210)
                .and(checkpointRequest("c3"), 1300)
                .and(new Command.Decline(declined(3, SOURCE, 0, CheckpointFailureReason.JOB_FAILOVER_REGION)), 1310)
                .and(checkpointRequest("c4"), 1400)
                .ackAll(JOB, 4, 1450)
                .and(checkpointRequest("c5"), 1500);

        Then then = scenario.when(tick(), 2100);

        assertThat(then.all(CheckpointAborted.class)).extracting(CheckpointAborted::getCheckpointId)
                .containsExactly(5L);
        assertThat(then.single(CheckpointFailureCounted.class).getConsecutiveFailures()).isEqualTo(1);
        assertThat(then.has(JobFailed.class)).isFalse();
    }

    /**
     * Flink's CheckpointFailureManagerTest#testIgnoresPastCheckpoints: a savepoint older than a completed checkpoint
     * is not subsumed; its task-level failure would count, but not below the last success.
     */
    @Test
    void shouldIgnoreTheFailureOfACheckpointOlderThanTheLastSuccess() {
        Scenario scenario = job(config().setMaxConcurrent(2).setTimeoutMs(10_000))
                .and(savepointRequest("sp", null), 10)
                .and(checkpointRequest("cp"), 20)
                .ackAll(JOB, 2, 30);
        assertThat(scenario.job(JOB).getLastSucceededId()).isEqualTo(2);

        Then then = scenario.when(decline(1, SOURCE, 0), 40);

        assertThat(then.single(CheckpointAborted.class).getCheckpointId()).isEqualTo(1);
        assertThat(then.has(CheckpointFailureCounted.class)).isFalse();
        assertThat(then.has(JobFailed.class)).isFalse();
    }

    /**
     * Flink's CheckpointFailureManagerTest#testIgnoreOneCheckpointRepeatedlyCountMultiTimes: an id already counted
     * (here by a given journal) is not counted again.
     */
    @Test
    void shouldCountEachCheckpointIdOnlyOnce() {
        Scenario scenario = job(config().setTolerableFailures(1)).and(tick(), 1000)
                .andJournal(CheckpointFailureCounted.newBuilder().setJobId(JOB).setCheckpointId(1)
                        .setReason(CheckpointFailureReason.CHECKPOINT_DECLINED).setConsecutiveFailures(1)
                        .setTimestampMs(1100).build());

        Then then = scenario.when(tick(), 1600);

        assertThat(then.single(CheckpointAborted.class).getReason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(then.has(CheckpointFailureCounted.class)).isFalse();
        assertThat(then.has(JobFailed.class)).isFalse();
        assertThat(then.job(JOB).getConsecutiveFailures()).isEqualTo(1);
    }

    /** Flink's CheckpointFailureManager#handleTaskLevelCheckpointException: a task's decline of a savepoint counts. */
    @Test
    void shouldCountATasksDeclineOfAnOrdinarySavepoint() {
        Then then = job(config().setTolerableFailures(3)).and(savepointRequest("sp", null), 10)
                .when(decline(1, SOURCE, 0), 20);

        assertThat(then.single(CheckpointFailureCounted.class).getConsecutiveFailures()).isEqualTo(1);
        assertThat(then.has(JobFailed.class)).isFalse();
    }

    /**
     * Flink's CheckpointFailureManager#isJobManagerFailure: a pre-flight reason makes a task's decline job-level,
     * which counts for a checkpoint and not for a savepoint.
     */
    @ParameterizedTest
    @EnumSource(CheckpointType.class)
    void shouldTreatATasksPreFlightDeclineAsJobLevel(CheckpointType type) {
        Then then = job(config().setTolerableFailures(3))
                .and(new Command.RequestTrigger(request("r", type, true)), 10)
                .when(new Command.Decline(declined(1, SOURCE, 0, CheckpointFailureReason.IO_EXCEPTION)), 20);

        assertThat(then.has(CheckpointFailureCounted.class)).isEqualTo(type == CheckpointType.CHECKPOINT);
    }

    /**
     * Flink's CheckpointCoordinator#onTriggerFailure: a failing master hook or operator coordinator aborts the
     * checkpoint with TRIGGER_CHECKPOINT_FAILURE, which CheckpointFailureManager does not count: one failing
     * participant does not fail a job that tolerates no failure, checkpoint or savepoint.
     */
    @ParameterizedTest
    @EnumSource(CheckpointType.class)
    void shouldNotCountAParticipantsFailure(CheckpointType type) {
        Then then = Scenario.runningJob(specWithParticipants(config().setTolerableFailures(0), "hook"), 1000)
                .and(new Command.RequestTrigger(request("r", type, true)), 10)
                .when(participantDecline(1, "hook", CheckpointFailureReason.CHECKPOINT_DECLINED), 20);

        assertThat(then.single(CheckpointAborted.class).getReason())
                .isEqualTo(CheckpointFailureReason.TRIGGER_CHECKPOINT_FAILURE);
        assertThat(then.has(CheckpointFailureCounted.class)).isFalse();
        assertThat(then.has(dev.cairn.events.JobFailed.class)).isFalse();
        assertThat(then.job(JOB).getConsecutiveFailures()).isZero();
    }

    /** Flink: a hook that throws a CheckpointException keeps its reason, and a counted reason is counted. */
    @Test
    void shouldCountAParticipantsFailureWithACountedReasonOfItsOwn() {
        Then then = Scenario.runningJob(specWithParticipants(config().setTolerableFailures(3), "hook"), 1000)
                .and(new Command.RequestTrigger(request("r", CheckpointType.CHECKPOINT, true)), 10)
                .when(participantDecline(1, "hook", CheckpointFailureReason.IO_EXCEPTION), 20);

        assertThat(then.single(CheckpointAborted.class).getReason()).isEqualTo(CheckpointFailureReason.IO_EXCEPTION);
        assertThat(then.has(CheckpointFailureCounted.class)).isTrue();
    }

    /** Flink: job-level failures of savepoints (here an expiry) never count, ordinary or stop-with-savepoint. */
    @ParameterizedTest
    @CsvSource({"NONE", "SUSPEND", "TERMINATE"})
    void shouldNotCountASavepointThatExpires(PostCheckpointAction action) {
        dev.cairn.events.TriggerRequest request = request("sp", CheckpointType.SAVEPOINT, null);
        request.setPostCheckpointAction(action);
        Then then = job(config().setTolerableFailures(0)).and(new Command.RequestTrigger(request), 10)
                .when(tick(), 610);

        assertThat(then.single(CheckpointAborted.class).getReason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(then.has(CheckpointFailureCounted.class)).isFalse();
        assertThat(then.has(JobFailed.class)).isFalse();
    }

    /**
     * Flink's CheckpointFailureManager#handleTaskLevelCheckpointException: a task-level failure of a synchronous
     * savepoint fails the job however many failures are still tolerated, and leaves the counter alone.
     */
    @Test
    void shouldFailTheJobForATasksDeclineOfAStopWithoutCountingIt() {
        Scenario scenario = job(config().setTolerableFailures(5)).and(tick(), 1000).and(tick(), 1600);
        assertThat(scenario.job(JOB).getConsecutiveFailures()).isEqualTo(1);
        scenario.and(Fixtures.stop("stop", PostCheckpointAction.SUSPEND), 1700);

        Then then = scenario.when(decline(2, SOURCE, 0), 1710);

        assertThat(then.has(CheckpointFailureCounted.class)).isFalse();
        JobFailed failed = then.single(JobFailed.class);
        assertThat(failed.getConsecutiveFailures()).as("the count so far, not raised by the stop").isEqualTo(1);
        assertThat(failed.getTolerableFailures()).isEqualTo(5);
    }

    /** Flink's CheckpointFailureManager#handleCheckpointSuccess: a completed savepoint is a success too. */
    @Test
    void shouldStartCountingOverWhenASavepointCompletes() {
        Scenario scenario = job(config().setTolerableFailures(5)).and(tick(), 1000).and(tick(), 1600)
                .and(savepointRequest("sp", null), 1700);
        assertThat(scenario.job(JOB).getConsecutiveFailures()).isEqualTo(1);

        Scenario after = scenario.ackAll(JOB, 2, 1800);

        assertThat(after.job(JOB).getConsecutiveFailures()).isZero();
        assertThat(after.job(JOB).getCountedFailureIds()).isEmpty();
        assertThat(after.job(JOB).getLastSucceededId()).isEqualTo(2);
    }
}
