package dev.cairn.core.decide;

import static dev.cairn.core.contract.CoordinatorSettings.DEFAULT_REQUESTS_KEPT;
import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobSpec;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerFailed;
import dev.cairn.events.TriggerRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bounded input (every client-controlled size is checked before anything is allocated for it) and
 * order-free registration (a TaskStarted may come before its job's spec: they travel on different topics).
 */
class InputBoundsAndOrderTest {

    private static final String LONG_ID = "x".repeat(257);

    @Test
    void shouldApplyATaskStartedThatArrivedBeforeItsJobSpecWhenTheSpecArrives() {
        JobSpec spec = spec(JOB, config(), vertex(SOURCE, 1, true, true), vertex(SINK, 1, false, true));
        Scenario scenario = Scenario.given();
        scenario.when(Fixtures.start(SOURCE, 0, 1), 10).thenTypes(TaskStarted.class);
        scenario.when(Fixtures.start(SINK, 0, 1), 11).thenTypes(TaskStarted.class);

        Then registered = scenario.when(new Command.RegisterJob(spec, 0.0), 20);
        long due = registered.single(PeriodicTriggerScheduled.class).getDueAtMs();
        Then ticked = registered.scenario().when(new Command.Tick(JOB), due);

        CheckpointTriggered triggered = ticked.single(CheckpointTriggered.class);
        assertThat(triggered.getAcksExpected()).as("both attempts, started before the spec, count").isEqualTo(2);
        assertThat(ticked.events()).noneMatch(TriggerFailed.class::isInstance);
    }

    @Test
    void shouldKeepAnAttemptOfATaskTheSpecDoesNotHaveYetForTheSpecThatAddsIt() {
        Scenario scenario = Scenario.runningJob(spec(JOB, config(), vertex(SOURCE, 1, true, true)), 1000);
        scenario.when(Fixtures.start("late-task", 0, 1), 1001).thenTypes(TaskStarted.class);

        JobSpec grown = spec(JOB, config(), vertex(SOURCE, 1, true, true), vertex("late-task", 1, false, true));
        Then then = scenario.when(new Command.RegisterJob(grown, 0.0), 1002).scenario()
                .when(new Command.Tick(JOB), 5000);

        assertThat(then.single(CheckpointTriggered.class).getAcksExpected()).isEqualTo(2);
    }

    static Stream<Arguments> outOfBoundsCommands() {
        TriggerRequest longTarget = Fixtures.request("r1", CheckpointType.SAVEPOINT, false);
        longTarget.setTargetLocation("s3://" + "y".repeat(1_100));
        TriggerRequest longRequestId = Fixtures.request(LONG_ID, CheckpointType.CHECKPOINT, false);
        CheckpointAcknowledged longHandle = Fixtures.ack(JOB, 1, SOURCE, 0, Fixtures.attempt(SOURCE, 0, 1), 10);
        longHandle.setStateHandle(StateHandle.newBuilder().setLocation("file:///" + "z".repeat(1_100))
                .setSizeBytes(10L).build());
        CheckpointAcknowledged negativeSize = Fixtures.ack(JOB, 1, SOURCE, 0, Fixtures.attempt(SOURCE, 0, 1), -1);
        CheckpointAcknowledged blankTask = Fixtures.ack(JOB, 1, "\t ", 0, Fixtures.attempt(SOURCE, 0, 1), 10);
        CheckpointAcknowledged controlAttempt = Fixtures.ack(JOB, 1, SOURCE, 0, "a\u0007b", 10);
        CheckpointAcknowledged noHandle = Fixtures.ack(JOB, 1, SOURCE, 0, Fixtures.attempt(SOURCE, 0, 1), 10);
        noHandle.setStateHandle(null);
        CheckpointDeclined longMessage = Fixtures.declined(1, SOURCE, 0, null);
        longMessage.setMessage("m".repeat(16_385));
        RemoveJob.Builder removal = RemoveJob.newBuilder().setJobId(JOB).setRequestId("r1").setRequester("test")
                .setTimestampMs(0);
        return Stream.of(
                Arguments.of("target location", new Command.RequestTrigger(longTarget), "targetLocation is 1105"),
                Arguments.of("request id", new Command.RequestTrigger(longRequestId), "requestId is 257"),
                Arguments.of("attempt id", new Command.StartTask(Fixtures.started(JOB, SOURCE, 0, LONG_ID)),
                        "attempt id is 257"),
                Arguments.of("control character", new Command.StartTask(Fixtures.started(JOB, SOURCE, 0, "a\u0000b")),
                        "attempt id contains a control character"),
                Arguments.of("subtask index", new Command.StartTask(Fixtures.started(JOB, SOURCE, 40_000, "a")),
                        "subtask index must be in [0, 32768) but is 40000"),
                Arguments.of("handle location", new Command.Acknowledge(longHandle), "state handle location is 1108"),
                Arguments.of("state size", new Command.Acknowledge(negativeSize), "state size must be >= 0"),
                Arguments.of("blank task id", new Command.Acknowledge(blankTask), "task id is empty"),
                Arguments.of("ack's attempt id", new Command.Acknowledge(controlAttempt),
                        "attempt id contains a control character"),
                Arguments.of("missing state handle", new Command.Acknowledge(noHandle), "state handle is missing"),
                Arguments.of("decline message", new Command.Decline(longMessage), "decline message is 16385"),
                Arguments.of("removal's request id", new Command.Remove(removal.setRequestId(LONG_ID).build()),
                        "request id is 257"),
                Arguments.of("removal's requester", new Command.Remove(RemoveJob.newBuilder(removal.build())
                        .setRequestId("r1").setRequester("a\u0000b").build()), "requester contains a control"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfBoundsCommands")
    void shouldRejectACommandWithAFieldOverItsLimitAndChangeNothing(String field, Command command, String reason) {
        Scenario scenario = Scenario.runningJob(spec(JOB, config(), vertex(SOURCE, 1, true, true)), 1000);
        scenario.and(new Command.Tick(JOB), 1000);

        Then then = scenario.when(command, 1001);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).startsWith(reason);
    }

    @Test
    void shouldNameAnOversizedJobIdInItsBoundedFormWhenRejectingIt() {
        String huge = "j".repeat(100_000);

        Then then = Scenario.given().when(new Command.RegisterJob(spec(huge, config(),
                vertex(SOURCE, 1, true, true)), 0.0), 1);

        CommandRejected rejected = then.single(CommandRejected.class);
        assertThat(rejected.getJobId()).hasSizeLessThan(400).startsWith("jjj").contains("(100000 characters, SHA-256 ");
        assertThat(rejected.getReason()).hasSizeLessThan(1_000);
    }

    @Test
    void shouldRejectASpecWithFlinksLargestParallelismPlusOneNamingTheLimit() {
        Then then = Scenario.given().when(new Command.RegisterJob(
                spec(JOB, config(), vertex(SOURCE, 32_769, true, true)), 0.0), 1);

        assertThat(then.single(CommandRejected.class).getReason())
                .isEqualTo("invalid job spec: tasks[0].parallelism must be in [1, 32768] but is 32769");
        assertThat(then.state().jobs()).isEmpty();
    }

    @Test
    void shouldRejectASpecWhoseNonDefaultRolesWouldNotFitInATrigger() {
        dev.cairn.events.TaskVertex[] observers = java.util.stream.IntStream.range(0, 1_300)
                .mapToObj(i -> vertex(String.format(java.util.Locale.ROOT, "%0200d", i), 1, false, false))
                .toArray(dev.cairn.events.TaskVertex[]::new);
        dev.cairn.events.TaskVertex[] tasks = new dev.cairn.events.TaskVertex[observers.length + 1];
        tasks[0] = vertex(SOURCE, 1, true, true);
        System.arraycopy(observers, 0, tasks, 1, observers.length);

        Then then = Scenario.given().when(new Command.RegisterJob(spec(JOB, config(), tasks), 0.0), 1);

        assertThat(then.single(CommandRejected.class).getReason())
                .startsWith("invalid job spec: tasks whose roles differ from the default")
                .contains("more than the limit of 262144");
    }

    @Test
    void shouldHonourTighterLimitsGivenInTheSettings() {
        InputLimits tight = new InputLimits(4, 2, 6, 8, 64, 32, 2, 60_000,
                InputLimits.DEFAULT_LOCATION_SCHEMES, InputLimits.DEFAULT_REQUEST_FRESHNESS_MS);
        CoordinatorSettings settings = new CoordinatorSettings(1000, 10, 16, tight, DEFAULT_REQUESTS_KEPT);

        Then then = Scenario.withSettings(settings).when(new Command.RegisterJob(
                spec(JOB, config(), vertex(SOURCE, 4, true, true), vertex(SINK, 3, false, true)), 0.0), 1);

        assertThat(then.single(CommandRejected.class).getReason())
                .isEqualTo("invalid job spec: tasks have 7 subtasks, more than the limit of 6 per job");
    }
}
