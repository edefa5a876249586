package dev.cairn.core.decide;

import static dev.cairn.core.contract.CoordinatorSettings.DEFAULT_REQUESTS_KEPT;
import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.request;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.RequestOrder;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TriggerFailed;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CheckpointRequestDeciderTest {

    /** A job whose single pending periodic checkpoint (id 1) blocks non-forced requests. */
    private static Scenario blocked() {
        return Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000).and(tick(), 1000);
    }

    private static QueuedRequest queued(String kind, long timestamp, long sequence) {
        boolean savepoint = kind.equals("savepoint");
        return QueuedRequest.newBuilder()
                .setSequence(sequence)
                .setRequestId(kind.equals("periodic") ? null : kind + sequence)
                .setType(savepoint ? CheckpointType.SAVEPOINT : CheckpointType.CHECKPOINT)
                .setForce(savepoint || kind.equals("forced"))
                .setPeriodic(kind.equals("periodic"))
                .setTimestampMs(timestamp)
                .build();
    }

    /**
     * The decider copies a queued request into its {@link RequestQueued} and the evolver back, naming each field:
     * a field added to one record and not to the other would be left behind, so their fields must stay the same.
     */
    @Test
    void shouldNameTheSameFieldsWhenARequestIsJournalledAndQueued() {
        List<String> journalled = RequestQueued.getClassSchema().getFields().stream().map(Schema.Field::name)
                .filter(name -> !name.equals("jobId")).sorted().toList();
        List<String> queued = QueuedRequest.getClassSchema().getFields().stream().map(Schema.Field::name)
                .sorted().toList();
        assertThat(queued).isEqualTo(journalled);
    }

    @ParameterizedTest(name = "{0}@{1}#{2} runs before {3}@{4}#{5}")
    @CsvSource({
        "savepoint, 50, 5, forced,   10, 1",
        "savepoint, 50, 5, manual,   10, 1",
        "forced,    50, 5, manual,   10, 1",
        "manual,    50, 5, periodic, 10, 1",
        "forced,    50, 5, periodic, 10, 1",
        "manual,    10, 5, manual,   50, 1",
        "periodic,  10, 5, periodic, 50, 1",
        "manual,    10, 1, manual,   10, 5",
        "savepoint, 10, 1, savepoint,20, 5"
    })
    void shouldOrderQueueSavepointThenForceThenManualThenOlder(String kindA, long tsA, long seqA, String kindB,
            long tsB, long seqB) {
        QueuedRequest a = queued(kindA, tsA, seqA);
        QueuedRequest b = queued(kindB, tsB, seqB);

        assertThat(java.util.stream.Stream.of(b, a).sorted(RequestOrder.HEAD_FIRST).toList()).containsExactly(a, b);
        assertThat(RequestOrder.HEAD_FIRST.compare(b, a)).isPositive();
    }

    @Test
    void shouldKeepQueueInExecutionOrderAndRunManualBeforeOlderPeriodicAfterCompletion() {
        Scenario scenario = blocked()
                .and(tick(), 2000)
                .and(checkpointRequest("manual-a"), 2001)
                .and(checkpointRequest("manual-b"), 2002);

        assertThat(scenario.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId)
                .containsExactly("manual-a", "manual-b", null);

        Scenario after = scenario.ackAll(JOB, 1, 2100);

        assertThat(after.job(JOB).getPending()).extracting(p -> p.getRequestId()).containsExactly("manual-a");
        assertThat(after.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId)
                .containsExactly("manual-b", null);
    }

    @Test
    void shouldWaitWhenMaxConcurrentCheckpointsArePending() {
        Then then = blocked().when(checkpointRequest("r1"), 1500);

        then.thenTypes(TriggerRequest.class, RequestQueued.class);
        assertThat(then.job(JOB).getQueue()).hasSize(1);
    }

    @Test
    void shouldRunForcedRequestEvenWhenMaxConcurrentCheckpointsArePending() {
        Then then = blocked().when(new Command.RequestTrigger(request("forced", CheckpointType.CHECKPOINT, true)),
                1500);

        then.thenTypes(TriggerRequest.class, RequestQueued.class, RequestDequeued.class, CheckpointTriggered.class,
                RequestOutcome.class);
        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getForce()).isTrue();
        assertThat(triggered.getCheckpointId()).isEqualTo(2);
        assertThat(then.job(JOB).getPending()).hasSize(2);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.TRIGGERED);
        assertThat(outcome.getCheckpointId()).isEqualTo(2L);
    }

    @ParameterizedTest
    @CsvSource(value = {"s3://bucket/my-savepoint, s3://bucket/my-savepoint",
        "NULL, file:///checkpoints/job-1/savepoint-2"}, nullValues = "NULL")
    void shouldRunSavepointAsForcedRequestAtItsTargetLocation(String target, String location) {
        Then then = blocked().when(savepointRequest("sp", target), 1500);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(triggered.getForce()).isTrue();
        assertThat(triggered.getStorageLocation()).isEqualTo(location);
    }

    @Test
    void shouldIgnoreMinPauseForManualCheckpoints() {
        Scenario scenario = Scenario.runningJob(spec(config().setMinPauseMs(10_000)), 10_000)
                .and(tick(), 10_000)
                .ackAll(JOB, 1, 10_100);

        Then then = scenario.when(checkpointRequest("manual"), 10_101);

        assertThat(then.single(CheckpointTriggered.class).getCheckpointId()).isEqualTo(2);
    }

    @Test
    void shouldReportTriggeredAndCompletedOutcomesToTheRequester() {
        Scenario scenario = Scenario.runningJob(spec(), 1000);

        Then triggered = scenario.when(checkpointRequest("mine"), 10);
        assertThat(triggered.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.TRIGGERED);
        assertThat(triggered.single(CheckpointTriggered.class).getRequestId()).isEqualTo("mine");
        assertThat(triggered.single(CheckpointTriggered.class).getPeriodic()).isFalse();

        Then completed = scenario.and(Fixtures.acknowledge(1, SOURCE, 0), 20)
                .and(Fixtures.acknowledge(1, SOURCE, 1), 20)
                .when(Fixtures.acknowledge(1, SINK, 0), 30);
        RequestOutcome outcome = completed.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.COMPLETED);
        assertThat(outcome.getCheckpointId()).isEqualTo(1L);
    }

    @ParameterizedTest
    @CsvSource({"SUSPENDED", "CANCELED", "FAILED", "FINISHED"})
    void shouldFailManualRequestWhenJobIsNotRunning(JobStatus status) {
        Then then = Scenario.runningJob(spec(), 1000).and(Fixtures.status(status), 5)
                .when(checkpointRequest("late"), 10);

        then.thenTypes(TriggerRequest.class, RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
    }

    @Test
    void shouldRejectRequestWithoutRequestId() {
        Then then = Scenario.runningJob(spec(), 1000).when(checkpointRequest(" "), 10);

        then.thenTypes(CommandRejected.class);
    }

    @ParameterizedTest(name = "request known while {0}")
    @CsvSource({"queued", "pending", "in history"})
    void shouldIgnoreResentRequestWithKnownRequestId(String where) {
        Scenario scenario = where.equals("queued") ? blocked().and(checkpointRequest("again"), 1100)
                : Scenario.runningJob(spec(), 1000).and(checkpointRequest("again"), 10);
        if (where.equals("in history")) {
            scenario.ackAll(JOB, 1, 20);
        }

        scenario.when(checkpointRequest("again"), 30).thenNothing();
    }

    @Test
    void shouldRejectNewManualRequestWhenQueueIsFullOfManualRequests() {
        Scenario scenario = Scenario.withSettings(new CoordinatorSettings(2, 10, 16, InputLimits.DEFAULTS,
                        DEFAULT_REQUESTS_KEPT))
                .runningJobOf(spec(config().setTimeoutMs(10_000)), 1000)
                .and(tick(), 1000)
                .and(checkpointRequest("m1"), 1001)
                .and(checkpointRequest("m2"), 1002);

        Then then = scenario.when(new Command.RequestTrigger(request("sp-like", CheckpointType.CHECKPOINT, false)),
                1003);

        then.thenTypes(TriggerRequest.class, RequestOutcome.class);
        assertThat(then.single(RequestOutcome.class).getReason())
                .isEqualTo(CheckpointFailureReason.TOO_MANY_CHECKPOINT_REQUESTS);
        assertThat(then.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId).containsExactly("m1", "m2");
    }

    @Test
    void shouldEvictLowestPeriodicRequestWhenQueueIsFull() {
        Scenario scenario = Scenario.withSettings(new CoordinatorSettings(2, 10, 16, InputLimits.DEFAULTS,
                        DEFAULT_REQUESTS_KEPT))
                .runningJobOf(spec(config().setTimeoutMs(10_000)), 1000)
                .and(tick(), 1000)
                .and(tick(), 2000)
                .and(checkpointRequest("m1"), 2001);

        Then then = scenario.when(checkpointRequest("m2"), 2002);

        then.thenTypes(TriggerRequest.class, RequestQueued.class, RequestDequeued.class);
        RequestDequeued evicted = then.single(RequestDequeued.class);
        assertThat(evicted.getPeriodic()).isTrue();
        assertThat(evicted.getReason()).isEqualTo(CheckpointFailureReason.TOO_MANY_CHECKPOINT_REQUESTS);
        assertThat(then.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId).containsExactly("m1", "m2");
    }

    @Test
    void shouldEvictNewPeriodicRequestWhenQueueIsFullOfOlderOrManualRequests() {
        Scenario scenario = Scenario.withSettings(new CoordinatorSettings(2, 10, 16, InputLimits.DEFAULTS,
                        DEFAULT_REQUESTS_KEPT))
                .runningJobOf(spec(config().setTimeoutMs(10_000)), 1000)
                .and(tick(), 1000)
                .and(checkpointRequest("m1"), 1001)
                .and(checkpointRequest("m2"), 1002);

        Then then = scenario.when(tick(), 2000);

        RequestDequeued evicted = then.single(RequestDequeued.class);
        assertThat(evicted.getPeriodic()).isTrue();
        assertThat(evicted.getSequence()).isEqualTo(then.single(RequestQueued.class).getSequence());
        assertThat(then.has(RequestOutcome.class)).isFalse();
        assertThat(then.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId).containsExactly("m1", "m2");
    }

    @Test
    void shouldFailRequestWithoutConsumingAnIdWhenRequiredTaskIsNotRunning() {
        Scenario scenario = Scenario.given().and(new Command.RegisterJob(spec(), 0.5), 0)
                .and(Fixtures.start(SOURCE, 0, 1), 0)
                .and(Fixtures.start(SINK, 0, 1), 0);

        Then then = scenario.when(checkpointRequest("r"), 10);

        then.thenTypes(TriggerRequest.class, RequestQueued.class, RequestDequeued.class, TriggerFailed.class,
                RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING);
        assertThat(then.job(JOB).getNextCheckpointId()).isEqualTo(1);
        assertThat(then.job(JOB).getPending()).isEmpty();
    }

    @Test
    void shouldTriggerWithoutNotifiedOnlyTasksThatAreNotRunning() {
        dev.cairn.events.TaskVertex observer = vertex("observer", 1, false, false);
        Scenario scenario = Scenario.given().and(new Command.RegisterJob(
                Fixtures.spec(JOB, config(), vertex(SOURCE, 1, true, true), observer), 0.5), 0)
                .and(Fixtures.start(SOURCE, 0, 1), 0);

        Then then = scenario.when(checkpointRequest("r"), 10);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getRoles())
                .containsExactly(new dev.cairn.events.TaskRoles("observer", false, false, true));
        assertThat(then.job(JOB).getPending().get(0).getAcksExpected()).isEqualTo(1);
    }

    @Test
    void shouldNeverReuseCheckpointIds() {
        Scenario scenario = Scenario.runningJob(spec(), 1000)
                .and(tick(), 1000)
                .and(tick(), 1600)
                .and(tick(), 2000);

        assertThat(scenario.job(JOB).getPending()).extracting(p -> p.getCheckpointId()).containsExactly(2L);
        assertThat(scenario.job(JOB).getNextCheckpointId()).isEqualTo(3);
    }
}
