package dev.cairn.core.decide;

import static dev.cairn.core.contract.CoordinatorSettings.DEFAULT_REQUESTS_KEPT;
import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.ack;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.EventDescriptions;
import dev.cairn.core.events.TimerIndex;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.OverlayStorage;
import dev.cairn.core.state.StateKeys;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.CountingStorage;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.core.views.CheckpointStatsSummary;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.RequestQueued;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateAndStatsTest {

    @Test
    void shouldBufferOverlayWritesWithoutTouchingTheBase() {
        CoordinatorState base = CoordinatorState.inMemory();
        base.putAck(ack(JOB, 1, SOURCE, 0, "a", 1));
        base.putAck(ack(JOB, 1, SOURCE, 1, "b", 1));
        base.putAck(ack(JOB, 2, SOURCE, 0, "c", 1));
        CoordinatorState snapshot = base.copy();
        OverlayStorage changes = new OverlayStorage(base.storage());
        CoordinatorState overlay = CoordinatorState.layered(base, changes);

        overlay.putAttempt(JOB, SOURCE, 0, "new", 5);
        overlay.removeAcks(JOB, 1);
        overlay.putAck(ack(JOB, 1, SOURCE, 1, "b2", 1));
        overlay.putAck(ack(JOB, 2, "aaa", 0, "d", 1));

        assertThat(base).isEqualTo(snapshot);
        assertThat(overlay.attempt(JOB, SOURCE, 0)).contains("new");
        assertThat(overlay.ack(JOB, 1, SOURCE, 0)).isEmpty();
        assertThat(overlay.acks(JOB, 1)).extracting(a -> a.getAttemptId()).containsExactly("b2");
        assertThat(overlay.acks(JOB, 2)).extracting(a -> a.getAttemptId()).containsExactly("d", "c");
        assertThat(base.acks(JOB, 1)).hasSize(2);
    }

    @Test
    void shouldReadThroughToTheBaseAndKeepItsOwnWritesUntilApplied() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000)
                .and(Fixtures.acknowledge(1, SOURCE, 0), 1100);
        CountingStorage counted = new CountingStorage(scenario.state().storage());
        CoordinatorState base = CoordinatorState.over(counted);
        OverlayStorage changes = new OverlayStorage(base.storage());
        CoordinatorState overlay = CoordinatorState.layered(base, changes);

        assertThat(overlay.vertex(JOB, SOURCE)).isPresent();
        assertThat(overlay.ack(JOB, 1, SOURCE, 0)).isPresent();
        overlay.remove(StateTable.VERTICES, new StateKeys.VertexKey(JOB, SOURCE));
        overlay.removeAcks(JOB, 1);

        assertThat(overlay.vertex(JOB, SOURCE)).isEmpty();
        assertThat(overlay.ack(JOB, 1, SOURCE, 0)).isEmpty();
        assertThat(overlay.acks(JOB, 1)).isEmpty();
        assertThat(counted.reads(StateTable.VERTICES)).as("the second read is answered by the overlay's write")
                .isEqualTo(1);
        assertThat(counted.writes()).as("nothing reaches the base before applyTo").isZero();
        assertThat(scenario.state().vertex(JOB, SOURCE)).as("the base keeps it").isPresent();

        changes.applyTo(base);

        assertThat(scenario.state().vertex(JOB, SOURCE)).isEmpty();
        assertThat(scenario.state().acks(JOB, 1)).isEmpty();
        assertThat(counted.removals(StateTable.VERTICES)).isEqualTo(1);
    }

    @Test
    void shouldRefuseTheRemovalWhenATableNeverRemovesEntries() {
        CoordinatorState state = CoordinatorState.inMemory();
        OverlayStorage changes = new OverlayStorage(state.storage());
        CoordinatorState overlay = CoordinatorState.layered(state, changes);

        for (CoordinatorState target : List.of(state, overlay)) {
            assertThatThrownBy(() -> target.remove(StateTable.JOBS, JOB))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("jobs table never removes");
        }
        changes.applyTo(state);
        assertThat(state).isEqualTo(CoordinatorState.inMemory());
    }

    @Test
    void shouldKeepBoundedHistoryAndDropAcksOfCheckpointsThatLeaveIt() {
        Scenario scenario = Scenario.withSettings(new CoordinatorSettings(1000, 2, 16, InputLimits.DEFAULTS,
                        DEFAULT_REQUESTS_KEPT))
                .runningJobOf(spec(), 1000);
        for (int id = 1; id <= 3; id++) {
            long t = id * 1000L;
            scenario.and(tick(), t).ackAll(JOB, id, t + 100L * id);
        }

        assertThat(scenario.history(JOB)).extracting(CheckpointSummary::getCheckpointId)
                .containsExactly(2L, 3L);
        assertThat(scenario.state().acks(JOB, 1)).isEmpty();
        assertThat(scenario.state().acks(JOB, 2)).hasSize(3);
        assertThat(scenario.state().acks(JOB, 3)).hasSize(3);
        assertThat(scenario.job(JOB).getCounts().getCompleted()).isEqualTo(3);
        assertThat(scenario.job(JOB).getTotals().getCount()).isEqualTo(3);
        assertThat(scenario.job(JOB).getTotals().getMinDurationMs()).isEqualTo(100);
        assertThat(scenario.job(JOB).getTotals().getMaxDurationMs()).isEqualTo(300);
    }

    @Test
    void shouldSummarizeDurationsAndSizesOfCompletedCheckpointsInTheHistory() {
        Scenario scenario = Scenario.runningJob(spec(), 1000);
        for (int id = 1; id <= 4; id++) {
            long t = id * 1000L;
            scenario.and(tick(), t).ackAll(JOB, id, t + 100L * id);
        }
        scenario.and(tick(), 5000).and(tick(), 5600);

        CheckpointStatsSummary summary = CheckpointStatsSummary.of(scenario.job(JOB), scenario.history(JOB));

        assertThat(summary.completedInHistory()).isEqualTo(4);
        assertThat(summary.endToEndDurationMs()).isEqualTo(
                new CheckpointStatsSummary.Figures(4, 100, 250.0, 400, 200, 400, 400, 400, 400));
        assertThat(summary.stateSizeBytes().max()).isEqualTo(30);
        assertThat(summary.allTimeEndToEndDurationMs())
                .isEqualTo(new CheckpointStatsSummary.AllTime(4, 100, 250.0, 400));
        assertThat(scenario.job(JOB).getCounts().getFailed()).isEqualTo(1);
    }

    @Test
    void shouldSummarizeNothingBeforeTheFirstCompletion() {
        CheckpointStatsSummary summary = CheckpointStatsSummary.of(Scenario.runningJob(spec(), 1000).job(JOB),
                List.of());

        assertThat(summary.completedInHistory()).isZero();
        assertThat(summary.endToEndDurationMs().count()).isZero();
        assertThat(summary.allTimeStateSizeBytes().count()).isZero();
    }

    @Test
    void shouldIndexTimersOfTimeoutsAndPeriodicTriggers() {
        Then then = Scenario.runningJob(spec(config().setTimeoutMs(700)), 1000).when(tick(), 1000);

        assertThat(TimerIndex.timer(then.single(CheckpointTriggered.class)))
                .contains(new TimerIndex.Timer(JOB, 1700));
        assertThat(TimerIndex.timer(then.single(PeriodicTriggerScheduled.class)))
                .contains(new TimerIndex.Timer(JOB, 2000));
        assertThat(TimerIndex.timer(then.single(RequestQueued.class))).isEmpty();
    }

    @Test
    void shouldDescribeEventsWithTheLogLinesOperatorsGrepFor() {
        Scenario scenario = Scenario.runningJob(spec(), 1000);
        Then triggered = scenario.when(tick(), 1000);
        Then completed = scenario.and(Fixtures.acknowledge(1, SOURCE, 0), 1100)
                .and(Fixtures.acknowledge(1, SOURCE, 1), 1100)
                .when(Fixtures.acknowledge(1, Fixtures.SINK, 0), 1250);
        Then expired = scenario.and(tick(), 2000).when(tick(), 2600);
        Then declined = scenario.and(tick(), 3000).when(Fixtures.decline(3, SOURCE, 1), 3100);

        assertThat(describe(triggered.single(CheckpointTriggered.class)))
                .startsWith("Triggering checkpoint 1 (CHECKPOINT) @ 1000 for job job-1");
        assertThat(describe(completed.single(dev.cairn.events.CheckpointCompleted.class)))
                .startsWith("Completed checkpoint 1 for job job-1 (30 bytes, 250 ms)");
        assertThat(describe(expired.single(dev.cairn.events.CheckpointAborted.class)))
                .isEqualTo("Checkpoint 2 of job job-1 expired before completing");
        assertThat(describe(declined.single(dev.cairn.events.CheckpointDeclined.class)))
                .startsWith("Decline checkpoint 3 by task source of job job-1");
        assertThat(EventDescriptions.describe(triggered.single(RequestQueued.class))).isEmpty();
        assertThat(describe(declined.single(dev.cairn.events.CheckpointAborted.class)))
                .startsWith("Aborted checkpoint 3 of job job-1: CHECKPOINT_DECLINED");
    }

    private static String describe(org.apache.avro.specific.SpecificRecord event) {
        return EventDescriptions.describe(event).orElseThrow();
    }
}
