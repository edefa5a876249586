package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.ack;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.core.events.Command;
import dev.cairn.core.events.EventDescriptions;
import dev.cairn.core.events.SidecarNotifications;
import dev.cairn.core.testing.Events;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import org.junit.jupiter.api.Test;

/**
 * The attempts of a subtask are ordered by (start time, attempt id) as their {@code TaskStarted} records carry them:
 * a replayed or reordered announcement of an older attempt replaces nothing and is rejected with a reason.
 */
class TaskAttemptOrderTest {

    /**
     * Attempt 1 of every subtask started at 0 ms; source 0 restarted as attempt 2 at 2,000 ms; checkpoint 1 pending.
     */
    private static Scenario restartedThenPending() {
        return Scenario.runningJob(spec(config()), 1000)
                .and(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 2), 2_000)), 900)
                .and(tick(), 1000);
    }

    private static TaskStarted started(String taskId, int subtask, String attemptId, long startedAtMs) {
        return Events.taskStarted(JOB, taskId, subtask, attemptId).setTimestampMs(startedAtMs).build();
    }

    @Test
    void shouldRejectAReplayedTaskStartedOfAnOlderAttemptWithAReason() {
        Scenario scenario = restartedThenPending();

        Then then = scenario.when(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 1), 0)), 1100);

        TaskStartRejected rejected = then.single(TaskStartRejected.class);
        then.thenTypes(TaskStartRejected.class);
        assertThat(rejected.getAttemptId()).isEqualTo(attempt(SOURCE, 0, 1));
        assertThat(rejected.getStartedAtMs()).isZero();
        assertThat(rejected.getCurrentAttemptId()).isEqualTo(attempt(SOURCE, 0, 2));
        assertThat(rejected.getCurrentStartedAtMs()).isEqualTo(2_000);
        assertThat(rejected.getReason()).contains("started at 0, not after the current attempt source-0-a2 (started"
                + " at 2000)").contains("the current attempt stays");
        assertThat(rejected.getTimestampMs()).isEqualTo(1100);
        assertThat(then.state().currentAttempt(JOB, SOURCE, 0))
                .contains(new CurrentAttempt(attempt(SOURCE, 0, 2), 2_000L, null));
        assertThat(then.job(JOB).getPending()).singleElement()
                .satisfies(p -> assertThat(p.getCheckpointId()).isEqualTo(1));
    }

    @Test
    void shouldCompleteTheCheckpointWithTheLiveAttemptsAckAfterAStaleTaskStartedWasRejected() {
        Scenario scenario = restartedThenPending()
                .and(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 1), 0)), 1100)
                .and(acknowledge(1, SOURCE, 1), 1150)
                .and(acknowledge(1, SINK, 0), 1150);

        Then then = scenario.when(new Command.Acknowledge(ack(JOB, 1, SOURCE, 0, attempt(SOURCE, 0, 2), 10)), 1200);

        assertThat(then.single(CheckpointCompleted.class).getCheckpointId()).isEqualTo(1);
        assertThat(then.has(AckDiscarded.class)).isFalse();
        assertThat(then.job(JOB).getPending()).isEmpty();
    }

    @Test
    void shouldStillDiscardTheStaleAttemptsAckAfterItsTaskStartedWasRejected() {
        Scenario scenario = restartedThenPending()
                .and(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 1), 0)), 1100);

        Then then = scenario.when(acknowledge(1, SOURCE, 0), 1200);

        assertThat(then.single(AckDiscarded.class).getStatus()).isEqualTo(AckDiscardStatus.UNKNOWN);
        assertThat(then.state().ack(JOB, 1, SOURCE, 0)).isEmpty();
    }

    @Test
    void shouldAbortWhatTheOldAttemptHadNotAcknowledgedWhenANewerAttemptStarts() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000).and(tick(), 1000);

        Then then = scenario.when(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 2), 1_050)), 1100);

        then.thenTypes(TaskStarted.class, CheckpointAborted.class);
        assertThat(then.single(CheckpointAborted.class).getReason()).isEqualTo(CheckpointFailureReason.TASK_FAILURE);
        assertThat(then.state().currentAttempt(JOB, SOURCE, 0))
                .contains(new CurrentAttempt(attempt(SOURCE, 0, 2), 1_050L, null));
    }

    @Test
    void shouldRefuseAnExactDuplicateOfTheCurrentAttemptsTaskStartedInTheJournalOnly() {
        Scenario scenario = restartedThenPending();

        Then then = scenario.when(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 2), 2_000)), 1100);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).isEqualTo("attempt " + attempt(SOURCE, 0, 2)
                + " of task source subtask 0 is the running one already: a repeated announcement changes nothing");
        assertThat(then.job(JOB).getPending()).hasSize(1);
    }

    @Test
    void shouldBreakATieOfStartTimesByAttemptIdInEitherArrivalOrder() {
        Scenario lowerFirst = Scenario.runningJob(spec(config()), 1000)
                .and(new Command.StartTask(started(SOURCE, 0, "attempt-a", 5_000)), 900);
        Scenario higherFirst = Scenario.runningJob(spec(config()), 1000)
                .and(new Command.StartTask(started(SOURCE, 0, "attempt-b", 5_000)), 900);

        Then replaced = lowerFirst.when(new Command.StartTask(started(SOURCE, 0, "attempt-b", 5_000)), 950);
        Then rejected = higherFirst.when(new Command.StartTask(started(SOURCE, 0, "attempt-a", 5_000)), 950);

        replaced.thenTypes(TaskStarted.class);
        assertThat(rejected.single(TaskStartRejected.class).getReason())
                .contains("as did the current attempt attempt-b").contains("whose attempt id orders after it");
        assertThat(replaced.state().attempt(JOB, SOURCE, 0)).contains("attempt-b");
        assertThat(rejected.state().attempt(JOB, SOURCE, 0)).contains("attempt-b");
    }

    @Test
    void shouldLetARejectedAttemptTakeOverWhenItAnnouncesItselfAgainAfterTheCurrentStart() {
        Scenario scenario = restartedThenPending()
                .and(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 3), 1_500)), 1100);

        Then then = scenario.when(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 3), 2_001)), 1150);

        then.thenTypes(TaskStarted.class, CheckpointAborted.class);
        assertThat(then.single(CheckpointAborted.class).getMessage())
                .contains("attempt source-0-a3 replaces source-0-a2");
        assertThat(then.state().currentAttempt(JOB, SOURCE, 0))
                .contains(new CurrentAttempt(attempt(SOURCE, 0, 3), 2_001L, null));
    }

    @Test
    void shouldTellTheSidecarsOfARejectedStart() {
        Then then = restartedThenPending()
                .when(new Command.StartTask(started(SOURCE, 0, attempt(SOURCE, 0, 1), 0)), 1100);

        assertThat(SidecarNotifications.isForSidecars(then.single(TaskStartRejected.class))).isTrue();
        assertThat(EventDescriptions.describe(then.single(TaskStartRejected.class)))
                .hasValueSatisfying(line -> assertThat(line).startsWith("Rejected the start of attempt source-0-a1"));
    }
}
