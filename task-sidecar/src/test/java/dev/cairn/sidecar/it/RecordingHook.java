package dev.cairn.sidecar.it;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongPredicate;

/**
 * A Java hook for integration tests: answers snapshots as told (ack at once, decline, answer late, or
 * never) and records every call in order, as strings such as {@code "snapshot 3"}, {@code "snapshot done 3"},
 * {@code "snapshot failed 3"}, {@code "snapshot cancelled 3"}, {@code "complete 3 2"}, {@code "aborted 4 3"},
 * {@code "discard 3 file:///..."}, {@code "restore 2 file:///..."} or {@code "restore none"}.
 *
 * <p>Cancelling the stage a snapshot returned cancels the worker's snapshot. An acked snapshot's state is
 * {@code <storage location>/<task>-<subtask>} ({@code <storage location>/<participant>} for a participant),
 * 1,000 bytes.
 */
public final class RecordingHook implements SnapshotHook {

    /** A notification the worker received. */
    public record Notification(long checkpointId, long otherId) {}

    private final Function<SnapshotRequest, CompletionStage<SnapshotResult>> behaviour;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final List<SnapshotRequest> snapshots = new CopyOnWriteArrayList<>();
    private final List<Notification> completions = new CopyOnWriteArrayList<>();
    private final List<Notification> aborts = new CopyOnWriteArrayList<>();
    private final List<Optional<RestorePoint>> restores = new CopyOnWriteArrayList<>();
    private final List<AttemptNumber> attempts = new CopyOnWriteArrayList<>();
    private final List<CheckpointCompletion> completionNotices = new CopyOnWriteArrayList<>();
    private final List<CheckpointAbort> abortNotices = new CopyOnWriteArrayList<>();
    private final List<DiscardedState> discards = new CopyOnWriteArrayList<>();

    private RecordingHook(Function<SnapshotRequest, CompletionStage<SnapshotResult>> behaviour) {
        this.behaviour = behaviour;
    }

    /** Acks every snapshot at once. */
    public static RecordingHook acking() {
        return new RecordingHook(request -> CompletableFuture.completedFuture(stateOf(request)));
    }

    /** Answers every snapshot as {@code behaviour} says (still recording every call). */
    public static RecordingHook answering(Function<SnapshotRequest, CompletionStage<SnapshotResult>> behaviour) {
        return new RecordingHook(behaviour);
    }

    /** Declines the checkpoints {@code which} matches (CHECKPOINT_DECLINED with {@code message}); acks the rest. */
    public static RecordingHook declining(LongPredicate which, String message) {
        return new RecordingHook(request -> which.test(request.checkpointId())
                ? CompletableFuture.failedFuture(new SnapshotDeclinedException(
                        CheckpointFailureReason.CHECKPOINT_DECLINED, message))
                : CompletableFuture.completedFuture(stateOf(request)));
    }

    /** Declines every savepoint (CHECKPOINT_DECLINED with {@code message}); acks every checkpoint. */
    public static RecordingHook decliningSavepoints(String message) {
        return new RecordingHook(request -> request.type() == dev.cairn.events.CheckpointType.SAVEPOINT
                ? CompletableFuture.failedFuture(new SnapshotDeclinedException(
                        CheckpointFailureReason.CHECKPOINT_DECLINED, message))
                : CompletableFuture.completedFuture(stateOf(request)));
    }

    /** Acks the checkpoints {@code which} matches only after {@code delay}; the rest at once. */
    public static RecordingHook slow(LongPredicate which, Duration delay) {
        return new RecordingHook(request -> which.test(request.checkpointId())
                ? CompletableFuture.supplyAsync(() -> stateOf(request),
                        CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS))
                : CompletableFuture.completedFuture(stateOf(request)));
    }

    /** Never finishes the snapshots {@code which} matches (as a stuck worker would); acks the rest. */
    public static RecordingHook stuck(LongPredicate which) {
        return new RecordingHook(request -> which.test(request.checkpointId()) ? new CompletableFuture<>()
                : CompletableFuture.completedFuture(stateOf(request)));
    }

    /** The state an acked snapshot of {@code request} reports. */
    public static SnapshotResult stateOf(SnapshotRequest request) {
        return SnapshotResult.of(request.storageLocation() + "/" + (request.isParticipant() ? request.participant()
                : request.taskId() + "-" + request.subtaskIndex()), 1_000);
    }

    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        snapshots.add(request);
        calls.add("snapshot " + request.checkpointId());
        CompletableFuture<SnapshotResult> work = behaviour.apply(request).toCompletableFuture();
        CompletableFuture<SnapshotResult> answer = work.whenComplete((result, error) ->
                calls.add((error == null ? "snapshot done " : "snapshot failed ") + request.checkpointId()));
        answer.whenComplete((result, error) -> {
            if (answer.isCancelled()) {
                calls.add("snapshot cancelled " + request.checkpointId());
                work.cancel(true);
            }
        });
        return answer;
    }

    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) {
        completions.add(new Notification(checkpointId, lastSubsumedId));
        calls.add("complete " + checkpointId + " " + lastSubsumedId);
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) {
        aborts.add(new Notification(checkpointId, latestCompletedId));
        calls.add("aborted " + checkpointId + " " + latestCompletedId);
    }

    @Override
    public void notifyComplete(CheckpointCompletion completion) {
        completionNotices.add(completion);
        notifyComplete(completion.checkpointId(), completion.lastSubsumedId());
    }

    @Override
    public void notifyAborted(CheckpointAbort abort) {
        abortNotices.add(abort);
        notifyAborted(abort.checkpointId(), abort.latestCompletedId());
    }

    @Override
    public void discardState(DiscardedState state) {
        discards.add(state);
        calls.add("discard " + state.checkpointId() + " " + state.location());
    }

    @Override
    public void restore(Optional<RestorePoint> from, AttemptNumber attempt) {
        attempts.add(attempt);
        restore(from);
    }

    @Override
    public void restore(Optional<RestorePoint> from) {
        restores.add(from);
        calls.add(from.map(p -> "restore " + p.checkpointId() + " " + p.location()).orElse("restore none"));
    }

    /** Every call so far, in order. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    /** The snapshot requests so far, in order. */
    public List<SnapshotRequest> snapshots() {
        return List.copyOf(snapshots);
    }

    /** The complete notifications so far: (checkpoint id, last subsumed id). */
    public List<Notification> completions() {
        return List.copyOf(completions);
    }

    /** The abort notifications so far: (checkpoint id, latest completed id). */
    public List<Notification> aborts() {
        return List.copyOf(aborts);
    }

    /** The complete notifications so far, with their stop flags. */
    public List<CheckpointCompletion> completionNotices() {
        return List.copyOf(completionNotices);
    }

    /** The abort notifications so far, with their stop flag. */
    public List<CheckpointAbort> abortNotices() {
        return List.copyOf(abortNotices);
    }

    /** The discarded states handed over so far. */
    public List<DiscardedState> discards() {
        return List.copyOf(discards);
    }

    /** The attempt numbers a task sidecar handed the worker with its restore point, once per start. */
    public List<AttemptNumber> attempts() {
        return List.copyOf(attempts);
    }

    /** What the worker was told to restore from, once per start. */
    public List<Optional<RestorePoint>> restores() {
        return List.copyOf(restores);
    }
}
