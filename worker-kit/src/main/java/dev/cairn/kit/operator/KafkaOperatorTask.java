package dev.cairn.kit.operator;

import dev.cairn.kit.align.BarrierAligner;
import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.align.Step;
import dev.cairn.kit.state.Generations;
import dev.cairn.kit.task.SourceFunction;
import dev.cairn.kit.wire.DeadLetters;
import dev.cairn.kit.wire.KitRecord;
import dev.cairn.kit.wire.KitRecords;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A downstream subtask of a kit dataflow, driven by a sidecar through {@link SnapshotHook}: it reads its share of a
 * kit topic ({@link dev.cairn.kit.task.Partitioning#assigned}), aligns the barriers of its channels
 * ({@link BarrierAligner}), applies an {@link OperatorFunction} with {@link KeyedState} to each delivered record, and
 * writes the results to a {@link TaskOutput}: the next task's kit topic, or an exactly-once sink.
 *
 * <ul>
 *   <li>{@link #restore}: called once, first. Reads the subtask's state file of the restore point (or starts from the
 *       initial state, reading from the beginning), starts the output (resume records downstream; a sink resolves
 *       its pending commit) and the loop thread.</li>
 *   <li>When barrier N arrived on every channel, the loop encodes the state with the input positions, forwards
 *       barrier N (a sink closes its epoch) and keeps the snapshot until the sidecar asks for checkpoint N
 *       ({@link #snapshot}, which brings the storage location), or pairs it with the request already waiting; it
 *       writes {@code <storageLocation>/operator-<task>-<subtask>.state} (and the sink's file next to it).</li>
 *   <li>{@link #notifyComplete}: the output makes what the checkpoint covers visible (a sink commits); the subtask
 *       never rolls back before it. A stop-with-savepoint completion stops the loop after that.</li>
 *   <li>{@link #notifyAborted}: an alignment of it ends, held-back records are processed.</li>
 *   <li>An upstream restart ({@link Step.Rollback}): the subtask restores its own snapshot of the checkpoint the
 *       upstream restored, seeks its input back, starts a new generation of its output, and goes on.</li>
 * </ul>
 *
 * <p>Behind: a checkpoint that completed after this incarnation chose its restore point, without a snapshot of
 * this incarnation (its last ack was in flight when the previous one crashed), makes the subtask's state older than
 * the job's. The subtask then stops with a failure instead of taking part in later checkpoints; restarted, it
 * restores that checkpoint. Records it cannot process go to a {@link DeadLetters} topic,
 * {@code <input topic>.dead-letters}. The loop thread owns the consumer, the aligner, the state and the output;
 * the sidecar's calls are queued to it.
 */
public final class KafkaOperatorTask implements SnapshotHook {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaOperatorTask.class);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final OperatorTaskConfig config;
    private final OperatorFunction function;
    private final TaskOutput output;
    private final KeyedState state;
    private final SnapshotBook book = new SnapshotBook();
    private final IncrementalSnapshots incremental = new IncrementalSnapshots();
    private final ReusedObjects reusedObjects = new ReusedObjects();
    private final BlockingQueue<Command> commands = new LinkedBlockingQueue<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running;
    private volatile boolean stopped;
    private volatile long generation = -1;
    private Generations incarnations;
    private volatile int rollbacks;
    private RestorePoint rescaledFrom;
    private InputGate gate;
    private OperatorInput input;
    private DeadLetters deadLetters;
    private BarrierAligner<ConsumerRecord<byte[], byte[]>> aligner;
    private Thread loop;

    /** A subtask of {@code config} applying {@code function}, writing to {@code output}. */
    public KafkaOperatorTask(OperatorTaskConfig config, OperatorFunction function, TaskOutput output) {
        this.config = Objects.requireNonNull(config, "config");
        this.function = Objects.requireNonNull(function, "function");
        this.output = Objects.requireNonNull(output, "output");
        this.state = new KeyedState(config.maxParallelism());
    }

    /**
     * Restores the subtask's state of {@code from} (or the initial state), starts the output and the loop.
     *
     * @throws IOException when the state file cannot be read, is corrupt or belongs to another subtask
     * @throws IllegalStateException when called twice, or the input topic does not exist
     */
    @Override
    public void restore(Optional<RestorePoint> from, AttemptNumber attempt) throws IOException {
        start(from, Optional.of(attempt));
    }

    /**
     * As {@link #restore(Optional, AttemptNumber)} without a sidecar's attempt number: each generation is one more
     * than the previous one's ({@link Generations}).
     */
    @Override
    public void restore(Optional<RestorePoint> from) throws IOException {
        start(from, Optional.empty());
    }

    private synchronized void start(Optional<RestorePoint> from, Optional<AttemptNumber> attempt) throws IOException {
        if (input != null) {
            throw new IllegalStateException("operator " + config.name() + " was restored already");
        }
        Optional<OperatorState> restored = OperatorRestore.read(config, from);
        rescaledFrom = from.filter(RestorePoint::rescaled).orElse(null);
        incarnations = new Generations("operator " + config.name(), attempt);
        input = new OperatorInput(config);
        gate = new InputGate(input.filter());
        deadLetters = new DeadLetters(config.inputTopic() + ".dead-letters", config.name(), config.clientConfig());
        try {
            incarnate(restored, from.map(RestorePoint::checkpointId).orElse(-1L), OperatorRestore.lineageLocation(from),
                    from.map(RestorePoint::chosen).orElse(false), Map.of(), from.isPresent() && from.get().rescaled()
                    ? "the subtask restored rescaled (" + from.get().previousParallelism() + " to "
                    + from.get().parallelism() + " subtasks)" : "the subtask restarted");
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        running = true;
        loop = new Thread(this::run, "cairn-kit-operator-" + config.name());
        loop.setDaemon(true);
        loop.start();
    }

    /** Queues the request for the loop; declined at once when the subtask is not running. */
    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        CompletableFuture<SnapshotResult> result = new CompletableFuture<>();
        commands.add(new Command.Snapshot(new SnapshotBook.Waiting(request, result)));
        if (!running) {
            declineQueued();
        }
        return result;
    }

    /**
     * Confirms the checkpoint's snapshot as the base of the next ones at once, and queues the completion for the loop.
     * The sidecar hands over the discards of the checkpoints this one subsumed on this same thread after it, so no
     * snapshot planned from then on reuses their objects (those planned before keep them, {@link ReusedObjects}).
     */
    @Override
    public void notifyComplete(CheckpointCompletion completion) {
        incremental.completed(completion.checkpointId());
        commands.add(new Command.Complete(completion));
    }

    @Override
    public void notifyAborted(CheckpointAbort abort) {
        commands.add(new Command.Abort(abort.checkpointId()));
    }

    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) {
        notifyComplete(CheckpointCompletion.of(checkpointId, lastSubsumedId));
    }

    /**
     * Deletes a state object the coordinator discarded (its checkpoint was subsumed or aborted, or its ack was not
     * taken), through the task's storage; deleting one that is gone already is no error. A key group object that a
     * snapshot planned at its barrier reuses is deleted once that snapshot is written or dropped.
     */
    @Override
    public void discardState(DiscardedState state) throws IOException {
        if (reusedObjects.deferIfLeased(state.location())) {
            LOG.info("Operator {}: deletes {} of checkpoint {} ({}) once the snapshot planned on it is written",
                    config.name(), state.location(), state.checkpointId(), state.cause());
            return;
        }
        SnapshotFiles.discard(config, output::partNames, state.location());
        LOG.info("Operator {}: deleted {} of checkpoint {} ({})", config.name(), state.location(),
                state.checkpointId(), state.cause());
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) {
        commands.add(new Command.Abort(checkpointId));
    }

    /** This incarnation's generation (it changes with every rollback); -1 before {@link #restore}. */
    public long generation() {
        return generation;
    }

    /** How many times the subtask rolled back to one of its snapshots because an upstream restarted. */
    public int rollbacks() {
        return rollbacks;
    }

    /**
     * How many data records of its input the subtask dropped as its neighbours' (their key groups are not its own,
     * in a partition it shares with a neighbour).
     */
    public long droppedForNeighbours() {
        InputGate current = gate;
        return current == null ? 0 : current.neighbours();
    }

    /** Why the loop stopped, when it failed; empty while it runs, after a stop-with-savepoint or a plain close. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Whether the loop is running. */
    public boolean isRunning() {
        return running;
    }

    /** Whether the subtask stopped with a stop-with-savepoint that completed. */
    public boolean isStopped() {
        return stopped;
    }

    /** Stops the loop, declines queued requests, closes the consumer and the output. */
    @Override
    public synchronized void close() {
        running = false;
        if (loop != null && loop != Thread.currentThread()) {
            input.wakeup();
            try {
                loop.join(CLOSE_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        declineQueued();
        output.close();
        if (deadLetters != null) {
            deadLetters.close();
        }
        if (input != null) {
            input.close();
        }
    }

    private void run() {
        try {
            while (running) {
                serveCommands();
                deleteReleased();
                if (!running) {
                    break;
                }
                for (ConsumerRecord<byte[], byte[]> record : input.poll(config.pollTimeout())) {
                    if (handle(record)) {
                        break;
                    }
                }
                throwIfOutputFailed();
            }
        } catch (WakeupException e) {
            if (running) {
                fail(e);
            }
        } catch (Exception | Error e) {
            fail(e);
        } finally {
            running = false;
            declineQueued();
            book.stopped(notRunning());
            deleteReleased();
        }
    }

    /** Deletes the discarded objects that no snapshot planned and not yet written reuses any more. */
    private void deleteReleased() {
        for (String location : reusedObjects.release(book.held())) {
            try {
                SnapshotFiles.discard(config, output::partNames, location);
                LOG.info("Operator {}: deleted {}, which a planned snapshot reused when it was discarded",
                        config.name(), location);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Operator {}: could not delete the discarded {}: {}", config.name(), location, e.toString());
            }
        }
    }

    /** Processes one input record; answers whether the subtask rolled back (the rest of the batch is stale). */
    private boolean handle(ConsumerRecord<byte[], byte[]> record) throws IOException {
        KitRecord kind = KitRecords.read(record);
        long offset = record.offset();
        List<Step<ConsumerRecord<byte[], byte[]>>> steps;
        if (!gate.admits(record, kind, deadLetters)) {
            return false;
        }
        if (kind instanceof KitRecord.Data data) {
            steps = aligner.onData(channel(record, data.from()), offset, data.generation(), record);
        } else if (kind instanceof KitRecord.Barrier barrier) {
            steps = aligner.onBarrier(channel(record, barrier.from()), offset, barrier.checkpointId(),
                    barrier.generation(), barrier.alignment());
        } else if (kind instanceof KitRecord.Resume resume) {
            steps = aligner.onResume(channel(record, resume.from()), offset, resume.generation(),
                    resume.restoredFrom());
        } else {
            deadLetters.send(record, ((KitRecord.Malformed) kind).reason());
            return false;
        }
        return apply(steps, record);
    }

    private boolean apply(List<Step<ConsumerRecord<byte[], byte[]>>> steps, ConsumerRecord<byte[], byte[]> input)
            throws IOException {
        for (Step<ConsumerRecord<byte[], byte[]>> step : steps) {
            if (step instanceof Step.Deliver<ConsumerRecord<byte[], byte[]>> deliver) {
                process(deliver.record());
            } else if (step instanceof Step.Drop<ConsumerRecord<byte[], byte[]>> drop && drop.reason().badInput()) {
                deadLetters.send(input, "dropped: " + drop.reason() + " (upstream subtask not one of the "
                        + config.upstreamParallelism() + " this operator reads)");
            } else if (step instanceof Step.Snapshot<ConsumerRecord<byte[], byte[]>> snapshot) {
                aligned(snapshot);
            } else if (step instanceof Step.Decline<ConsumerRecord<byte[], byte[]>> decline) {
                LOG.info("Operator {}: declines checkpoint {}: {}", config.name(), decline.checkpointId(),
                        decline.reason());
                book.declined(decline.checkpointId(), decline.reason());
            } else if (step instanceof Step.Rollback<ConsumerRecord<byte[], byte[]>> rollback) {
                rollBack(rollback);
                return true;
            }
        }
        return false;
    }

    private void process(ConsumerRecord<byte[], byte[]> record) {
        for (SourceFunction.Output result : function.apply(record.key(), record.value(), state)) {
            output.emit(result.key(), result.value());
        }
    }

    private void aligned(Step.Snapshot<ConsumerRecord<byte[], byte[]>> snapshot) {
        OperatorState header = new OperatorState(config.taskId(), config.subtask(), snapshot.checkpointId(),
                generation, config.inputTopic(), snapshot.positions(), Map.of());
        PendingState pending = new PendingState(header, reusedObjects.planned(snapshot.checkpointId(),
                () -> incremental.plan(snapshot.checkpointId(), state, (group, entries) -> KeyGroupCodec.encode(
                        config.taskId(), config.subtask(), group, entries), false)));
        TaskOutput.Sealed sealed = output.barrier(snapshot.checkpointId(), snapshot.alignment());
        deadLetters.confirm();
        book.aligned(new SnapshotBook.Aligned(snapshot.checkpointId(), pending, sealed)).ifPresent(this::write);
    }

    private void write(SnapshotBook.Ready ready) {
        long checkpointId = ready.request().request().checkpointId();
        try {
            SnapshotResult result = SnapshotFiles.write(config, incremental, ready, reusedObjects::discarded);
            book.taken(checkpointId, result.location());
            ready.request().result().complete(result);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Operator {}: declined checkpoint {}: {}", config.name(), checkpointId, e.toString());
            ready.request().result().completeExceptionally(e);
        }
    }

    private void serveCommands() throws IOException {
        Command command;
        while (running && (command = commands.poll()) != null) {
            if (command instanceof Command.Snapshot snapshot) {
                requested(snapshot.waiting());
            } else if (command instanceof Command.Complete complete) {
                completed(complete.completion());
            } else if (command instanceof Command.Abort abort) {
                book.aborted(abort.checkpointId());
                incremental.aborted(abort.checkpointId());
                apply(aligner.cancel(abort.checkpointId()), null);
            }
        }
    }

    private void requested(SnapshotBook.Waiting waiting) {
        long latest = waiting.request().latestCompletedId();
        if (book.behind(latest)) {
            String why = behind(latest);
            waiting.result().completeExceptionally(new IllegalStateException(why));
            throw new IllegalStateException(why);
        }
        book.requested(waiting).ifPresent(this::write);
    }

    private void completed(CheckpointCompletion completion) {
        long id = completion.checkpointId();
        incremental.completed(id);
        if (book.completed(id)) {
            aligner.completed(id);
            output.complete(id);
            if (completion.stopping()) {
                LOG.info("Operator {}: stopped with savepoint {}", config.name(), id);
                stopped = true;
                running = false;
            }
        } else if (book.behind(id)) {
            throw new IllegalStateException(behind(id));
        }
    }

    private String behind(long checkpointId) {
        return book.behindMessage("operator " + config.name(), checkpointId);
    }

    private void rollBack(Step.Rollback<ConsumerRecord<byte[], byte[]>> rollback) throws IOException {
        long target = rollback.toCheckpoint();
        Optional<String> location = book.location(target);
        if (target >= 0 && location.isEmpty()) {
            throw new IllegalStateException("operator " + config.name() + " cannot roll back to checkpoint " + target
                    + " (" + rollback.reason() + "): this incarnation holds no snapshot of it; it stops, and "
                    + "restarted it restores the latest completed checkpoint");
        }
        Map<Channel, Long> generations = aligner.generationsAfter(rollback);
        long seen = aligner.newestBarrier();
        Optional<OperatorState> restored = rescaledFrom != null && target == rescaledFrom.checkpointId()
                ? Optional.of(OperatorRestore.read(config, rescaledFrom))
                : location.isPresent() ? Optional.of(OperatorRestore.readOwn(config, location.get()))
                : Optional.empty();
        rollbacks++;
        LOG.info("Operator {}: rolls back to checkpoint {}: {}", config.name(), target, rollback.reason());
        incarnate(restored, target, location, false, generations,
                "the subtask rolled back to checkpoint " + target);
        aligner.skipThrough(seen);
        book.skipThrough(seen);
    }

    private void incarnate(Optional<OperatorState> restored, long checkpointId, Optional<String> location,
            boolean chosen, Map<Channel, Long> generations, String why) throws IOException {
        generation = incarnations.next(restored.map(OperatorState::generation).orElse(-1L));
        state.replaceWith(restored.map(OperatorState::entries).orElse(Map.of()));
        boolean rescaled = rescaledFrom != null && checkpointId == rescaledFrom.checkpointId();
        incremental.restored(state.versions(), restored.filter(OperatorState::groupsShared)
                .map(OperatorState::groups).orElse(List.of()));
        if (rescaled) {
            output.startRescaled(rescaledFrom, generation);
        } else {
            output.start(checkpointId, SnapshotFiles.directoryOf(config, location), generation, chosen);
        }
        InputPositions positions = restored.map(OperatorState::positions).orElse(InputPositions.NONE);
        if (rescaled || !positions.restartOffsets().isEmpty()) {
            OperatorRestore.requireEveryPartition(config, positions, input.partitions(), checkpointId);
        }
        gate.restored(positions, OperatorRestore.retired(positions, input.partitions(), config.upstreamParallelism()));
        aligner = BarrierAligner.restored(input.channels(), positions, checkpointId, generations);
        input.seek(positions);
        book.rebase(checkpointId, location, why);
        LOG.info("Operator {}: {} from {} as generation {}, {} keys", config.name(), why,
                checkpointId < 0 ? "the initial state" : "checkpoint " + checkpointId, generation, state.size());
    }

    private Channel channel(ConsumerRecord<byte[], byte[]> record, int from) {
        return Channel.of(record.topic(), record.partition(), from);
    }

    private void throwIfOutputFailed() {
        Optional<Throwable> failed = output.failure().or(deadLetters::failure);
        if (failed.isPresent()) {
            throw new IllegalStateException("operator " + config.name() + ": its output failed: " + failed.get(),
                    failed.get());
        }
    }

    private void fail(Throwable e) {
        if (failure.compareAndSet(null, e)) {
            LOG.error("Operator {} stopped", config.name(), e);
        }
    }

    private void declineQueued() {
        Command command;
        while ((command = commands.poll()) != null) {
            if (command instanceof Command.Snapshot snapshot) {
                snapshot.waiting().result().completeExceptionally(notRunning());
            }
        }
    }

    private IllegalStateException notRunning() {
        Throwable cause = failure.get();
        return new IllegalStateException("operator " + config.name() + " is not running"
                + (cause == null ? "" : ": " + cause), cause);
    }

    /** What the sidecar's threads hand the loop. */
    private sealed interface Command {
        record Snapshot(SnapshotBook.Waiting waiting) implements Command {}

        record Complete(CheckpointCompletion completion) implements Command {}

        record Abort(long checkpointId) implements Command {}
    }
}
