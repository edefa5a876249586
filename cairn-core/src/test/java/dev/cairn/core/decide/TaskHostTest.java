package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.core.events.Command;
import dev.cairn.core.events.EventDescriptions;
import dev.cairn.core.testing.Events;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import org.junit.jupiter.api.Test;

/**
 * The host a {@code TaskStarted} names (its sidecar's {@code host} setting) is kept with the subtask's current
 * attempt, for the views of pending subtasks: replaced with the attempt, kept when an announcement is rejected, none
 * for a sidecar that names none, and a malformed one rejects the announcement with a reason.
 */
class TaskHostTest {

    private static final String HOST = "worker-3.pool-a.cluster.local";

    private static TaskStarted started(String attemptId, long startedAtMs, String host) {
        return Events.taskStarted(JOB, SOURCE, 0, attemptId).setTimestampMs(startedAtMs).setHost(host).build();
    }

    @Test
    void shouldKeepTheHostANewAttemptNamesWithTheSubtasksCurrentAttempt() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000);

        Then then = scenario.when(new Command.StartTask(started(attempt(SOURCE, 0, 2), 1_050, HOST)), 1100);

        assertThat(then.single(TaskStarted.class).getHost()).as("the journal keeps the host").isEqualTo(HOST);
        assertThat(then.state().currentAttempt(JOB, SOURCE, 0))
                .contains(new CurrentAttempt(attempt(SOURCE, 0, 2), 1_050L, HOST));
        assertThat(EventDescriptions.describe(then.single(TaskStarted.class))).hasValueSatisfying(
                text -> assertThat(text).endsWith(" on " + HOST));
    }

    @Test
    void shouldForgetTheOldHostWhenAnAttemptOfASidecarThatNamesNoneReplacesIt() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000)
                .and(new Command.StartTask(started(attempt(SOURCE, 0, 2), 1_050, HOST)), 1100);

        Then then = scenario.when(new Command.StartTask(started(attempt(SOURCE, 0, 3), 1_200, null)), 1300);

        then.thenTypes(TaskStarted.class);
        assertThat(then.state().currentAttempt(JOB, SOURCE, 0))
                .contains(new CurrentAttempt(attempt(SOURCE, 0, 3), 1_200L, null));
    }

    @Test
    void shouldKeepTheCurrentAttemptsHostWhenAnOlderAttemptOnAnotherHostIsRejected() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000)
                .and(new Command.StartTask(started(attempt(SOURCE, 0, 2), 1_050, HOST)), 1100);

        Then then = scenario.when(new Command.StartTask(started(attempt(SOURCE, 0, 9), 10, "stale-host")), 1200);

        then.thenTypes(TaskStartRejected.class);
        assertThat(then.state().currentAttempt(JOB, SOURCE, 0).map(CurrentAttempt::getHost)).contains(HOST);
    }

    @Test
    void shouldRejectATaskStartedWhoseHostIsBlankOrHoldsAControlCharacterOrIsTooLongAndKeepTheAttempt() {
        Scenario scenario = Scenario.runningJob(spec(config()), 1000);

        for (String[] bad : new String[][] {{" ", "host is empty"}, {"a\u0000b", "host contains a control character"},
                {"h".repeat(257), "host is 257 characters long, more than the limit of 256"}}) {
            Then then = scenario.when(new Command.StartTask(started(attempt(SOURCE, 0, 2), 1_050, bad[0])), 1100);

            then.thenTypes(CommandRejected.class);
            assertThat(then.single(CommandRejected.class).getReason()).as(bad[1]).startsWith(bad[1]);
            assertThat(then.state().attempt(JOB, SOURCE, 0)).contains(attempt(SOURCE, 0, 1));
        }
    }
}
