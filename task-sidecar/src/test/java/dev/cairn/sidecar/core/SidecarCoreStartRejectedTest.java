package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.JOB;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.TASK;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.core.SidecarAction.PublishStarted;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sidecar whose own attempt the coordinator did not take (its start was not after the current attempt's, as on a
 * host whose clock is behind) announces itself again with a start after the current attempt's, once per notice.
 */
class SidecarCoreStartRejectedTest {

    private final SidecarCore core = new SidecarCore(ME, Duration.ofSeconds(5));

    private static TaskStartRejected rejected(TaskAttempt attempt, long startedAtMs, long currentStartedAtMs) {
        return TaskStartRejected.newBuilder()
                .setJobId(attempt.jobId())
                .setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex())
                .setAttemptId(attempt.attemptId())
                .setStartedAtMs(startedAtMs)
                .setCurrentAttemptId("attempt-before")
                .setCurrentStartedAtMs(currentStartedAtMs)
                .setReason("not after the current attempt")
                .setTimestampMs(currentStartedAtMs)
                .build();
    }

    @Test
    void shouldAnnounceItsAttemptAgainAfterTheCurrentStartWhenItsClockIsBehind() {
        // given this attempt announced at 1,000 while the current one started at 5,000 on another host
        core.announced(1_000);

        // when
        List<SidecarAction> actions = core.onControl(rejected(ME, 1_000, 5_000), 1_200);

        // then
        assertThat(actions).singleElement().isInstanceOfSatisfying(PublishStarted.class, p -> {
            TaskStarted again = p.started();
            assertThat(again.getAttemptId()).isEqualTo(ME.attemptId());
            assertThat(again.getTaskId()).isEqualTo(TASK);
            assertThat(again.getSubtaskIndex()).isEqualTo(ME.subtaskIndex());
            assertThat(again.getTimestampMs()).isEqualTo(5_001);
        });
    }

    @Test
    void shouldAnnounceAgainAtItsOwnTimeWhenThatIsLaterThanTheCurrentStart() {
        core.announced(4_000);

        List<SidecarAction> actions = core.onStartRejected(rejected(ME, 4_000, 4_000), 4_500);

        assertThat(actions).singleElement().isInstanceOfSatisfying(PublishStarted.class,
                p -> assertThat(p.started().getTimestampMs()).isEqualTo(4_500));
    }

    @Test
    void shouldAnswerEachRejectionOnceWhenTheNoticeArrivesAgain() {
        core.announced(1_000);
        core.onStartRejected(rejected(ME, 1_000, 5_000), 1_200);

        List<SidecarAction> again = core.onStartRejected(rejected(ME, 1_000, 5_000), 1_300);

        assertThat(again).isEmpty();
    }

    @Test
    void shouldIgnoreARejectionOfAnotherAttemptSubtaskTaskOrJob() {
        core.announced(1_000);
        List<TaskAttempt> others = List.of(new TaskAttempt(JOB, TASK, 1, "attempt-old"),
                new TaskAttempt(JOB, TASK, 0, ME.attemptId()), new TaskAttempt(JOB, "map", 1, ME.attemptId()),
                new TaskAttempt("payments", TASK, 1, ME.attemptId()));

        for (TaskAttempt other : others) {
            assertThat(core.onStartRejected(rejected(other, 0, 5_000), 1_200)).as(other.toString()).isEmpty();
        }
    }

    @Test
    void shouldIgnoreARejectionInAParticipantsSidecar() {
        SidecarCore participant = new SidecarCore(COORDINATOR_SIDE, Duration.ofSeconds(5));

        assertThat(participant.onControl(rejected(ME, 0, 5_000), 1_200)).isEmpty();
    }
}
