package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.TaskRoles;
import dev.cairn.events.TriggerFailed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PeriodicTriggerTest {

    @Test
    void shouldTriggerPeriodicCheckpointWhenDueTickArrives() {
        Then then = Scenario.runningJob(spec(), 1000).when(tick(), 1000);

        then.thenTypes(PeriodicTriggerScheduled.class, RequestQueued.class, RequestDequeued.class,
                CheckpointTriggered.class);
        assertThat(then.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(2000);
        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getCheckpointId()).isEqualTo(1);
        assertThat(triggered.getType()).isEqualTo(CheckpointType.CHECKPOINT);
        assertThat(triggered.getPeriodic()).isTrue();
        assertThat(triggered.getForce()).isFalse();
        assertThat(triggered.getRequestId()).isNull();
        assertThat(triggered.getTimestampMs()).isEqualTo(1000);
        assertThat(triggered.getTimeoutAtMs()).isEqualTo(1600);
        assertThat(triggered.getStorageLocation()).isEqualTo("file:///checkpoints/job-1/chk-1");
        assertThat(triggered.getPlan()).as("no per-subtask plan: the trigger's size does not grow with them").isEmpty();
        assertThat(triggered.getAcksExpected()).isEqualTo(3);
        assertThat(triggered.getRoles()).as("only the tasks whose roles are not the default")
                .containsExactly(new TaskRoles(SINK, false, true, true));
        assertThat(then.job(JOB).getPending()).hasSize(1);
        assertThat(then.job(JOB).getQueue()).isEmpty();
        assertThat(then.job(JOB).getCounts().getTriggered()).isEqualTo(1);
    }

    @ParameterizedTest(name = "due 1000, interval {0}, tick at {1} -> next due {2}")
    @CsvSource({
        "1000, 1000, 2000",
        "1000, 1999, 2000",
        "1000, 2000, 3000",
        "1000, 4500, 5000",
        "300, 10000, 10300"
    })
    void shouldScheduleNextTriggerAtFixedRateWithoutBurstOfMissedTriggers(long interval, long now, long next) {
        Then then = Scenario.runningJob(spec(config().setIntervalMs(interval)), 1000).when(tick(), now);

        assertThat(then.all(PeriodicTriggerScheduled.class)).extracting(PeriodicTriggerScheduled::getDueAtMs)
                .containsExactly(next);
        assertThat(then.all(CheckpointTriggered.class)).hasSize(1);
    }

    @Test
    void shouldRaiseIntervalToMinPauseLikeFlink() {
        Then then = Scenario.runningJob(spec(config().setIntervalMs(100).setMinPauseMs(500)), 1000)
                .when(tick(), 1000);

        assertThat(then.all(PeriodicTriggerScheduled.class).get(0).getDueAtMs()).isEqualTo(1500);
    }

    @Test
    void shouldProduceNothingForStaleTick() {
        Scenario.runningJob(spec(), 1000).when(tick(), 999).thenNothing();
    }

    @Test
    void shouldProduceNothingForTimeoutTickOfCompletedCheckpoint() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100);

        scenario.when(tick(), 1600).thenNothing();
    }

    @Test
    void shouldDropPeriodicRequestAndRealignScheduleWhenMinPauseHasNotPassed() {
        Scenario scenario = Scenario.runningJob(spec(config().setMinPauseMs(300)), 1000)
                .and(tick(), 1000)
                .ackAll(JOB, 1, 1900);

        Then then = scenario.when(tick(), 2000);

        then.thenTypes(PeriodicTriggerScheduled.class, RequestQueued.class, RequestDequeued.class,
                PeriodicTriggerScheduled.class);
        RequestDequeued dropped = then.single(RequestDequeued.class);
        assertThat(dropped.getReason()).isEqualTo(CheckpointFailureReason.MINIMUM_TIME_BETWEEN_CHECKPOINTS);
        assertThat(dropped.getPeriodic()).isTrue();
        assertThat(then.all(PeriodicTriggerScheduled.class)).extracting(PeriodicTriggerScheduled::getDueAtMs)
                .containsExactly(3000L, 2200L);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isEqualTo(2200);
        assertThat(then.job(JOB).getQueue()).isEmpty();
        assertThat(then.job(JOB).getCounts().getFailed()).as("a dropped request is not a failed checkpoint")
                .isZero();

        Then realigned = then.scenario().when(tick(), 2200);

        assertThat(realigned.single(CheckpointTriggered.class).getCheckpointId()).isEqualTo(2);
        assertThat(realigned.all(PeriodicTriggerScheduled.class).get(0).getDueAtMs()).isEqualTo(3200);
    }

    @Test
    void shouldKeepScheduleWhenPeriodicTriggerFailsForMissingTask() {
        Scenario scenario = Scenario.given()
                .and(new Command.RegisterJob(spec(), 0.0), 1000)
                .and(Fixtures.start(SOURCE, 0, 1), 1000)
                .and(Fixtures.start(SOURCE, 1, 1), 1000);

        Then then = scenario.when(tick(), 1000);

        then.thenTypes(PeriodicTriggerScheduled.class, RequestQueued.class, RequestDequeued.class,
                TriggerFailed.class);
        TriggerFailed failed = then.single(TriggerFailed.class);
        assertThat(failed.getReason()).isEqualTo(CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING);
        assertThat(failed.getMessage()).contains("task sink subtask 0");
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isEqualTo(2000);
        assertThat(then.job(JOB).getNextCheckpointId()).as("no id consumed").isEqualTo(1);
        assertThat(then.job(JOB).getPending()).isEmpty();
        assertThat(then.job(JOB).getCounts().getFailed()).isEqualTo(1);
    }

    @Test
    void shouldFailPeriodicRequestWhenSchedulerIsShutDown() {
        Scenario scenario = Scenario.given(spec(),
                PeriodicTriggerScheduled.newBuilder().setJobId(JOB).setDueAtMs(1000).setTimestampMs(0).build(),
                JobStatusChange.newBuilder().setJobId(JOB).setStatus(JobStatus.SUSPENDED).setTimestampMs(0).build());

        Then then = scenario.when(tick(), 1000);

        then.thenTypes(PeriodicTriggerStopped.class, TriggerFailed.class);
        assertThat(then.single(TriggerFailed.class).getReason())
                .isEqualTo(CheckpointFailureReason.PERIODIC_SCHEDULER_SHUTDOWN);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isNull();
    }

    @Test
    void shouldQueuePeriodicRequestWhileMaxConcurrentCheckpointsArePendingAndRunItAfterCompletion() {
        Scenario scenario = Scenario.runningJob(spec(config().setTimeoutMs(5000)), 1000).and(tick(), 1000);

        Then then = scenario.when(tick(), 2000);

        then.thenTypes(PeriodicTriggerScheduled.class, RequestQueued.class);
        assertThat(then.job(JOB).getQueue()).hasSize(1);

        Scenario afterCompletion = then.scenario().ackAll(JOB, 1, 2100);

        assertThat(afterCompletion.job(JOB).getLatestCompletedId()).isEqualTo(1);
        assertThat(afterCompletion.job(JOB).getPending()).extracting(p -> p.getCheckpointId())
                .as("the queued periodic request ran when checkpoint 1 completed").containsExactly(2L);
        assertThat(afterCompletion.job(JOB).getQueue()).isEmpty();
    }
}
