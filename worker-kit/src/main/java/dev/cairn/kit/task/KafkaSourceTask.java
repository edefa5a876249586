package dev.cairn.kit.task;

import dev.cairn.kit.align.Alignment;
import dev.cairn.kit.state.Generations;
import dev.cairn.kit.state.Lineage;
import dev.cairn.kit.wire.KitRecords;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source subtask of a kit dataflow, driven by a sidecar through {@link SnapshotHook}: it reads its share of the
 * input topic's partitions ({@link Partitioning#assigned}), applies a {@link SourceFunction} to each record and writes
 * the outputs as kit data records ({@link KitRecords#data}) to the output topic, each to its key's partition.
 *
 * <ul>
 *   <li>{@link #restore}: called once, before anything else. Reads the state file of the restore point (or starts
 *       from {@link SourceTaskConfig#startFrom()}; after a rescale, the positions of its partitions in every old
 *       subtask's state: a snapshot declares its state {@code UNION}), picks this incarnation's generation,
 *       writes a resume record into every output partition, then starts the task's loop thread.</li>
 *   <li>{@link #snapshot}: hands the request to the loop, which, between two records, takes its input positions (the
 *       first record not yet processed, per partition), writes barrier N into every output partition, flushes the
 *       producer (the barrier follows every record of the epoch) and writes
 *       {@code <storageLocation>/source-<task>-<subtask>.state} ({@link SourceStateCodec}). Replaying the input from
 *       those positions yields exactly the records whose outputs follow the barrier.</li>
 *   <li>{@link #notifyComplete} / {@link #notifyAborted}: nothing to commit. The data records are not transactional:
 *       a downstream task rolls back to its own snapshot of the checkpoint this task restored, drops records of
 *       older generations, and the records after the restored barrier are replayed by this task.</li>
 *   <li>Stop-with-savepoint (a {@link CheckpointOptions#synchronous() synchronous} savepoint, as Flink's): after its
 *       barrier the task reads and emits nothing more until the savepoint ends. Its completion stops the loop
 *       ({@link #isStopped()}); its abort (the stop failed) resumes reading where the barrier was. With
 *       {@link CheckpointOptions#drain() drain} the task's input ends at the barrier: the snapshot records it
 *       ({@link SourceState#ended()}), and an incarnation restored from that state reads nothing (it still writes
 *       its resume records, and barriers with every snapshot, so that the job's checkpoints go on), so a job
 *       resumed from a drained savepoint produces nothing new.</li>
 *   <li>Behind ({@link Lineage}): a checkpoint that completed without a snapshot of this incarnation and newer
 *       than its state (named by a request's {@link SnapshotRequest#latestCompletedId()} or by a completion) stops
 *       the loop with that failure; restarted, the subtask restores that checkpoint.</li>
 * </ul>
 *
 * <p>Generation: each incarnation announces a generation that is above every earlier one of the subtask
 * ({@link Generations}), ordered by its sidecar's {@link AttemptNumber}, never by a clock. The resume record carries
 * it, with the checkpoint the incarnation restored from ({@value KitRecords#RESUME}), so that a downstream task knows
 * which of its own snapshots to roll back to. The resume records are confirmed by Kafka before the task reads anything.
 *
 * <p>The consumer and producer belong to the loop thread. A failed send, a failing {@link SourceFunction} or a lost
 * broker stops the loop; {@link #failure()} says why, pending and later snapshots are declined with it. The output
 * topic's partition count is read once at restore; adding output partitions needs a restart.
 */
public final class KafkaSourceTask implements SnapshotHook {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceTask.class);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final SourceTaskConfig config;
    private final SourceFunction function;
    private final BlockingQueue<PendingSnapshot> requests = new LinkedBlockingQueue<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Lineage lineage = new Lineage();
    private final SourceInput input;
    private volatile boolean running;
    private volatile long generation = -1;
    private volatile SourceStop stop = new SourceStop(false);
    private KafkaConsumer<byte[], byte[]> consumer;
    private KafkaProducer<byte[], byte[]> producer;
    private int outputPartitions;
    private Thread loop;

    /** A subtask of {@code config} applying {@code function}. */
    public KafkaSourceTask(SourceTaskConfig config, SourceFunction function) {
        this.config = Objects.requireNonNull(config, "config");
        this.function = Objects.requireNonNull(function, "function");
        this.input = new SourceInput(config, name());
    }

    /**
     * Positions the consumer (at the restore point's positions, or the configured start), writes the resume records
     * and starts the loop.
     *
     * @throws IOException when the state file cannot be read, is corrupt or belongs to another subtask
     * @throws IllegalStateException when called twice
     */
    @Override
    public void restore(Optional<RestorePoint> from, AttemptNumber attempt) throws IOException {
        start(from, Optional.of(attempt));
    }

    /**
     * As {@link #restore(Optional, AttemptNumber)} without a sidecar's attempt number: the generation is one more
     * than the restored state's ({@link Generations}).
     */
    @Override
    public void restore(Optional<RestorePoint> from) throws IOException {
        start(from, Optional.empty());
    }

    private synchronized void start(Optional<RestorePoint> from, Optional<AttemptNumber> attempt) throws IOException {
        if (consumer != null) {
            throw new IllegalStateException("source " + name() + " was restored already");
        }
        Optional<SourceState> state = from.isEmpty() ? Optional.empty()
                : Optional.of(from.get().rescaled() ? input.readRescaled(from.get()) : input.read(from.get()));
        stop = new SourceStop(state.map(SourceState::ended).orElse(false));
        generation = new Generations("source " + name(), attempt)
                .next(state.map(SourceState::generation).orElse(-1L));
        long restoredFrom = from.map(RestorePoint::checkpointId).orElse(-1L);
        lineage.rebase(restoredFrom, from.map(RestorePoint::location));
        consumer = new KafkaConsumer<>(config.consumerSettings(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        producer = new KafkaProducer<>(config.producerSettings(), new ByteArraySerializer(), new ByteArraySerializer());
        try {
            input.assign(consumer, state);
            outputPartitions = producer.partitionsFor(config.outputTopic()).size();
            KitRecords.resumes(config.outputTopic(), outputPartitions, restoredFrom, generation, config.subtask())
                    .forEach(this::send);
            producer.flush();
            throwIfFailed();
        } catch (RuntimeException e) {
            closeClients();
            consumer = null;
            producer = null;
            throw e;
        }
        LOG.info("Source {}: {} at {} as generation {}", name(), state.map(s -> "restored checkpoint "
                + s.checkpointId()).orElse("fresh start"), input, generation);
        if (stop.inputEnded()) {
            LOG.warn("Source {}: checkpoint {} was taken by a stop with drain: the input ended there, so this "
                    + "subtask reads nothing more (restore a point taken without drain to read on)", name(),
                    restoredFrom);
        }
        running = true;
        loop = new Thread(this::run, "cairn-kit-source-" + name());
        loop.setDaemon(true);
        loop.start();
    }

    /** Queues the snapshot for the loop; declined at once when the task is not running. */
    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        CompletableFuture<SnapshotResult> result = new CompletableFuture<>();
        requests.add(new PendingSnapshot(request, result));
        if (!running) {
            declinePending();
        }
        return result;
    }

    /**
     * A source has nothing to commit; a completed checkpoint it took no snapshot of, newer than its state, means it
     * is behind: the loop stops with that failure.
     */
    @Override
    public void notifyComplete(long checkpointId, long lastSubsumedId) {
        if (!lineage.completed(checkpointId) && lineage.behind(checkpointId)) {
            fail(new IllegalStateException(lineage.behindMessage("source " + name(), checkpointId)));
            running = false;
        }
    }

    /** An aborted stop-with-savepoint this task paused at resumes reading; otherwise nothing to roll back. */
    /**
     * Deletes a state object the coordinator discarded (its checkpoint was subsumed or aborted, or its ack was not
     * taken), through the task's storage; deleting one that is gone already is no error.
     */
    @Override
    public void discardState(DiscardedState state) throws IOException {
        config.storage().delete(state.location());
        LOG.info("Source {}: deleted {} of checkpoint {} ({})", name(), state.location(),
                state.checkpointId(), state.cause());
    }

    @Override
    public void notifyAborted(long checkpointId, long latestCompletedId) {
        if (stop.aborted(checkpointId)) {
            LOG.info("Source {}: the stop with savepoint {} failed; reading on from its barrier", name(),
                    checkpointId);
        } else {
            LOG.debug("Source {}: checkpoint {} aborted; a source has nothing to roll back", name(), checkpointId);
        }
    }

    /** As {@link #notifyComplete(long, long)}; a stop-with-savepoint's completion then stops the loop. */
    @Override
    public void notifyComplete(CheckpointCompletion completion) {
        notifyComplete(completion.checkpointId(), completion.lastSubsumedId());
        if (completion.stopping() && running) {
            LOG.info("Source {}: stopped with savepoint {}{}", name(), completion.checkpointId(),
                    completion.drain() ? " (drained: its input ended at the savepoint's barrier)" : "");
            stop.stopped(completion.drain());
            running = false;
        }
    }

    @Override
    public void notifyAborted(CheckpointAbort abort) {
        notifyAborted(abort.checkpointId(), abort.latestCompletedId());
    }

    /** This incarnation's generation; -1 before {@link #restore}. */
    public long generation() {
        return generation;
    }

    /** Why the loop stopped, when it failed; empty while it runs or after a plain {@link #close}. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Whether the loop is running. */
    public boolean isRunning() {
        return running;
    }

    /** Whether the subtask stopped with a stop-with-savepoint that completed. */
    public boolean isStopped() {
        return stop.isStopped();
    }

    /** Whether the input ended: restored from a drained savepoint's state. */
    public boolean inputEnded() {
        return stop.inputEnded();
    }

    /** Stops the loop, declines queued snapshots, closes the consumer and producer. */
    @Override
    public synchronized void close() throws InterruptedException {
        running = false;
        if (loop != null) {
            consumer.wakeup();
            loop.join(CLOSE_WAIT.toMillis());
        }
        declinePending();
        closeClients();
    }

    private void run() {
        try {
            while (running) {
                throwIfFailed();
                serve();
                if (idle()) {
                    PendingSnapshot next = requests.poll(config.pollTimeout().toMillis(), TimeUnit.MILLISECONDS);
                    if (next != null) {
                        take(next);
                    }
                    continue;
                }
                process(consumer.poll(config.pollTimeout()));
            }
        } catch (WakeupException e) {
            if (running) {
                fail(e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        } catch (Exception | Error e) {
            fail(e);
        } finally {
            running = false;
            declinePending();
        }
    }

    private void process(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            serve();
            if (idle()) {
                input.rewind(consumer);
                return;
            }
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            if (input.pastEnd(partition, record.offset())) {
                continue;
            }
            for (SourceFunction.Output output : function.apply(record)) {
                int target = Partitioning.forKey(output.key(), outputPartitions,
                        config.downstreamMaxParallelism(), config.subtask());
                send(KitRecords.data(config.outputTopic(), target, output.key(), output.value(), config.subtask(),
                        generation));
            }
            input.processed(partition, record.offset());
        }
        input.batchDone(consumer);
    }

    /**
     * Whether the loop reads nothing now: paused at a stop, the input ended, a bounded input exhausted, or no input
     * partition is this subtask's (more subtasks than partitions).
     */
    private boolean idle() {
        return stop.idle() || input.exhausted() || input.none();
    }

    private void serve() {
        PendingSnapshot next;
        while ((next = requests.poll()) != null) {
            take(next);
        }
    }

    /** Barriers, flush, state file; a failed send stops the loop, a failed state file only declines. */
    private void take(PendingSnapshot pending) {
        SnapshotRequest request = pending.request();
        if (lineage.behind(request.latestCompletedId())) {
            IllegalStateException behind = new IllegalStateException(lineage.behindMessage("source " + name(),
                    request.latestCompletedId()));
            pending.result().completeExceptionally(behind);
            throw behind;
        }
        try {
            Alignment alignment = Alignment.fromTrigger(request.options().alignment());
            KitRecords.barriers(config.outputTopic(), outputPartitions, request.checkpointId(), config.subtask(),
                    generation, alignment).forEach(this::send);
            producer.flush();
            throwIfFailed();
        } catch (RuntimeException e) {
            pending.result().completeExceptionally(e);
            throw e;
        }
        CheckpointOptions options = request.options();
        boolean ended = stop.snapshot(request.checkpointId(), options);
        if (options.synchronous()) {
            LOG.info("Source {}: stop with savepoint {}{}: reads nothing more unless the stop fails", name(),
                    request.checkpointId(), options.drain() ? " and drain: the input ends at its barrier" : "");
        }
        try {
            String location = config.storage().resolve(request.storageLocation(), config.stateFileName());
            long size = SourceStateCodec.write(config.storage(), location, state(request.checkpointId(), ended));
            lineage.taken(request.checkpointId(), location);
            boolean finished = input.exhausted();
            LOG.debug("Source {}: snapshot of checkpoint {} at {} in {}{}", name(), request.checkpointId(),
                    input, location, finished ? " (input exhausted: finished)" : "");
            pending.result().complete((finished ? SnapshotResult.finishedWith(location, size)
                    : SnapshotResult.of(location, size)).withOperatorStateMode(OperatorStateMode.UNION));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Source {}: declined checkpoint {}: {}", name(), request.checkpointId(), e.toString());
            pending.result().completeExceptionally(e);
        }
    }

    private SourceState state(long checkpointId, boolean ended) {
        return new SourceState(config.taskId(), config.subtask(), checkpointId, generation, config.inputTopic(),
                input.byPartition(), ended);
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        producer.send(record, (metadata, error) -> {
            if (error != null && failure.compareAndSet(null, error)) {
                LOG.error("Source {}: a send to {} failed; the task stops", name(), record.topic(), error);
            }
        });
    }

    private void throwIfFailed() {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("source " + name() + " stopped: " + failed, failed);
        }
    }

    private void fail(Throwable e) {
        if (failure.compareAndSet(null, e)) {
            LOG.error("Source {} stopped", name(), e);
        }
    }

    private void declinePending() {
        PendingSnapshot pending;
        while ((pending = requests.poll()) != null) {
            Throwable cause = failure.get();
            pending.result().completeExceptionally(new IllegalStateException("source " + name() + " is not running"
                    + (cause == null ? "" : ": " + cause), cause));
        }
    }

    private void closeClients() {
        if (consumer != null) {
            consumer.close();
        }
        if (producer != null) {
            producer.close();
        }
    }

    private String name() {
        return config.taskId() + "-" + config.subtask();
    }

    /** A snapshot request waiting for the loop. */
    private record PendingSnapshot(SnapshotRequest request, CompletableFuture<SnapshotResult> result) {}
}
