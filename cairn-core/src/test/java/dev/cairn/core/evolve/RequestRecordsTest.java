package dev.cairn.core.evolve;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.decide.Decided;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.CountingStorage;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the coordinator keeps of each trigger request's outcome, for the REST status of Flink's asynchronous
 * operations. Every {@code when} also checks that the state equals {@code fold(evolve, journal)}.
 */
class RequestRecordsTest {

    private static RequestRecord record(Then then, String requestId) {
        return then.state().request(JOB, requestId).orElseThrow();
    }

    private static List<String> index(Then then) {
        return then.state().requestIndex(JOB).map(RequestIndex::getRequestIds).orElse(List.of());
    }

    @Test
    void shouldKeepTriggeredSavepointWithItsLocationWhenItStarts() {
        Then then = Scenario.runningJob(spec(), 1000).when(savepointRequest("sp-1", "s3://bucket/sp-1"), 10);

        RequestRecord record = record(then, "sp-1");
        assertThat(record.getStatus()).isEqualTo(RequestStatus.TRIGGERED);
        assertThat(record.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(record.getCheckpointId()).isEqualTo(1L);
        assertThat(record.getLocation()).isEqualTo("s3://bucket/sp-1");
        assertThat(record.getTimestampMs()).isEqualTo(10);
        assertThat(index(then)).containsExactly("sp-1");
    }

    @Test
    void shouldKeepCompletedSavepointWithItsLocationWhenTheLastAckCompletesIt() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(savepointRequest("sp-1", null), 10)
                .and(acknowledge(1, SOURCE, 0), 20).and(acknowledge(1, SOURCE, 1), 20);

        Then then = scenario.when(acknowledge(1, SINK, 0), 30);

        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.COMPLETED);
        RequestRecord record = record(then, "sp-1");
        assertThat(record.getStatus()).isEqualTo(RequestStatus.COMPLETED);
        assertThat(record.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(record.getCheckpointId()).isEqualTo(1L);
        assertThat(record.getLocation()).isEqualTo("file:///checkpoints/job-1/savepoint-1");
        assertThat(record.getReason()).isNull();
        assertThat(record.getTimestampMs()).isEqualTo(30);
        assertThat(index(then)).as("a later outcome of a kept request does not list it again").containsExactly("sp-1");
    }

    @Test
    void shouldKeepReasonAndMessageWhenTheRequestsCheckpointIsAborted() {
        Scenario scenario = Scenario.runningJob(spec(config().setTolerableFailures(5)), 1000)
                .and(checkpointRequest("cp-1"), 10);

        Then then = scenario.when(decline(1, SOURCE, 0), 20);

        RequestRecord record = record(then, "cp-1");
        assertThat(record.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(record.getType()).isEqualTo(CheckpointType.CHECKPOINT);
        assertThat(record.getCheckpointId()).isEqualTo(1L);
        assertThat(record.getLocation()).isEqualTo("file:///checkpoints/job-1/chk-1");
        assertThat(record.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(record.getMessage()).isEqualTo(then.single(RequestOutcome.class).getMessage()).isNotBlank();
    }

    @Test
    void shouldKeepFailureWithoutCheckpointWhenTheRequestFailsBeforeItRuns() {
        Then then = Scenario.runningJob(spec(), 1000).and(Fixtures.status(JobStatus.SUSPENDED), 5)
                .when(checkpointRequest("late"), 10);

        RequestRecord record = record(then, "late");
        assertThat(record.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(record.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
        assertThat(record.getCheckpointId()).isNull();
        assertThat(record.getType()).isNull();
        assertThat(record.getLocation()).isNull();
    }

    @Test
    void shouldKeepNoRecordWhileTheRequestWaitsInTheQueue() {
        Scenario blocked = Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000).and(tick(), 1000);

        Then then = blocked.when(checkpointRequest("waiting"), 1500);

        assertThat(then.job(JOB).getQueue()).extracting(q -> q.getRequestId()).containsExactly("waiting");
        assertThat(then.state().request(JOB, "waiting")).isEmpty();
        assertThat(then.state().requestIndex(JOB)).isEmpty();
    }

    @Test
    void shouldRemoveTheOldestRecordWhenMoreRequestsThanTheBoundHaveOutcomes() {
        Scenario scenario = Scenario.withSettings(new CoordinatorSettings(1000, 10, 16, InputLimits.DEFAULTS, 2))
                .runningJobOf(spec(), 1000).and(Fixtures.status(JobStatus.SUSPENDED), 5)
                .and(checkpointRequest("r1"), 10).and(checkpointRequest("r2"), 11);

        Then then = scenario.when(checkpointRequest("r3"), 12);

        assertThat(then.state().values(StateTable.REQUESTS, JOB).stream().map(RequestRecord::getRequestId).sorted())
                .containsExactly("r2", "r3");
        assertThat(index(then)).containsExactly("r2", "r3");
        assertThat(then.state().request(JOB, "r1")).isEmpty();
    }

    @Test
    void shouldKeepRequestsWhenTheSpecIsReplaced() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(savepointRequest("sp-1", null), 10);

        Then then = scenario.when(new Command.RegisterJob(spec(config().setIntervalMs(5_000)), 0.0), 20);

        assertThat(then.job(JOB).getConfig().getIntervalMs()).isEqualTo(5_000);
        RequestOutcome aborted = then.single(RequestOutcome.class);
        assertThat(record(then, "sp-1").getStatus()).as("the replacement aborted the pending savepoint")
                .isEqualTo(aborted.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(record(then, "sp-1").getCheckpointId()).isEqualTo(1L);
        assertThat(index(then)).containsExactly("sp-1");
    }

    @Test
    void shouldNotReadOrWriteRequestsForAnAckThatDoesNotCompleteTheCheckpoint() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(savepointRequest("sp-1", null), 10)
                .and(acknowledge(1, SOURCE, 0), 20);
        CountingStorage counting = new CountingStorage(scenario.state().storage());
        CoordinatorState state = counting.stateKnowingProgressOf(JOB, 1);

        Decided decided = new CheckpointDecider(CoordinatorSettings.DEFAULTS).decide(acknowledge(1, SOURCE, 1),
                state, 30);
        decided.applyTo(state);

        assertThat(decided.events()).hasSize(1);
        assertThat(counting.reads(StateTable.REQUESTS) + counting.reads(StateTable.REQUEST_INDEXES)).isZero();
        assertThat(counting.writes(StateTable.REQUESTS) + counting.writes(StateTable.REQUEST_INDEXES)).isZero();
    }
}
