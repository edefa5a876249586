package dev.cairn.sidecar.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class AckEventsTest {

    @Test
    void shouldAnnounceTheSubtasksAttemptWhenRegistering() {
        TaskStarted started = AckEvents.started(new TaskAttempt("job", "map", 2, "a-1"), 42);

        assertThat(started.getJobId()).isEqualTo("job");
        assertThat(started.getTaskId()).isEqualTo("map");
        assertThat(started.getSubtaskIndex()).isEqualTo(2);
        assertThat(started.getAttemptId()).isEqualTo("a-1");
        assertThat(started.getTimestampMs()).isEqualTo(42);
    }

    @Test
    void shouldKeepTheWorkersReasonWhenTheDeclineIsWrappedInCompletionLayers() {
        Throwable wrapped = new CompletionException(new ExecutionException(new SnapshotDeclinedException(
                CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING, "closing")));

        AckEvents.Failure failure = AckEvents.failureOf(wrapped);

        assertThat(failure).isEqualTo(new AckEvents.Failure(CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING,
                "closing"));
    }

    @Test
    void shouldDeclinePlainlyWhenTheDeclineHasNoReason() {
        AckEvents.Failure failure = AckEvents.failureOf(new SnapshotDeclinedException(null, "no"));

        assertThat(failure.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
    }

    @Test
    void shouldSaySoWhenTheSnapshotWasCancelled() {
        assertThat(AckEvents.failureOf(new CancellationException()).message()).contains("cancelled");
    }

    @Test
    void shouldDeclineAParticipantWithCheckpointDeclinedWhenTheWorkerGaveNoReason() {
        AckEvents.Failure thrown =
                AckEvents.participantFailureOf(new CompletionException(new IllegalStateException("x")));
        AckEvents.Failure reasonless = AckEvents.participantFailureOf(new SnapshotDeclinedException(null, "no"));
        AckEvents.Failure withReason = AckEvents.participantFailureOf(new SnapshotDeclinedException(
                CheckpointFailureReason.IO_EXCEPTION, "disk"));

        assertThat(thrown).isEqualTo(new AckEvents.Failure(CheckpointFailureReason.CHECKPOINT_DECLINED,
                "the snapshot hook failed: java.lang.IllegalStateException: x"));
        assertThat(reasonless.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(withReason).isEqualTo(new AckEvents.Failure(CheckpointFailureReason.IO_EXCEPTION, "disk"));
    }

    @Test
    void shouldNameTheExceptionWhenAnotherFailureHasNoMessage() {
        AckEvents.Failure failure = AckEvents.failureOf(new NullPointerException());

        assertThat(failure.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION);
        assertThat(failure.message()).contains("java.lang.NullPointerException");
    }
}
