package dev.cairn.sample.worker;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample worker: a counter that advances by one every time it is asked for a snapshot (it processes one
 * record per checkpoint), and keeps each snapshot in its own file,
 * {@code <stateDir>/<job>/<task>-<subtask>/chk-<id>} ({@code savepoint-<id>} for savepoints;
 * {@code participant-<name>} instead of {@code <task>-<subtask>} when it serves a participant), holding the value
 * as decimal text. The snapshot's location is that file's {@code file:} URI.
 *
 * <ul>
 *   <li>{@link #restore} reads the value back from the handed location (a {@code file:} URI or a path) and
 *       continues counting from it; a fresh start counts from 0.</li>
 *   <li>{@link #notifyComplete} deletes the checkpoint files up to the last subsumed id (never savepoints, nor
 *       its final state, nor a checkpoint a user chose to restore from: that one is not the coordinator's);
 *       {@link #notifyAborted} deletes the aborted checkpoint's file; {@link #discardState} deletes a file the
 *       coordinator discarded, if it lies in the state directory.</li>
 *   <li>Bounded input: with {@code finishAfter} N, the snapshot that brings the counter to N writes the final
 *       state and answers {@link SnapshotResult#finishedWith} (the sidecar then publishes {@code TaskFinished});
 *       later snapshots answer the same final state, and so does the first snapshot after restoring a value of
 *       N or more.</li>
 *   <li>To exercise the coordinator it can be slow (the file is written that long after the request, on a
 *       scheduler, so notifications are never held up) and it can decline every checkpoint whose id is a
 *       multiple of N.</li>
 * </ul>
 */
public final class CounterWorker implements SnapshotHook {

    private static final Logger LOG = LoggerFactory.getLogger(CounterWorker.class);
    private static final String CHECKPOINT_PREFIX = "chk-";
    private static final String SAVEPOINT_PREFIX = "savepoint-";

    private final Path stateDir;
    private final Duration slowness;
    private final int declineEvery;
    private final long finishAfter;
    /** The final state once the input is exhausted. */
    private final AtomicReference<SnapshotResult> finalState = new AtomicReference<>();
    /** The file of a restore point a user chose: never deleted as subsumed (Flink: a NO_CLAIM restore). */
    private final AtomicReference<Path> chosenRestore = new AtomicReference<>();
    private final ScheduledExecutorService scheduler;
    private final AtomicLong counter = new AtomicLong();
    private final Set<Path> directories = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<SnapshotResult>> pending = ConcurrentHashMap.newKeySet();

    /**
     * @param stateDir where the snapshot files go
     * @param slowness how long after a request the snapshot completes (zero: at once)
     * @param declineEvery declines the checkpoints whose id is a multiple of this; 0 never declines
     * @param finishAfter the input's size: the worker finishes when its counter reaches it; 0 never finishes
     */
    public CounterWorker(Path stateDir, Duration slowness, int declineEvery, long finishAfter) {
        this.stateDir = Objects.requireNonNull(stateDir, "stateDir");
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
        Optional<String> badId = invalidSegment("jobId", request.jobId())
                .or(() -> request.isParticipant() ? invalidSegment("participant", request.participant())
                        : invalidSegment("taskId", request.taskId()));
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
        long value = isFinished() ? counter.get() : counter.incrementAndGet();
        Path directory = stateDir.resolve(request.jobId()).resolve(request.isParticipant()
                ? "participant-" + request.participant() : request.taskId() + "-" + request.subtaskIndex());
        String prefix = request.type() == CheckpointType.SAVEPOINT ? SAVEPOINT_PREFIX : CHECKPOINT_PREFIX;
        Path file = directory.resolve(prefix + request.checkpointId());
        long syncMs = elapsedMs(syncStart);
        CompletableFuture<SnapshotResult> result = new CompletableFuture<>();
        pending.add(result);
        result.whenComplete((done, error) -> pending.remove(result));
        long asyncStart = System.nanoTime();
        try {
            scheduler.schedule(() -> write(request, value, file, syncMs, asyncStart, result),
                    slowness.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            result.cancel(false);
            return declined(CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING, "the sample worker is closed");
        }
        return result;
    }

    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) throws IOException {
        SnapshotResult kept = finalState.get();
        for (Path directory : directories) {
            for (Path file : checkpointFiles(directory)) {
                boolean isFinal = kept != null && file.toUri().toString().equals(kept.location());
                if (checkpointId(file) <= lastSubsumedId && !isFinal && !file.equals(chosenRestore.get())) {
                    Files.deleteIfExists(file);
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

    /** Deletes the discarded file if it lies in the state directory (and is not the final state). */
    @Override
    public void discardState(DiscardedState state) throws IOException {
        Path file = path(state.location()).toAbsolutePath().normalize();
        SnapshotResult kept = finalState.get();
        if (!file.startsWith(stateDir.toAbsolutePath().normalize())
                || (kept != null && file.toUri().toString().equals(kept.location()))) {
            LOG.info("Not deleting discarded state {} of checkpoint {}: not a state of this worker", state.location(),
                    state.checkpointId());
            return;
        }
        boolean deleted = Files.deleteIfExists(file);
        LOG.info("Discarded state {} of checkpoint {} ({}): {}", state.location(), state.checkpointId(),
                state.status(), deleted ? "deleted" : "already gone");
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) throws IOException {
        for (Path directory : directories) {
            Files.deleteIfExists(directory.resolve(CHECKPOINT_PREFIX + checkpointId));
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
        Path file = path(point.location());
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new IOException("cannot read the state of checkpoint " + point.checkpointId() + " at "
                    + point.location() + ": " + e, e);
        }
        try {
            counter.set(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new IOException("the state of checkpoint " + point.checkpointId() + " at " + point.location()
                    + " is not a counter value: \"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
                    + "\"", e);
        }
        if (file.getParent() != null) {
            directories.add(file.getParent());
        }
        if (point.chosen()) {
            chosenRestore.set(file);
        }
        if (isFinished()) {
            finalState.set(SnapshotResult.finishedWith(point.location(), point.sizeBytes()));
        }
        LOG.info("Restored checkpoint {} from {}: counting from {}{}", point.checkpointId(), point.location(),
                counter.get(), isFinished() ? " (input exhausted: finished)" : "");
    }

    /** Stops the scheduler; snapshots not written yet are declined as the task closing. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        pending.forEach(result -> result.completeExceptionally(new SnapshotDeclinedException(
                CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING, "the sample worker closed while writing")));
    }

    private void write(SnapshotRequest request, long value, Path file, long syncMs, long asyncStart,
            CompletableFuture<SnapshotResult> result) {
        try {
            Files.createDirectories(file.getParent());
            directories.add(file.getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temporary, value + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            long size = Files.size(file);
            boolean last = finishAfter > 0 && value >= finishAfter && !request.isParticipant();
            LOG.info("Snapshot of checkpoint {} for {}: counter {} in {}{}", request.checkpointId(), who(request),
                    value, file, last ? " (input exhausted: final state)" : "");
            SnapshotResult snapshot = new SnapshotResult(file.toUri().toString(), size, syncMs, elapsedMs(asyncStart),
                    0, size, last);
            if (last) {
                finalState.compareAndSet(null, snapshot);
            }
            result.complete(finalState.get() != null ? finalState.get() : snapshot);
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(new SnapshotDeclinedException(
                    CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION, "cannot write " + file + ": " + e));
        }
    }

    private static String who(SnapshotRequest request) {
        return request.jobId() + "/" + (request.isParticipant() ? "participant " + request.participant()
                : request.taskId() + "-" + request.subtaskIndex());
    }

    private static List<Path> checkpointFiles(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> checkpointId(file) >= 0).toList();
        }
    }

    /** The id in a {@code chk-<id>} file name, -1 for any other file. */
    private static long checkpointId(Path file) {
        String name = file.getFileName().toString();
        if (!name.startsWith(CHECKPOINT_PREFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(CHECKPOINT_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static Path path(String location) throws IOException {
        try {
            return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            throw new IOException("the restore location " + location + " is neither a file: URI nor a path", e);
        }
    }

    private static Optional<String> invalidSegment(String field, String value) {
        if (value.isEmpty() || value.equals(".") || value.equals("..") || value.contains("/")
                || value.contains("\\") || value.indexOf('\0') >= 0) {
            return Optional.of("the sample worker cannot store state for " + field + " \"" + value
                    + "\": it must be usable as a directory name");
        }
        return Optional.empty();
    }

    private static CompletionStage<SnapshotResult> declined(CheckpointFailureReason reason, String message) {
        return CompletableFuture.failedFuture(new SnapshotDeclinedException(reason, message));
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
