package dev.cairn.sample.worker;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.kit.storage.LocationNotFoundException;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample worker: a counter that advances by one every time it is asked for a snapshot (it processes one
 * record per checkpoint), and keeps each snapshot as one object at the checkpoint's storage location,
 * {@code <storageLocation>/<task>-<subtask>} ({@code participant-<name>} when it serves a participant), holding the
 * value as decimal text: {@code <base>/<job>/chk-<id>/<task>-<subtask>} for a checkpoint, under the savepoint's
 * target for a savepoint. It writes, reads and deletes through a {@link SnapshotStorage}, so the job's storage base
 * may be local files ({@code file:}) or S3 ({@code s3://}).
 *
 * <ul>
 *   <li>{@link #restore} reads the value back from the handed location and continues counting from it; a fresh
 *       start counts from 0.</li>
 *   <li>{@link #notifyComplete} deletes its checkpoint states up to the last subsumed id in every job directory
 *       ({@code <base>/<job>}) it wrote to or restored from (never savepoints, nor its final state, nor a checkpoint
 *       a user chose to restore from: that one is not the coordinator's); {@link #notifyAborted} deletes the
 *       aborted checkpoint's state; {@link #discardState} deletes a state of its own the coordinator discarded, if
 *       it lies under one of those job directories.</li>
 *   <li>Bounded input: with {@code finishAfter} N, the snapshot that brings the counter to N writes the final
 *       state and answers {@link SnapshotResult#finishedWith} (the sidecar then publishes {@code TaskFinished});
 *       later snapshots answer the same final state, and so does the first snapshot after restoring a value of
 *       N or more.</li>
 *   <li>To exercise the coordinator it can be slow (the state is written that long after the request, on a
 *       scheduler, so notifications are never held up) and it can decline every checkpoint whose id is a
 *       multiple of N.</li>
 * </ul>
 */
public final class CounterWorker implements SnapshotHook {

    private static final Logger LOG = LoggerFactory.getLogger(CounterWorker.class);
    private final SnapshotStorage storage;
    private final Duration slowness;
    private final int declineEvery;
    private final long finishAfter;
    /** The final state once the input is exhausted. */
    private final AtomicReference<SnapshotResult> finalState = new AtomicReference<>();
    /** The state a user chose to restore from: never deleted as subsumed (Flink: a NO_CLAIM restore). */
    private final AtomicReference<String> chosenRestore = new AtomicReference<>();
    private final ScheduledExecutorService scheduler;
    private final AtomicLong counter = new AtomicLong();
    /** The job directories it keeps checkpoint states in, with its name there. */
    private final Set<Checkpoints> checkpoints = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<SnapshotResult>> pending = ConcurrentHashMap.newKeySet();

    /**
     * @param storage where the states go (the requests' storage locations say where in it); the worker closes it
     * @param slowness how long after a request the snapshot completes (zero: at once)
     * @param declineEvery declines the checkpoints whose id is a multiple of this; 0 never declines
     * @param finishAfter the input's size: the worker finishes when its counter reaches it; 0 never finishes
     */
    public CounterWorker(SnapshotStorage storage, Duration slowness, int declineEvery, long finishAfter) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.slowness = Objects.requireNonNull(slowness, "slowness");
        if (slowness.isNegative()) {
            throw new IllegalArgumentException("slowness must not be negative, was " + slowness);
        }
        if (declineEvery < 0) {
            throw new IllegalArgumentException("declineEvery must be 0 (never) or positive, was " + declineEvery);
        }
        if (finishAfter < 0) {
            throw new IllegalArgumentException("finishAfter must be 0 (never) or positive, was " + finishAfter);
        }
        this.declineEvery = declineEvery;
        this.finishAfter = finishAfter;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cairn-counter-worker");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The counter's current value. */
    public long value() {
        return counter.get();
    }

    /** Whether its input is exhausted (it answered, or will answer, a snapshot with its final state). */
    public boolean isFinished() {
        return finishAfter > 0 && counter.get() >= finishAfter;
    }

    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        SnapshotResult exhausted = finalState.get();
        if (exhausted != null) {
            return CompletableFuture.completedFuture(exhausted);
        }
        String name = request.isParticipant() ? "participant-" + request.participant()
                : request.taskId() + "-" + request.subtaskIndex();
        Optional<String> badId = request.isParticipant() ? invalidSegment("participant", request.participant())
                : invalidSegment("taskId", request.taskId());
        if (badId.isPresent()) {
            return declined(CheckpointFailureReason.CHECKPOINT_DECLINED, badId.get());
        }
        if (declineEvery > 0 && request.checkpointId() % declineEvery == 0) {
            LOG.info("Declining checkpoint {} of {} (declines every checkpoint whose id is a multiple of {})",
                    request.checkpointId(), who(request), declineEvery);
            return declined(CheckpointFailureReason.CHECKPOINT_DECLINED, "the sample worker declines every "
                    + "checkpoint whose id is a multiple of " + declineEvery + ", and this is "
                    + request.checkpointId());
        }
        long syncStart = System.nanoTime();
        String location;
        try {
            location = storage.resolve(request.storageLocation(), name);
            StateLocations.jobDirectory(storage, request.storageLocation())
                    .ifPresent(directory -> checkpoints.add(new Checkpoints(directory, name)));
        } catch (IOException | IllegalArgumentException e) {
            return declined(CheckpointFailureReason.CHECKPOINT_DECLINED, "the sample worker cannot keep its state at "
                    + request.storageLocation() + ": " + e.getMessage());
        }
        long value = isFinished() ? counter.get() : counter.incrementAndGet();
        long syncMs = elapsedMs(syncStart);
        CompletableFuture<SnapshotResult> result = new CompletableFuture<>();
        pending.add(result);
        result.whenComplete((done, error) -> pending.remove(result));
        long asyncStart = System.nanoTime();
        try {
            scheduler.schedule(() -> write(request, value, location, syncMs, asyncStart, result),
                    slowness.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            result.cancel(false);
            return declined(CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING, "the sample worker is closed");
        }
        return result;
    }

    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) throws IOException {
        for (Checkpoints owned : checkpoints) {
            for (String location : storage.list(owned.jobDirectory())) {
                OptionalLong id = StateLocations.checkpointId(location, owned.jobDirectory(), owned.name());
                if (id.isPresent() && id.getAsLong() <= lastSubsumedId && !isKept(location)) {
                    storage.delete(location);
                }
            }
        }
        LOG.info("Checkpoint {} completed (last subsumed {}), counter at {}", checkpointId, lastSubsumedId,
                counter.get());
    }

    @Override
    public void notifyComplete(CheckpointCompletion completion) throws IOException {
        notifyComplete(completion.checkpointId(), completion.lastSubsumedId());
        if (completion.stopping()) {
            LOG.info("Stop-with-savepoint {} completed{}: the job stops, counter at {}", completion.checkpointId(),
                    completion.drain() ? " after draining" : "", counter.get());
        }
    }

    @Override
    public void notifyAborted(CheckpointAbort abort) throws IOException {
        notifyAborted(abort.checkpointId(), abort.latestCompletedId());
        if (abort.stopFailed()) {
            LOG.info("Stop-with-savepoint {} failed: resuming, counter at {}", abort.checkpointId(), counter.get());
        }
    }

    /**
     * Deletes the discarded state if it is one of the worker's (its name) under a job directory the worker keeps its
     * checkpoints in, and not its final state.
     */
    @Override
    public void discardState(DiscardedState state) throws IOException {
        boolean mine = false;
        for (Checkpoints owned : checkpoints) {
            mine |= StateLocations.isUnder(state.location(), owned.jobDirectory())
                    && StateLocations.lastSegment(state.location()).equals(owned.name());
        }
        SnapshotResult kept = finalState.get();
        if (!mine || (kept != null && sameLocation(state.location(), kept.location()))) {
            LOG.info("Not deleting discarded state {} of checkpoint {}: not a state of this worker", state.location(),
                    state.checkpointId());
            return;
        }
        boolean existed = storage.exists(state.location());
        storage.delete(state.location());
        LOG.info("Discarded state {} of checkpoint {} ({}): {}", state.location(), state.checkpointId(),
                state.status(), existed ? "deleted" : "already gone");
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) throws IOException {
        for (Checkpoints owned : checkpoints) {
            storage.delete(storage.resolve(storage.resolve(owned.jobDirectory(), "chk-" + checkpointId),
                    owned.name()));
        }
        LOG.info("Checkpoint {} aborted (latest completed {})", checkpointId, latestCompletedId);
    }

    @Override
    public void restore(Optional<RestorePoint> from) throws IOException {
        if (from.isEmpty()) {
            counter.set(0);
            LOG.info("Nothing to restore: counting from 0");
            return;
        }
        RestorePoint point = from.get();
        String text;
        try {
            text = new String(storage.read(point.location()), StandardCharsets.UTF_8).strip();
        } catch (LocationNotFoundException e) {
            throw new StateUnreadableException("the state of checkpoint " + point.checkpointId() + " at "
                    + point.location() + " does not exist", e);
        } catch (IOException e) {
            throw new IOException("cannot read the state of checkpoint " + point.checkpointId() + " at "
                    + point.location() + ": " + e.getMessage(), e);
        }
        try {
            counter.set(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new StateUnreadableException("the state of checkpoint " + point.checkpointId() + " at "
                    + point.location() + " is not a counter value: \"" + (text.length() > 40
                    ? text.substring(0, 40) + "..." : text) + "\"", e);
        }
        rememberCheckpoints(point.location());
        if (point.chosen()) {
            chosenRestore.set(StateLocations.canonical(point.location()));
        }
        if (isFinished()) {
            finalState.set(SnapshotResult.finishedWith(point.location(), point.sizeBytes()));
        }
        LOG.info("Restored checkpoint {} from {}: counting from {}{}", point.checkpointId(), point.location(),
                counter.get(), isFinished() ? " (input exhausted: finished)" : "");
    }

    /**
     * Stops the scheduler, then closes the storage; snapshots not written yet are declined as the task closing.
     */
    @Override
    public void close() {
        scheduler.shutdownNow();
        pending.forEach(result -> result.completeExceptionally(new SnapshotDeclinedException(
                CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING, "the sample worker closed while writing")));
        storage.close();
    }

    private void write(SnapshotRequest request, long value, String location, long syncMs, long asyncStart,
            CompletableFuture<SnapshotResult> result) {
        try {
            byte[] bytes = (value + "\n").getBytes(StandardCharsets.UTF_8);
            storage.write(location, bytes);
            long size = bytes.length;
            boolean last = finishAfter > 0 && value >= finishAfter && !request.isParticipant();
            LOG.info("Snapshot of checkpoint {} for {}: counter {} in {}{}", request.checkpointId(), who(request),
                    value, location, last ? " (input exhausted: final state)" : "");
            SnapshotResult snapshot = new SnapshotResult(location, size, syncMs, elapsedMs(asyncStart), 0, size, last);
            if (last) {
                finalState.compareAndSet(null, snapshot);
            }
            result.complete(finalState.get() != null ? finalState.get() : snapshot);
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(new SnapshotDeclinedException(
                    CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION, "cannot write " + location + ": " + e));
        }
    }

    /** Remembers the job directory of a restored checkpoint's state {@code <base>/<job>/chk-<id>/<name>}. */
    private void rememberCheckpoints(String location) {
        try {
            String name = StateLocations.lastSegment(location);
            StateLocations.jobDirectory(storage, storage.parent(location))
                    .ifPresent(directory -> checkpoints.add(new Checkpoints(directory, name)));
        } catch (IOException notACheckpointsState) {
            LOG.debug("The restored state {} is not in a checkpoint's location: {}", location,
                    notACheckpointsState.getMessage());
        }
    }

    /** Whether {@code location} is kept whatever completes: the final state, or a restore point a user chose. */
    private boolean isKept(String location) throws IOException {
        SnapshotResult kept = finalState.get();
        return (kept != null && sameLocation(location, kept.location()))
                || StateLocations.canonical(location).equals(chosenRestore.get());
    }

    private static boolean sameLocation(String one, String other) throws IOException {
        return StateLocations.canonical(one).equals(StateLocations.canonical(other));
    }

    private static String who(SnapshotRequest request) {
        return request.jobId() + "/" + (request.isParticipant() ? "participant " + request.participant()
                : request.taskId() + "-" + request.subtaskIndex());
    }

    private static Optional<String> invalidSegment(String field, String value) {
        if (value.isEmpty() || value.equals(".") || value.equals("..") || value.contains("/")
                || value.contains("\\") || value.indexOf('\0') >= 0) {
            return Optional.of("the sample worker cannot store state for " + field + " \"" + value
                    + "\": it must be usable as a name in the checkpoint's storage location");
        }
        return Optional.empty();
    }

    private static CompletionStage<SnapshotResult> declined(CheckpointFailureReason reason, String message) {
        return CompletableFuture.failedFuture(new SnapshotDeclinedException(reason, message));
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** Where the worker keeps checkpoint states: a job directory {@code <base>/<job>}, and its name in each. */
    private record Checkpoints(String jobDirectory, String name) {}
}
