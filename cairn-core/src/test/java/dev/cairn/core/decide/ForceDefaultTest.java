package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.request;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.TriggerRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Flink's default of {@code force} ({@code CheckpointProperties.forSavepoint(!unalignedEnabled, ...)}): a request
 * that leaves it open takes it from its type and the job's alignment; a non-forced request respects maxConcurrent.
 */
class ForceDefaultTest {

    /** Checkpoint 1 pending (maxConcurrent 1), so only a forced request runs at once. */
    private static Scenario blocked(boolean unaligned) {
        return Scenario.runningJob(spec(config().setTimeoutMs(10_000).setUnalignedEnabled(unaligned)), 1000)
                .and(tick(), 1000);
    }

    /** Flink's CheckpointRequestDeciderTest#testForce: a forced savepoint runs with maxConcurrent reached. */
    @Test
    void shouldForceASavepointByDefaultWhenUnalignedCheckpointsAreDisabled() {
        Then then = blocked(false).when(savepointRequest("sp", null), 1100);

        assertThat(then.single(RequestQueued.class).getForce()).isTrue();
        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getCheckpointId()).isEqualTo(2);
        assertThat(triggered.getForce()).isTrue();
        assertThat(then.job(JOB).getPending()).hasSize(2);
    }

    /** Flink's CheckpointCoordinatorTest#testSavepointScheduledInUnalignedMode: not forced, so it waits. */
    @Test
    void shouldNotForceASavepointByDefaultWhenUnalignedCheckpointsAreEnabled() {
        Then then = blocked(true).when(savepointRequest("sp", null), 1100);

        then.thenTypes(TriggerRequest.class, RequestQueued.class);
        assertThat(then.single(RequestQueued.class).getForce()).isFalse();
        assertThat(then.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId).containsExactly("sp");
        assertThat(then.job(JOB).getPending()).hasSize(1);
    }

    /**
     * Flink's CheckpointCoordinatorTest#testSavepointScheduledInUnalignedMode: when the pending checkpoint is
     * declined, the waiting savepoint runs first, before older queued checkpoints, and still not forced.
     */
    @Test
    void shouldRunTheWaitingSavepointBeforeQueuedCheckpointsOnceAPendingOneEnds() {
        Scenario scenario = blocked(true)
                .and(checkpointRequest("a"), 1100)
                .and(checkpointRequest("b"), 1200)
                .and(savepointRequest("sp", null), 1300);
        assertThat(scenario.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId)
                .containsExactly("sp", "a", "b");

        Then then = scenario.when(decline(1, SOURCE, 0), 1400);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getRequestId()).isEqualTo("sp");
        assertThat(triggered.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(triggered.getForce()).isFalse();
        assertThat(then.job(JOB).getPending()).extracting(PendingCheckpoint::getRequestId).containsExactly("sp");
        assertThat(then.job(JOB).getQueue()).extracting(QueuedRequest::getRequestId).containsExactly("a", "b");
    }

    /** Flink's CheckpointRequestDeciderTest#testEnqueueOnTooManyPending: a checkpoint is never forced by default. */
    @ParameterizedTest(name = "unaligned {0}")
    @CsvSource({"false", "true"})
    void shouldNotForceACheckpointByDefault(boolean unaligned) {
        Then then = blocked(unaligned).when(new Command.RequestTrigger(
                request("cp", CheckpointType.CHECKPOINT, null)), 1100);

        then.thenTypes(TriggerRequest.class, RequestQueued.class);
        assertThat(then.single(RequestQueued.class).getForce()).isFalse();
    }

    /** Flink's CheckpointProperties: an explicit force is taken as asked, whatever the type and the alignment. */
    @ParameterizedTest(name = "{0}, unaligned {1}, force {2}: runs at once {3}")
    @CsvSource({
        "SAVEPOINT,  false, false, false",
        "SAVEPOINT,  true,  true,  true",
        "CHECKPOINT, false, true,  true",
        "CHECKPOINT, true,  true,  true",
        "CHECKPOINT, true,  false, false"
    })
    void shouldTakeAnExplicitForceAsAsked(CheckpointType type, boolean unaligned, boolean force, boolean runs) {
        Then then = blocked(unaligned).when(new Command.RequestTrigger(request("r", type, force)), 1100);

        assertThat(then.single(RequestQueued.class).getForce()).isEqualTo(force);
        assertThat(then.has(CheckpointTriggered.class)).isEqualTo(runs);
        assertThat(then.job(JOB).getQueue()).hasSize(runs ? 0 : 1);
    }

    /** Flink's CheckpointRequestDecider: the minimum pause holds back periodic requests only. */
    @Test
    void shouldNotHoldANonForcedSavepointForTheMinimumPause() {
        Scenario scenario = Scenario.runningJob(spec(config().setUnalignedEnabled(true).setMinPauseMs(5_000)), 6000)
                .and(tick(), 6000)
                .ackAll(JOB, 1, 6100);

        Then then = scenario.when(savepointRequest("sp", null), 6200);

        CheckpointTriggered triggered = then.single(CheckpointTriggered.class);
        assertThat(triggered.getForce()).isFalse();
        assertThat(triggered.getCheckpointId()).isEqualTo(2);
    }

    /** Flink's CheckpointRequestDeciderTest#testEnqueueOnTooManyPending: the queued savepoint runs on completion. */
    @Test
    void shouldRunTheWaitingSavepointWhenThePendingCheckpointCompletes() {
        Scenario scenario = blocked(true).and(savepointRequest("sp", null), 1100);

        Scenario after = scenario.ackAll(JOB, 1, 1200);

        assertThat(after.job(JOB).getQueue()).isEmpty();
        assertThat(after.job(JOB).getPending()).singleElement().satisfies(p -> {
            assertThat(p.getRequestId()).isEqualTo("sp");
            assertThat(p.getType()).isEqualTo(CheckpointType.SAVEPOINT);
            assertThat(p.getForce()).isFalse();
        });
    }
}
