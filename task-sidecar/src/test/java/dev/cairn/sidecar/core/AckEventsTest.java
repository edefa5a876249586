package dev.cairn.sidecar.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class AckEventsTest {

    private static final TaskAttempt ATTEMPT = new TaskAttempt("job", "map", 2, "a-1");

    @Test
    void shouldAnnounceTheSubtasksAttemptWhenRegistering() {
        TaskStarted started = AckEvents.started(new TaskAttempt("job", "map", 2, "a-1"), 42);

        assertThat(started.getJobId()).isEqualTo("job");
        assertThat(started.getTaskId()).isEqualTo("map");
        assertThat(started.getSubtaskIndex()).isEqualTo(2);
        assertThat(started.getAttemptId()).isEqualTo("a-1");
        assertThat(started.getTimestampMs()).isEqualTo(42);
        assertThat(started.getHost()).as("an attempt that names no host").isNull();
    }

    @Test
    void shouldNameTheAttemptsHostWhenRegistering() {
        TaskStarted started = AckEvents.started(new TaskAttempt("job", "map", 2, "a-1", "worker-3"), 42);

        assertThat(started.getHost()).isEqualTo("worker-3");
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

    @Test
    void shouldPutTheDeclaredKeyGroupsIntoTheAcksStateHandleWhenTheSnapshotIsKeyed() {
        SnapshotResult keyed = SnapshotResult.of("file:///s/chk-3/map-2", 80).withKeyGroups(new KeyGroupRange(64, 95));

        CheckpointAcknowledged ack = AckEvents.ack(ATTEMPT, 3, keyed, 1, 2, 10);

        StateHandle handle = ack.getStateHandle();
        assertThat(handle.getKeyGroups()).isEqualTo(new dev.cairn.events.KeyGroupRange(64, 95));
        assertThat(handle.getOperatorStateMode()).isNull();
    }

    @Test
    void shouldPutTheDeclaredModeIntoTheAcksStateHandleWhenTheStateIsNotKeyed() {
        SnapshotResult split = SnapshotResult.of("file:///s/chk-3/map-2", 80)
                .withOperatorStateMode(OperatorStateMode.SPLIT_DISTRIBUTE);
        SnapshotResult union = SnapshotResult.of("file:///s/chk-3/map-2", 80)
                .withOperatorStateMode(OperatorStateMode.UNION);

        assertThat(AckEvents.ack(ATTEMPT, 3, split, 1, 2, 10).getStateHandle().getOperatorStateMode())
                .isEqualTo(dev.cairn.events.OperatorStateMode.SPLIT_DISTRIBUTE);
        assertThat(AckEvents.ack(ATTEMPT, 3, union, 1, 2, 10).getStateHandle().getOperatorStateMode())
                .isEqualTo(dev.cairn.events.OperatorStateMode.UNION);
        assertThat(AckEvents.ack(ATTEMPT, 3, union, 1, 2, 10).getStateHandle().getKeyGroups()).isNull();
    }

    @Test
    void shouldDeclareNeitherWhenTheSnapshotDeclaresNeither() {
        StateHandle handle = AckEvents.ack(ATTEMPT, 3, SnapshotResult.of("file:///s/x", 1), 1, 2, 10)
                .getStateHandle();

        assertThat(handle.getKeyGroups()).isNull();
        assertThat(handle.getOperatorStateMode()).isNull();
    }

    @Test
    void shouldKeepTheDeclaredKeyGroupsOfTheFinalStateWhenTheTaskFinishes() {
        SnapshotResult last = SnapshotResult.finishedWith("file:///s/final", 5).withKeyGroups(new KeyGroupRange(0, 9))
                .withOperatorStateMode(OperatorStateMode.UNION);

        TaskFinished finished = AckEvents.finished(ATTEMPT, AckEvents.stateOf(last), 10);

        assertThat(finished.getFinalState().getKeyGroups()).isEqualTo(new dev.cairn.events.KeyGroupRange(0, 9));
        assertThat(finished.getFinalState().getOperatorStateMode())
                .isEqualTo(dev.cairn.events.OperatorStateMode.UNION);
        assertThat(AckEvents.finished(ATTEMPT, Optional.empty(), 10).getFinalState()).isNull();
    }
}
