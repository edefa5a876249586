package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.status;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class JobLifecycleTest {

    @Test
    void shouldStartNewJobRunningWithFirstTriggerAfterMinPausePlusFractionOfRemainingInterval() {
        JobSpec spec = spec(config().setIntervalMs(1000).setMinPauseMs(200));

        Then then = Scenario.given().when(new Command.RegisterJob(spec, 0.5), 10_000);

        then.then(JobSpecs.withMaxParallelism(spec, Optional.empty()), PeriodicTriggerScheduled.newBuilder()
                .setJobId(JOB).setDueAtMs(10_000 + 200 + 400)
                .setTimestampMs(10_000).build());
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(then.job(JOB).getNextCheckpointId()).isEqualTo(1);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isEqualTo(10_600);
    }

    @ParameterizedTest(name = "interval {0}, minPause {1}, fraction {2} -> delay {3}")
    @CsvSource({
        "1000, 0, 0.0, 0",
        "1000, 0, 0.999, 999",
        "1000, 300, 0.0, 300",
        "100, 300, 0.7, 300",
        "1000, 0, 0.9999, 1000",
        "1000, 0, 1.5, 1000",
        "1000, 0, -1.0, 0"
    })
    void shouldDrawFirstTriggerDelayWithinMinPauseAndIntervalBothIncludedAsFlinkDoes(long interval, long minPause,
            double fraction, long delay) {
        Then then = Scenario.given()
                .when(new Command.RegisterJob(spec(config().setIntervalMs(interval).setMinPauseMs(minPause)), fraction),
                        0);

        assertThat(then.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(delay);
    }

    static Stream<Arguments> malformedSpecs() {
        return Stream.of(
                Arguments.of("timeout <= 0", spec(config().setTimeoutMs(0))),
                Arguments.of("interval <= 0", spec(config().setIntervalMs(-5))),
                Arguments.of("minPause < 0", spec(config().setMinPauseMs(-1))),
                Arguments.of("maxConcurrent < 1", spec(config().setMaxConcurrent(0))),
                Arguments.of("retained < 1", spec(config().setRetained(0))),
                Arguments.of("tolerable < 0", spec(config().setTolerableFailures(-1))),
                Arguments.of("empty base location", spec(config().setStorageBaseLocation(" "))),
                Arguments.of("empty plan", spec(JOB, config())),
                Arguments.of("no acknowledging task", spec(JOB, config(), vertex(SOURCE, 1, true, false))),
                Arguments.of("no triggered task", spec(JOB, config(), vertex(SOURCE, 1, false, true))),
                Arguments.of("parallelism <= 0", spec(JOB, config(), vertex(SOURCE, 0, true, true))),
                Arguments.of("duplicate task ids",
                        spec(JOB, config(), vertex(SOURCE, 1, true, true), vertex(SOURCE, 2, false, true))),
                Arguments.of("empty job id", spec("", config(), vertex(SOURCE, 1, true, true))),
                Arguments.of("parallelism over Flink's max", spec(JOB, config(),
                        vertex(SOURCE, Integer.MAX_VALUE, true, true))),
                Arguments.of("too many subtasks", spec(JOB, config(), vertex(SOURCE, 32_768, true, true),
                        vertex("a", 32_768, false, true), vertex("b", 32_768, false, true),
                        vertex("c", 32_768, false, true))),
                Arguments.of("too many vertices", spec(JOB, config(), java.util.stream.IntStream.range(0, 10_001)
                        .mapToObj(i -> vertex("v" + i, 1, true, true)).toArray(dev.cairn.events.TaskVertex[]::new))),
                Arguments.of("job id too long", spec("j".repeat(257), config(), vertex(SOURCE, 1, true, true))),
                Arguments.of("task id too long", spec(JOB, config(), vertex("t".repeat(257), 1, true, true))),
                Arguments.of("base location too long",
                        spec(config().setStorageBaseLocation("s3://" + "x".repeat(1020)))),
                Arguments.of("timeout that overflows deadlines", spec(config().setTimeoutMs(Long.MAX_VALUE))),
                Arguments.of("interval that overflows deadlines", spec(config().setIntervalMs(Long.MAX_VALUE))),
                Arguments.of("retained over the limit", spec(config().setRetained(101))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedSpecs")
    void shouldRejectMalformedSpecWithoutCreatingTheJob(String rule, JobSpec spec) {
        Then then = Scenario.given().when(new Command.RegisterJob(spec, 0.0), 7);

        CommandRejected rejected = then.single(CommandRejected.class);
        then.thenTypes(CommandRejected.class);
        assertThat(rejected.getCommandType()).isEqualTo("RegisterJob");
        assertThat(rejected.getReason()).startsWith("invalid job spec");
        assertThat(rejected.getTimestampMs()).isEqualTo(7);
        assertThat(then.state().jobs()).isEmpty();
    }

    @Test
    void shouldIgnoreReRegistrationOfAnIdenticalSpec() {
        JobSpec later = spec();
        later.setTimestampMs(999);

        Scenario.runningJob(spec(), 1000).when(new Command.RegisterJob(later, 0.3), 50).thenNothing();
    }

    @Test
    void shouldAbortPendingCheckpointsAndRestartScheduleWhenSpecIsReplaced() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(Fixtures.tick(), 1000);
        JobSpec replaced = spec(config().setIntervalMs(5000));

        Then then = scenario.when(new Command.RegisterJob(replaced, 0.0), 1100);

        then.thenTypes(JobSpec.class, CheckpointAborted.class, PeriodicTriggerScheduled.class);
        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
        assertThat(aborted.getMessage()).isEqualTo("job spec replaced");
        assertThat(then.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(1100);
        assertThat(then.job(JOB).getConfig().getIntervalMs()).isEqualTo(5000);
        assertThat(then.state().spec(JOB)).contains(JobSpecs.withMaxParallelism(replaced, Optional.of(spec())));
        assertThat(then.job(JOB).getPending()).isEmpty();
        assertThat(then.job(JOB).getNextCheckpointId()).as("ids are never reused").isEqualTo(2);
    }

    @Test
    void shouldStoreTheVerticesOfTheNewSpecAndForgetTheTasksItDropped() {
        Scenario scenario = Scenario.runningJob(spec(), 1000);
        JobSpec replaced = spec(JOB, config(), vertex(SOURCE, 3, true, true), vertex("new-task", 1, false, true));

        Then then = scenario.when(new Command.RegisterJob(replaced, 0.0), 1003);

        JobSpec registered = JobSpecs.withMaxParallelism(replaced, Optional.of(spec()));
        assertThat(then.state().spec(JOB)).contains(registered);
        assertThat(then.state().values(StateTable.VERTICES, JOB).stream().map(TaskVertex::getTaskId).sorted())
                .containsExactly("new-task", SOURCE);
        assertThat(then.state().vertex(JOB, SOURCE)).contains(registered.getTasks().get(0));
        assertThat(then.state().vertex(JOB, SINK)).isEmpty();
        then.scenario().when(Fixtures.start(SINK, 0, 2), 1004).thenTypes(TaskStarted.class);
        then.scenario().when(Fixtures.start(SOURCE, 2, 1), 1005).thenTypes(TaskStarted.class);
    }

    @Test
    void shouldNotRestartScheduleWhenSpecOfSuspendedJobIsReplaced() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(status(JobStatus.SUSPENDED), 10);

        Then then = scenario.when(new Command.RegisterJob(spec(config().setIntervalMs(7)), 0.0), 20);

        then.thenTypes(JobSpec.class);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.SUSPENDED);
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isNull();
    }

    @ParameterizedTest
    @CsvSource({"SUSPENDED", "CANCELED", "FINISHED", "FAILED"})
    void shouldStopScheduleAndAbortEverythingWhenJobLeavesRunning(JobStatus target) {
        Scenario scenario = Scenario.runningJob(spec(), 1000)
                .and(Fixtures.tick(), 1000)
                .and(checkpointRequest("queued-manual"), 1010);

        Then then = scenario.when(status(target), 1020);

        then.thenTypes(JobStatusChange.class, PeriodicTriggerStopped.class, CheckpointAborted.class,
                RequestDequeued.class, RequestOutcome.class);
        assertThat(then.single(CheckpointAborted.class).getReason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
        assertThat(then.single(RequestDequeued.class).getReason())
                .isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getRequestId()).isEqualTo("queued-manual");
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(then.job(JOB).getQueue()).isEmpty();
        assertThat(then.job(JOB).getPending()).isEmpty();
        assertThat(then.job(JOB).getNextPeriodicDueMs()).isNull();
    }

    @Test
    void shouldStartScheduleWhenJobEntersRunningAgain() {
        Scenario scenario = Scenario.runningJob(spec(config().setMinPauseMs(100)), 1000)
                .and(status(JobStatus.SUSPENDED), 10);

        Then then = scenario.when(new Command.ChangeJobStatus(JobStatusChange.newBuilder().setJobId(JOB)
                .setStatus(JobStatus.RUNNING).setTimestampMs(0).build(), 0.5), 2000);

        then.thenTypes(JobStatusChange.class, PeriodicTriggerScheduled.class);
        assertThat(then.single(PeriodicTriggerScheduled.class).getDueAtMs()).isEqualTo(2000 + 100 + 450);
    }

    @Test
    void shouldIgnoreStatusChangeToTheCurrentStatus() {
        Scenario.runningJob(spec(), 1000).when(status(JobStatus.RUNNING), 5).thenNothing();
    }

    @Test
    void shouldOnlyRecordStatusChangeBetweenTwoNonRunningStatuses() {
        Then then = Scenario.runningJob(spec(), 1000).and(status(JobStatus.SUSPENDED), 5)
                .when(status(JobStatus.CANCELED), 6);

        then.thenTypes(JobStatusChange.class);
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.CANCELED);
    }

    static Stream<Arguments> commandsForUnknownJob() {
        TriggerRequest request = Fixtures.request("r", dev.cairn.events.CheckpointType.CHECKPOINT, false);
        request.setJobId("ghost");
        dev.cairn.events.CheckpointDeclined decline = Fixtures.declined(1, SOURCE, 0, null);
        decline.setJobId("ghost");
        return Stream.of(
                Arguments.of("ChangeJobStatus", new Command.ChangeJobStatus(JobStatusChange.newBuilder()
                        .setJobId("ghost").setStatus(JobStatus.RUNNING).setTimestampMs(0).build(), 0.0)),
                Arguments.of("RequestTrigger", new Command.RequestTrigger(request)),
                Arguments.of("Acknowledge", new Command.Acknowledge(Fixtures.ack("ghost", 1, SOURCE, 0, "a", 1))),
                Arguments.of("Decline", new Command.Decline(decline)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsForUnknownJob")
    void shouldRejectCommandsForUnknownJob(String commandType, Command command) {
        Then then = Scenario.runningJob(spec(), 1000).when(command, 3);

        CommandRejected rejected = then.single(CommandRejected.class);
        then.thenTypes(CommandRejected.class);
        assertThat(rejected.getJobId()).isEqualTo("ghost");
        assertThat(rejected.getCommandType()).isEqualTo(commandType);
        assertThat(rejected.getReason()).isEqualTo("unknown job ghost");
    }

    @Test
    void shouldProduceNothingForTickOfUnknownJob() {
        Scenario.given().when(new Command.Tick("ghost"), 10).thenNothing();
    }

    @Test
    void shouldRunQueuedRequestsWithTheNewSpecAfterReplacement() {
        Scenario scenario = Scenario.runningJob(spec(), 1000)
                .and(Fixtures.tick(), 1000)
                .and(checkpointRequest("waiting"), 1001);

        Then then = scenario.when(new Command.RegisterJob(spec(config().setTimeoutMs(5000)), 0.9), 1003);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getRequestId()).isEqualTo("waiting");
        assertThat(triggered.getCheckpointId()).isEqualTo(2);
        assertThat(triggered.getTimeoutAtMs()).isEqualTo(1003 + 5000);
        assertThat(then.job(JOB).getQueue()).isEmpty();
    }

    @Test
    void shouldFailQueuedRequestWhenTheNewSpecHasTasksThatAreNotRunning() {
        Scenario scenario = Scenario.runningJob(spec(), 1000)
                .and(Fixtures.tick(), 1000)
                .and(checkpointRequest("waiting"), 1001);

        Then then = scenario.when(new Command.RegisterJob(spec(JOB, config(), vertex("new-task", 1, true, true)), 0.0),
                1003);

        assertThat(then.has(CheckpointTriggered.class)).isFalse();
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING);
        assertThat(then.job(JOB).getNextCheckpointId()).as("no id consumed").isEqualTo(2);
    }
}
