package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.KeyGroupRange;
import dev.cairn.events.OperatorStateMode;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Builds what a sidecar produces to {@code cairn.acks} ({@link TaskStarted}, {@link CheckpointAcknowledged},
 * {@link CheckpointDeclined}, {@link TaskFinished} for a task; {@link ParticipantAcknowledged},
 * {@link ParticipantDeclined} for a participant) and maps a failed snapshot to a decline reason. Pure functions.
 */
public final class AckEvents {

    private AckEvents() {
    }

    /** Why a snapshot failed, as a decline says it. */
    public record Failure(CheckpointFailureReason reason, String message) {}

    /** The announcement of a new attempt, naming its host if it has one. */
    public static TaskStarted started(TaskAttempt attempt, long nowMs) {
        return TaskStarted.newBuilder()
                .setJobId(attempt.jobId())
                .setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex())
                .setAttemptId(attempt.attemptId())
                .setTimestampMs(nowMs)
                .setHost(attempt.host())
                .build();
    }

    /**
     * The acknowledgement of a finished snapshot. When the worker measured neither a synchronous nor an
     * asynchronous duration, the whole time from hook start to result ({@code elapsedMs}) is reported as
     * asynchronous.
     */
    public static CheckpointAcknowledged ack(TaskAttempt attempt, long checkpointId, SnapshotResult result,
            long startDelayMs, long elapsedMs, long nowMs) {
        boolean measured = result.syncDurationMs() > 0 || result.asyncDurationMs() > 0;
        return CheckpointAcknowledged.newBuilder()
                .setJobId(attempt.jobId())
                .setCheckpointId(checkpointId)
                .setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex())
                .setAttemptId(attempt.attemptId())
                .setStateHandle(handle(result))
                .setMetrics(SubtaskMetrics.newBuilder()
                        .setSyncDurationMs(Math.max(0, result.syncDurationMs()))
                        .setAsyncDurationMs(measured ? Math.max(0, result.asyncDurationMs()) : Math.max(0, elapsedMs))
                        .setAlignmentDurationMs(Math.max(0, result.alignmentDurationMs()))
                        .setStartDelayMs(Math.max(0, startDelayMs))
                        .setBytesPersisted(Math.max(0, result.bytesPersisted()))
                        .build())
                .setTimestampMs(nowMs)
                .build();
    }

    /** A decline of one checkpoint by this attempt. */
    public static CheckpointDeclined decline(TaskAttempt attempt, long checkpointId, Failure failure, long nowMs) {
        return CheckpointDeclined.newBuilder()
                .setJobId(attempt.jobId())
                .setCheckpointId(checkpointId)
                .setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex())
                .setAttemptId(attempt.attemptId())
                .setReason(failure.reason())
                .setMessage(failure.message())
                .setTimestampMs(nowMs)
                .build();
    }

    /** The longest message a report carries, well within the coordinator's default bound on messages. */
    static final int MAX_REPORT_CHARS = 4_096;

    /** The report that the attempt's worker could not read the state of checkpoint {@code checkpointId}. */
    public static RestoreFailed restoreFailed(TaskAttempt attempt, long checkpointId, String message, long nowMs) {
        return RestoreFailed.newBuilder()
                .setJobId(attempt.jobId())
                .setCheckpointId(checkpointId)
                .setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex())
                .setAttemptId(attempt.attemptId())
                .setMessage(message.length() <= MAX_REPORT_CHARS ? message
                        : message.substring(0, MAX_REPORT_CHARS) + "...")
                .setTimestampMs(nowMs)
                .build();
    }

    /**
     * The announcement that the attempt finished for good, with its final state if any (and the shared objects the
     * final state names).
     */
    public static TaskFinished finished(TaskAttempt attempt, Optional<StateHandle> finalState, long nowMs) {
        return TaskFinished.newBuilder()
                .setJobId(attempt.jobId())
                .setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex())
                .setAttemptId(attempt.attemptId())
                .setFinalState(finalState.map(AckEvents::copy).orElse(null))
                .setTimestampMs(nowMs)
                .build();
    }

    /** The state a result names, if any, with the shared objects it is made of. */
    public static Optional<StateHandle> stateOf(SnapshotResult result) {
        return result.hasState() ? Optional.of(handle(result)) : Optional.empty();
    }

    /** A participant's snapshot: its state, or none. */
    public static ParticipantAcknowledged participantAck(Participant participant, long checkpointId,
            SnapshotResult result, long nowMs) {
        return ParticipantAcknowledged.newBuilder()
                .setJobId(participant.jobId())
                .setCheckpointId(checkpointId)
                .setParticipant(participant.name())
                .setState(stateOf(result).orElse(null))
                .setTimestampMs(nowMs)
                .build();
    }

    /** A participant's decline of one checkpoint. */
    public static ParticipantDeclined participantDecline(Participant participant, long checkpointId, Failure failure,
            long nowMs) {
        return ParticipantDeclined.newBuilder()
                .setJobId(participant.jobId())
                .setCheckpointId(checkpointId)
                .setParticipant(participant.name())
                .setReason(failure.reason())
                .setMessage(failure.message())
                .setTimestampMs(nowMs)
                .build();
    }

    /**
     * A participant's failed snapshot: the worker's reason for a {@link SnapshotDeclinedException} that names
     * one, CHECKPOINT_DECLINED for any other failure, with the same message as {@link #failureOf}. The coordinator
     * aborts on a participant's CHECKPOINT_DECLINED as on a trigger failure, which does not count towards the
     * job's tolerable failures (Flink: CheckpointCoordinator#onTriggerFailure).
     */
    public static Failure participantFailureOf(Throwable error) {
        Failure failure = failureOf(error);
        return unwrap(error) instanceof SnapshotDeclinedException declined && declined.reason() != null ? failure
                : new Failure(CheckpointFailureReason.CHECKPOINT_DECLINED, failure.message());
    }

    /**
     * The reason and message of a failed snapshot: a {@link SnapshotDeclinedException} keeps the worker's
     * reason (CHECKPOINT_DECLINED when it gave none); any other failure, thrown or completing the snapshot's
     * stage, is a CHECKPOINT_ASYNC_EXCEPTION naming the exception.
     */
    public static Failure failureOf(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof SnapshotDeclinedException declined) {
            CheckpointFailureReason reason = declined.reason() != null ? declined.reason()
                    : CheckpointFailureReason.CHECKPOINT_DECLINED;
            return new Failure(reason, messageOf(declined));
        }
        if (cause instanceof CancellationException) {
            return new Failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION, "the snapshot was cancelled");
        }
        return new Failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION,
                "the snapshot hook failed: " + cause.getClass().getName()
                        + (cause.getMessage() != null ? ": " + cause.getMessage() : ""));
    }

    /**
     * The state handle of a result: its location, size and shared objects, and the key groups or the operator state
     * mode it declares (what a restore with another parallelism redistributes it by; {@code null} when undeclared).
     */
    private static StateHandle handle(SnapshotResult result) {
        List<SharedState> shared = new ArrayList<>(result.shared().size());
        for (SharedObject object : result.shared()) {
            shared.add(SharedState.newBuilder().setLocation(object.location()).setSizeBytes(object.sizeBytes())
                    .setReused(object.reused()).build());
        }
        return StateHandle.newBuilder().setLocation(result.location()).setSizeBytes(result.sizeBytes())
                .setShared(shared).setKeyGroups(keyGroups(result.keyGroups()))
                .setOperatorStateMode(mode(result.operatorStateMode())).build();
    }

    /** A key-group range of the hook SPI as the events have it; {@code null} stays {@code null}. */
    static KeyGroupRange keyGroups(dev.cairn.sidecar.hook.KeyGroupRange range) {
        return range == null ? null : new KeyGroupRange(range.startKeyGroup(), range.endKeyGroup());
    }

    /** An operator state mode of the hook SPI as the events have it; {@code null} stays {@code null}. */
    static OperatorStateMode mode(dev.cairn.sidecar.hook.OperatorStateMode mode) {
        return mode == null ? null : OperatorStateMode.valueOf(mode.name());
    }

    private static StateHandle copy(StateHandle handle) {
        KeyGroupRange keyGroups = handle.getKeyGroups();
        return StateHandle.newBuilder().setLocation(handle.getLocation()).setSizeBytes(handle.getSizeBytes())
                .setShared(new ArrayList<>(handle.getShared()))
                .setKeyGroups(keyGroups == null ? null : new KeyGroupRange(keyGroups.getStartKeyGroup(),
                        keyGroups.getEndKeyGroup()))
                .setOperatorStateMode(handle.getOperatorStateMode()).build();
    }

    private static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static String messageOf(Throwable error) {
        return error.getMessage() != null ? error.getMessage() : error.getClass().getName();
    }
}
