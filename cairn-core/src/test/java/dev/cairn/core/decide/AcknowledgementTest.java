package dev.cairn.core.decide;

import static dev.cairn.core.contract.CoordinatorSettings.DEFAULT_REQUESTS_KEPT;
import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.ack;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.CountingStorage;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskVertex;
import java.util.Locale;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AcknowledgementTest {

    /** Checkpoint 1 pending, triggered at 1000. */
    private static Scenario pending(dev.cairn.events.CheckpointConfig.Builder config) {
        return Scenario.runningJob(spec(config), 1000).and(tick(), 1000);
    }

    @Test
    void shouldRecordSuccessfulAckOnTheSubtaskKeyAndCountItOnThePendingCheckpoint() {
        Then then = pending(config()).when(acknowledge(1, SOURCE, 1), 1100);

        CheckpointAcknowledged recorded = then.single(CheckpointAcknowledged.class);
        then.thenTypes(CheckpointAcknowledged.class);
        assertThat(then.state().ack(JOB, 1, SOURCE, 1)).contains(recorded);
        PendingCheckpoint pending = then.job(JOB).getPending().get(0);
        assertThat(then.progress(JOB, 1).acksReceived()).isEqualTo(1);
        assertThat(pending.getAcksExpected()).isEqualTo(3);
        assertThat(then.progress(JOB, 1).stateSizeBytes()).isEqualTo(10);
    }

    @Test
    void shouldCompleteWhenEveryRequiredSubtaskAcknowledged() {
        Scenario scenario = pending(config())
                .and(new Command.Acknowledge(ack(JOB, 1, SOURCE, 1, attempt(SOURCE, 1, 1), 100)), 1100)
                .and(new Command.Acknowledge(ack(JOB, 1, SINK, 0, attempt(SINK, 0, 1), 5)), 1200);

        Then then = scenario.when(new Command.Acknowledge(ack(JOB, 1, SOURCE, 0, attempt(SOURCE, 0, 1), 20)), 1250);

        then.thenTypes(CheckpointAcknowledged.class, CheckpointCompleted.class);
        CheckpointCompleted completed = then.single(CheckpointCompleted.class);
        assertThat(completed.getCheckpointId()).isEqualTo(1);
        assertThat(completed.getTriggerTimestampMs()).isEqualTo(1000);
        assertThat(completed.getCompletionTimestampMs()).isEqualTo(1250);
        assertThat(completed.getStorageLocation()).isEqualTo("file:///checkpoints/job-1/chk-1");
        assertThat(completed.getTotalSizeBytes()).isEqualTo(125);
        assertThat(completed.getLastSubsumedId()).isEqualTo(-1);
        assertThat(completed.getSubtaskCount()).isEqualTo(3);
        assertThat(completed.getSubtaskStates()).as("the acks hold the states; the completion stays small").isEmpty();
        assertThat(then.state().acks(JOB, 1))
                .extracting(CheckpointAcknowledged::getTaskId, CheckpointAcknowledged::getSubtaskIndex)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(SINK, 0),
                        org.assertj.core.groups.Tuple.tuple(SOURCE, 0),
                        org.assertj.core.groups.Tuple.tuple(SOURCE, 1));
        var job = then.job(JOB);
        assertThat(job.getPending()).isEmpty();
        assertThat(job.getLatestCompletedId()).isEqualTo(1);
        assertThat(job.getLastCompletionMs()).isEqualTo(1250);
        assertThat(job.getCounts().getCompleted()).isEqualTo(1);
        assertThat(job.getCounts().getInProgress()).isZero();
        assertThat(then.history(JOB)).singleElement().satisfies(s -> {
            assertThat(s.getStatus()).isEqualTo(CheckpointStatus.COMPLETED);
            assertThat(s.getEndToEndDurationMs()).isEqualTo(250);
            assertThat(s.getStateSizeBytes()).isEqualTo(125);
        });
        assertThat(then.state().retained(JOB)).map(RetainedCheckpoints::getCheckpoints).hasValueSatisfying(
                list -> assertThat(list).containsExactly(completed));
    }

    @Test
    void shouldRetainNewestCheckpointsAndReportTheLastSubsumedOne() {
        Scenario scenario = Scenario.runningJob(spec(config().setRetained(2)), 1000);
        for (int id = 1; id <= 2; id++) {
            scenario.and(checkpointRequest("r" + id), 1000 + id).ackAll(JOB, id, 1000 + id);
        }
        scenario.and(checkpointRequest("r3"), 1003)
                .and(acknowledge(3, SOURCE, 0), 1003)
                .and(acknowledge(3, SOURCE, 1), 1003);

        Then then = scenario.when(acknowledge(3, SINK, 0), 1004);

        assertThat(then.single(CheckpointCompleted.class).getLastSubsumedId()).isEqualTo(1);
        assertThat(then.state().retained(JOB).orElseThrow().getCheckpoints())
                .extracting(CheckpointCompleted::getCheckpointId).containsExactly(2L, 3L);
    }

    @Test
    void shouldAbortOlderPendingCheckpointsAsSubsumedOnCompletion() {
        Scenario scenario = Scenario.runningJob(spec(config().setMaxConcurrent(3).setTimeoutMs(10_000)), 1000)
                .and(checkpointRequest("a"), 10)
                .and(checkpointRequest("b"), 20)
                .and(checkpointRequest("c"), 30)
                .and(acknowledge(2, SOURCE, 0), 40)
                .and(acknowledge(2, SOURCE, 1), 40);

        Then then = scenario.when(acknowledge(2, SINK, 0), 50);

        CheckpointAborted aborted = then.single(CheckpointAborted.class);
        assertThat(aborted.getCheckpointId()).isEqualTo(1);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_SUBSUMED);
        assertThat(aborted.getLatestCompletedId()).isEqualTo(2);
        assertThat(then.job(JOB).getPending()).extracting(PendingCheckpoint::getCheckpointId).containsExactly(3L);
        assertThat(then.job(JOB).getConsecutiveFailures()).as("subsumption does not count").isZero();
    }

    @Test
    void shouldNeitherRetainNorSubsumeWhenSavepointCompletes() {
        Scenario scenario = pending(config().setTimeoutMs(10_000))
                .and(savepointRequest("sp", null), 1100)
                .and(acknowledge(2, SOURCE, 0), 1200)
                .and(acknowledge(2, SOURCE, 1), 1200);

        Then then = scenario.when(acknowledge(2, SINK, 0), 1300);

        then.thenTypes(CheckpointAcknowledged.class, CheckpointCompleted.class,
                dev.cairn.events.RequestOutcome.class);
        assertThat(then.single(CheckpointCompleted.class).getLastSubsumedId()).isEqualTo(-1);
        assertThat(then.job(JOB).getPending()).extracting(PendingCheckpoint::getCheckpointId).containsExactly(1L);
        assertThat(then.job(JOB).getLatestCompletedId()).isEqualTo(-1);
        assertThat(then.job(JOB).getLastSucceededId()).isEqualTo(2);
        assertThat(then.state().retained(JOB)).isEmpty();
    }

    @Test
    void shouldNotSubsumePendingSavepointWhenCheckpointCompletes() {
        Scenario scenario = Scenario.runningJob(spec(config().setTimeoutMs(10_000).setMaxConcurrent(2)), 1000)
                .and(savepointRequest("sp", null), 10)
                .and(checkpointRequest("cp"), 20);

        Scenario after = scenario.ackAll(JOB, 2, 30);

        assertThat(after.job(JOB).getPending()).extracting(PendingCheckpoint::getCheckpointId).containsExactly(1L);
        assertThat(after.job(JOB).getLatestCompletedId()).isEqualTo(2);
    }

    @Test
    void shouldIgnoreDuplicateAckOfTheSameAttemptWithoutHandleToCleanUp() {
        Then then = pending(config()).and(acknowledge(1, SOURCE, 0), 1100).when(acknowledge(1, SOURCE, 0), 1101);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        then.thenTypes(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle()).isNull();
        assertThat(then.progress(JOB, 1).acksReceived()).isEqualTo(1);
    }

    @Test
    void shouldDiscardAckOfAttemptNotInThePlanAndReportItsHandle() {
        CheckpointAcknowledged stranger = ack(JOB, 1, SOURCE, 0, "stranger", 77);

        Then then = pending(config()).when(new Command.Acknowledge(stranger), 1100);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
        assertThat(discarded.getStateHandle()).isEqualTo(stranger.getStateHandle());
        assertThat(then.state().ack(JOB, 1, SOURCE, 0)).isEmpty();
    }

    @Test
    void shouldDiscardAckOfNewAttemptWhenTheOldAttemptAlreadyAcknowledged() {
        Scenario scenario = pending(config())
                .and(acknowledge(1, SOURCE, 0), 1100)
                .and(Fixtures.start(SOURCE, 0, 2), 1150);

        Then then = scenario.when(new Command.Acknowledge(ack(JOB, 1, SOURCE, 0, attempt(SOURCE, 0, 2), 5)), 1200);

        assertThat(then.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
    }

    @Test
    void shouldDiscardAckFromVertexThatDoesNotAcknowledge() {
        Scenario scenario = Scenario.runningJob(
                Fixtures.spec(JOB, config(), vertex("trigger-only", 1, true, false), vertex(SINK, 1, false, true)),
                1000).and(tick(), 1000);

        Then then = scenario.when(new Command.Acknowledge(
                ack(JOB, 1, "trigger-only", 0, attempt("trigger-only", 0, 1), 5)), 1100);

        assertThat(then.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
        assertThat(then.job(JOB).getPending().get(0).getAcksExpected()).isEqualTo(1);
    }

    @Test
    void shouldReportLateMessageForRecentlyExpiredCheckpoint() {
        Scenario scenario = pending(config()).and(tick(), 1600);

        Then then = scenario.when(acknowledge(1, SOURCE, 0), 1700);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.LATE);
        assertThat(discarded.getMessage()).startsWith("Received late message for now expired checkpoint attempt 1");
        assertThat(discarded.getStateHandle()).isNotNull();
    }

    @Test
    void shouldDiscardAckForCheckpointThatEndedLongAgo() {
        Scenario scenario = Scenario.withSettings(new CoordinatorSettings(1000, 10, 1, InputLimits.DEFAULTS,
                        DEFAULT_REQUESTS_KEPT))
                .runningJobOf(spec(), 1000)
                .and(tick(), 1000)
                .and(tick(), 1600)
                .and(tick(), 2000)
                .and(tick(), 2600);

        Then then = scenario.when(acknowledge(1, SOURCE, 0), 2700);

        assertThat(then.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.DISCARDED);
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, -100, 2, 99})
    void shouldDiscardAndReportTheStateOfAnAckForACheckpointThatWasNeverTriggered(long checkpointId) {
        Then then = pending(config()).when(acknowledge(checkpointId, SOURCE, 0), 1100);

        then.thenTypes(AckDiscarded.class);
        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DISCARDED);
        assertThat(discarded.getStateHandle()).isNotNull();
        assertThat(discarded.getMessage()).contains("never triggered");
    }

    @ParameterizedTest
    @CsvSource({"source, 2", "nope, 0", "sink, 1"})
    void shouldDiscardAndReportTheStateOfAnAckFromAnUnknownTaskOrSubtask(String taskId, int subtask) {
        Then then = pending(config()).when(new Command.Acknowledge(ack(JOB, 1, taskId, subtask, "a", 1)), 1100);

        then.thenTypes(AckDiscarded.class);
        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
        assertThat(discarded.getStateHandle()).isNotNull();
        assertThat(discarded.getMessage()).contains("no such task or subtask");
    }

    @Test
    void shouldNeitherScanNorRewriteTheJobForAnAckThatDoesNotComplete() {
        Scenario scenario = pending(config()).and(acknowledge(1, SOURCE, 0), 1100);
        CountingStorage counting = new CountingStorage(scenario.state().storage());
        CoordinatorState state = counting.stateKnowingProgressOf(JOB, 1);
        CheckpointDecider decider = new CheckpointDecider(CoordinatorSettings.DEFAULTS);

        Decided decided = decider.decide(acknowledge(1, SOURCE, 1), state, 1200);
        decided.applyTo(state);

        assertThat(decided.events()).singleElement().isInstanceOf(CheckpointAcknowledged.class);
        assertThat(counting.scans).isZero();
        assertThat(counting.reads(StateTable.RETAINED)).isZero();
        assertThat(counting.reads(StateTable.SPECS)).as("the spec, which grows with the vertices, is not read")
                .isZero();
        assertThat(counting.reads(StateTable.JOBS))
                .as("one lookup: an ack short of completion is decided on the job once")
                .isEqualTo(1);
        assertThat(counting.reads(StateTable.VERTICES)).isEqualTo(1);
        assertThat(counting.reads(StateTable.ATTEMPTS)).isEqualTo(1);
        assertThat(counting.reads(StateTable.ACKS)).as("the duplicate check").isEqualTo(1);
        assertThat(counting.writes(StateTable.JOBS)).as("the job record is not rewritten").isZero();
        assertThat(counting.writes(StateTable.ACKS)).isEqualTo(1);
        assertThat(counting.writes()).as("nothing but the ack is written").isEqualTo(1);
    }

    @Test
    void shouldReadAndWriteTheSameForAnAckWhateverTheNumberOfVertices() {
        CountingStorage few = countAckToJobOf(3);
        CountingStorage many = countAckToJobOf(3_000);

        assertThat(many.reads()).isEqualTo(few.reads()).isEqualTo(4);
        assertThat(many.writes(StateTable.JOBS)).isEqualTo(few.writes(StateTable.JOBS)).isZero();
        assertThat(many.writes()).isEqualTo(few.writes()).isEqualTo(1);
        assertThat(many.scans).isEqualTo(few.scans).isZero();
        assertThat(many.bytesRead).as("bytes read for 3,000 vertices vs %s for 3", few.bytesRead)
                .isCloseTo(few.bytesRead, within(8L));
        assertThat(many.bytesWritten).as("bytes written for 3,000 vertices vs %s for 3", few.bytesWritten)
                .isCloseTo(few.bytesWritten, within(8L));
    }

    /**
     * A job of {@code vertices} vertices of parallelism 1 (ids of equal length), checkpoint 1 pending with one
     * ack in: decides and applies a second ack, which does not complete it, on a counting state.
     */
    private static CountingStorage countAckToJobOf(int vertices) {
        TaskVertex[] tasks = IntStream.range(0, vertices)
                .mapToObj(i -> vertex(String.format(Locale.ROOT, "v%05d", i), 1, i == 0, true))
                .toArray(TaskVertex[]::new);
        Scenario scenario = Scenario.runningJob(spec(JOB, config(), tasks), 1000).and(tick(), 1000)
                .and(acknowledge(1, "v00000", 0), 1100);
        CountingStorage counting = new CountingStorage(scenario.state().storage());
        CoordinatorState state = counting.stateKnowingProgressOf(JOB, 1);
        CheckpointDecider decider = new CheckpointDecider(CoordinatorSettings.DEFAULTS);

        Decided decided = decider.decide(acknowledge(1, "v00001", 0), state, 1200);
        decided.applyTo(state);

        assertThat(decided.events()).singleElement().isInstanceOf(CheckpointAcknowledged.class);
        assertThat(state.progress(JOB, 1).acksReceived()).isEqualTo(2);
        return counting;
    }
}
