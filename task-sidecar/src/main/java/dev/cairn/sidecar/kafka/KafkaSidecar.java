package dev.cairn.sidecar.kafka;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.StateHandle;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.metrics.logging.JobLogContext;
import dev.cairn.sidecar.core.Participant;
import dev.cairn.sidecar.core.SidecarAction;
import dev.cairn.sidecar.core.SidecarCore;
import dev.cairn.sidecar.core.SidecarIdentity;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.kafka.StartupReads.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.avro.message.SchemaStore;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running sidecar: the thin Kafka shell around {@link SidecarCore}.
 *
 * <p>Start-up, in this order: assign the job's partition of {@code cairn.control} and take its end as the
 * starting position; look back on that partition over the last few minutes before the position
 * ({@link StartupReads#CONTROL_LOOKBACK}) for the job's completions and discards; read the job's partition of
 * {@code cairn.completed} to its end and hand the worker its restore point with its attempt's number
 * ({@link SnapshotHook#restore(Optional, dev.cairn.sidecar.hook.AttemptNumber)}), the offset of the attempt's
 * registration: {@code TaskStarted} with a fresh attempt id (a UUID), published to {@code cairn.acks} before the
 * restore point is read. The number orders the job's attempts whatever the hosts' clocks say, so that a worker can
 * number its incarnations by it (the worker kit's generations). Taking the position before registering
 * means no trigger that plans the new attempt can be missed; older triggers belong to earlier attempts. Taking it
 * before reading the restore point means no completion after the restore point can be missed either: the core
 * starts from the restore point's checkpoint and raises it with every completion it reads, and each snapshot
 * request carries that newest completed checkpoint ({@link dev.cairn.sidecar.hook.SnapshotRequest#latestCompletedId}),
 * so that a worker restored from an older one declines.
 *
 * <p>The look-back covers the one gap left: the coordinator writes a completion to {@code cairn.control} and its
 * restore point to {@code cairn.completed} in one transaction, but Kafka makes it visible partition by partition, so
 * during a leader change a completion can be visible before the sidecar's position while {@code cairn.completed}
 * still shows the restore point before it. The sidecar never restores a point older than such a completion
 * ({@link dev.cairn.sidecar.core.RestoreCheck}): when control shows a newer checkpoint (or stop-with-savepoint)
 * completed, it reads {@code cairn.completed} again until it shows that one, and fails the start-up with a message
 * naming both if it does not by the start-up timeout. Either way the core counts the newest completion seen on
 * control ({@link SidecarCore#completedBeforeStart}), so the first snapshot request knows it.
 *
 * <p>The look-back also catches up on discards: the states the coordinator discarded while no sidecar of this
 * subtask ran are handed to the worker once it restored ({@link SidecarCore#discardedBeforeStart}); discards older
 * than the look-back are not.
 *
 * <p>A participant sidecar (a coordinator-side participant of the job, see {@link Participant}) starts the same
 * way, but restores from its entry in the newest retained checkpoint's participant states and registers
 * nothing: it has no attempt.
 *
 * <p>Then one thread polls the control partition (committed records only), skips other jobs' records, and
 * feeds the core; the core's actions run on a {@link HookRunner} (snapshots on their own thread, notifications
 * and discards on another) and through an idempotent producer ({@code acks=all}) that publishes acks, declines,
 * the participant's answers and {@code TaskFinished} to {@code cairn.acks}, keyed by job id. A
 * {@code TaskStartRejected} of this attempt makes it announce itself again, started after the subtask's current
 * attempt ({@link SidecarCore#onStartRejected}). In: {@code cairn.control}, {@code cairn.completed}. Out:
 * {@code cairn.acks}.
 *
 * <p>Records of other releases ({@link SidecarSchemas}): while it reads the restore point it publishes the schema of
 * its acks to {@code cairn.schemas}, and waits for that before it writes its first record, so that a coordinator of
 * an earlier release finds the schema there; it decodes control and completed records with the schemas a
 * coordinator of a later release published there as fallback.
 */
public final class KafkaSidecar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSidecar.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final RuntimeSettings settings;
    private final Clock clock;
    private final SidecarCore core;
    private final KafkaConsumer<String, byte[]> control;
    private final KafkaProducer<String, AckEnvelope> producer;
    private final HookRunner hooks;
    private final AvroEventSerde<ControlEnvelope> controlSerde;
    private final Thread loop;
    private final Optional<RestorePoint> restoredFrom;
    private volatile boolean running = true;
    /** Why the sidecar stopped consuming on its own, {@code null} while it runs or when it was closed. */
    private volatile String stopReason;
    private boolean closed;
    /** The send of {@code TaskFinished}, once the subtask finished. */
    private Future<RecordMetadata> finishedSend;

    private KafkaSidecar(RuntimeSettings settings, SnapshotHook hook, Clock clock, SidecarIdentity identity,
            KafkaConsumer<String, byte[]> control, KafkaProducer<String, AckEnvelope> producer,
            Optional<RestorePoint> restoredFrom, SchemaStore schemas) {
        this.settings = settings;
        this.controlSerde = CairnSerdes.forEnvelope(ControlEnvelope.class, schemas);
        this.clock = clock;
        this.core = new SidecarCore(identity, settings.snapshotTimeout(), restoredFrom);
        this.control = control;
        this.producer = producer;
        this.restoredFrom = restoredFrom;
        this.hooks = new HookRunner(hook, settings.name(), settings.jobId(), new HookRunner.Outcomes() {
            @Override
            public void succeeded(long checkpointId, SnapshotResult result) {
                dispatch(c -> c.onSnapshotSucceeded(checkpointId, result, clock.millis()));
            }

            @Override
            public void failed(long checkpointId, Throwable error) {
                dispatch(c -> c.onSnapshotFailed(checkpointId, error, clock.millis()));
            }

            @Override
            public void timedOut(long checkpointId) {
                dispatch(c -> c.onSnapshotTimedOut(checkpointId, clock.millis()));
            }
        });
        this.loop = new Thread(() -> {
            JobLogContext.forThread(settings.jobId());
            pollControl();
        }, "cairn-sidecar-" + settings.name());
        this.loop.setDaemon(true);
    }

    /** Starts a sidecar on the system clock; see {@link #start(RuntimeSettings, SnapshotHook, Clock)}. */
    public static KafkaSidecar start(RuntimeSettings settings, SnapshotHook hook) {
        return start(settings, hook, Clock.systemUTC());
    }

    /**
     * Positions on the control topic, restores the worker, registers a new attempt (a task sidecar) and starts
     * consuming. Returns once the attempt is registered; the hook is not closed by the sidecar.
     *
     * @throws IllegalStateException when a topic is missing, the worker's restore fails, or the registration
     *         is not acknowledged by the broker within the start-up timeout
     */
    public static KafkaSidecar start(RuntimeSettings settings, SnapshotHook hook, Clock clock) {
        try (JobLogContext.Scope job = JobLogContext.of(settings.jobId())) {
            return startFor(settings, hook, clock);
        }
    }

    private static KafkaSidecar startFor(RuntimeSettings settings, SnapshotHook hook, Clock clock) {
        Deadline deadline = Deadline.after(settings.startupTimeout());
        KafkaConsumer<String, byte[]> control = new KafkaConsumer<>(KafkaClients.consumer(settings, "control"),
                new StringDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<String, AckEnvelope> producer = null;
        try {
            TopicPartition partition = StartupReads.partitionFor(control, settings.topics().control(),
                    settings.jobId(), deadline);
            control.assign(List.of(partition));
            control.seekToEnd(List.of(partition));
            long from = control.position(partition, deadline.remaining());
            CompletableFuture<Void> published = SidecarSchemas.publish(settings);
            SchemaStore schemas = SidecarSchemas.catalog(settings);
            SidecarIdentity identity = settings.isParticipant()
                    ? new Participant(settings.jobId(), settings.participant())
                    : new TaskAttempt(settings.jobId(), settings.taskId(), settings.subtaskIndex(),
                            UUID.randomUUID().toString(), HostNames.orLocal(settings.host()));
            published.join();
            producer = new KafkaProducer<>(KafkaClients.producer(settings), new StringSerializer(),
                    AckSerializers.of(settings, Clock.systemUTC(), ReloadingKeyFile.CHECK_INTERVAL));
            Optional<Startup.Registered> registered = identity instanceof TaskAttempt attempt
                    ? Optional.of(Startup.register(producer, settings, attempt, clock, deadline)) : Optional.empty();
            Startup.Restored restored = Startup.restoreOrReport(hook, settings,
                    StartupReads.source(settings, control, partition, from, deadline, schemas, clock), deadline,
                    registered.map(Startup.Registered::number), producer, identity, clock);
            long startedAtMs = registered.map(Startup.Registered::startedAtMs).orElse(0L);
            KafkaSidecar sidecar = new KafkaSidecar(settings, hook, clock, identity, control, producer,
                    restored.point(), schemas);
            sidecar.core.completedBeforeStart(restored.latestCompletedOnControl());
            sidecar.core.restoredFrom(restored.point().map(RestorePoint::checkpointId).orElse(-1L));
            sidecar.core.announced(startedAtMs);
            sidecar.dispatch(c -> c.discardedBeforeStart(restored.discardsOnControl()));
            sidecar.loop.start();
            LOG.info("Sidecar of {} started: consuming {} from offset {}", identity, partition, from);
            return sidecar;
        } catch (RuntimeException e) {
            control.close();
            if (producer != null) {
                producer.close(Duration.ZERO);
            }
            throw e;
        }
    }

    /** The attempt or participant this sidecar stands for. */
    public SidecarIdentity identity() {
        return core.identity();
    }

    /** The attempt this sidecar registered; an {@link IllegalStateException} for a participant. */
    public TaskAttempt attempt() {
        return core.attempt();
    }

    /**
     * The worker finished for good (its input was bounded): publishes {@code TaskFinished} with this attempt's
     * final state, once, and takes no further snapshot (the coordinator stops triggering the subtask and counts it
     * as acknowledged). Waits (up to the start-up timeout) until the broker has the record; a later call, or a
     * call after the worker answered a snapshot with a finished result, waits for that same record.
     *
     * @throws IllegalStateException for a participant, when the sidecar is closed, or when the record is not
     *         written in time
     */
    public void finish(Optional<StateHandle> finalState) {
        Future<RecordMetadata> sent;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the sidecar of " + core.identity() + " is closed");
            }
            for (SidecarAction action : core.onFinish(finalState, clock.millis())) {
                perform(action);
            }
            sent = finishedSend;
        }
        try {
            sent.get(settings.startupTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not publish the end of " + core.identity() + " to "
                    + settings.topics().acks() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing the end of " + core.identity(), e);
        }
    }

    /** Whether the subtask finished ({@code TaskFinished} published or on its way). */
    public synchronized boolean isFinished() {
        return core.isFinished();
    }

    /** Whether a stop-with-savepoint completed: the sidecar takes no further snapshot. */
    public synchronized boolean isStopping() {
        return core.isStopping();
    }

    /** What the worker was handed to restore from at start. */
    public Optional<RestorePoint> restoredFrom() {
        return restoredFrom;
    }

    /** Whether the sidecar still consumes control events. */
    public boolean isRunning() {
        return running && loop.isAlive();
    }

    /**
     * Whether the control consumer hears from the cluster: it had a fetch response within its metrics window (the
     * {@code fetch-rate} of its last {@code metrics.num.samples} windows of {@code metrics.sample.window.ms}, 30 to
     * 60 s by default). It fetches all the time (every {@code fetch.max.wait.ms}), records or not.
     */
    public boolean isConnected() {
        try {
            return control.metrics().entrySet().stream()
                    .filter(e -> e.getKey().name().equals("fetch-rate")
                            && e.getKey().group().equals("consumer-fetch-manager-metrics"))
                    .anyMatch(e -> e.getValue().metricValue() instanceof Double rate && rate > 0);
        } catch (RuntimeException e) {
            LOG.debug("Could not read the metrics of the control consumer of {}", settings.name(), e);
            return false;
        }
    }

    /**
     * Why the sidecar stopped consuming control events on its own (the job fell back from the point its worker
     * restored), if it did: the worker must be restarted with it.
     */
    public Optional<String> stopReason() {
        return Optional.ofNullable(stopReason);
    }

    private void pollControl() {
        String topic = settings.topics().control();
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> record : pollOnce()) {
                    if (!settings.jobId().equals(record.key()) || record.value() == null) {
                        continue;
                    }
                    ControlEnvelope envelope;
                    try {
                        envelope = controlSerde.deserialize(topic, record.value());
                    } catch (EventDecodingException e) {
                        LOG.warn("Skipping unreadable control record at offset {}: {}", record.offset(),
                                e.getMessage());
                        continue;
                    }
                    dispatch(c -> c.onControl(envelope.getEvent(), clock.millis()));
                }
            }
        } catch (WakeupException e) {
            LOG.debug("Control consumer of {} woken up to stop", settings.name());
        } catch (RuntimeException e) {
            LOG.error("The sidecar of {} stopped consuming {}", core.identity(), topic, e);
        } finally {
            running = false;
            control.close();
        }
    }

    private Iterable<ConsumerRecord<String, byte[]>> pollOnce() {
        try {
            return control.poll(POLL);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            LOG.warn("Polling {} failed; retrying in a second", settings.topics().control(), e);
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                running = false;
            }
            return List.of();
        }
    }

    /** Feeds one input to the core and carries out its actions, one input at a time. */
    private synchronized void dispatch(Function<SidecarCore, List<SidecarAction>> input) {
        if (closed) {
            return;
        }
        try (JobLogContext.Scope job = JobLogContext.of(settings.jobId())) {
            for (SidecarAction action : input.apply(core)) {
                perform(action);
            }
        }
    }

    private void perform(SidecarAction action) {
        if (!publishAnswer(action)) {
            callHooks(action);
        }
    }

    /** Publishes what the core answers the coordinator; {@code false} when {@code action} publishes nothing. */
    private boolean publishAnswer(SidecarAction action) {
        SidecarIdentity who = core.identity();
        if (action instanceof SidecarAction.PublishAck ack) {
            LOG.info("Acknowledging checkpoint {} for {} ({} bytes at {})", ack.ack().getCheckpointId(), who,
                    ack.ack().getStateHandle().getSizeBytes(), ack.ack().getStateHandle().getLocation());
            publish(new AckEnvelope(ack.ack()), "the answer to checkpoint " + ack.ack().getCheckpointId());
        } else if (action instanceof SidecarAction.PublishDecline decline) {
            LOG.info("Declining checkpoint {} for {}: {} {}", decline.decline().getCheckpointId(), who,
                    decline.decline().getReason(), decline.decline().getMessage());
            publish(new AckEnvelope(decline.decline()), "the answer to checkpoint "
                    + decline.decline().getCheckpointId());
        } else if (action instanceof SidecarAction.PublishParticipantAck ack) {
            LOG.info("Acknowledging checkpoint {} for {} ({})", ack.ack().getCheckpointId(), who,
                    ack.ack().getState() == null ? "no state" : ack.ack().getState().getSizeBytes() + " bytes at "
                            + ack.ack().getState().getLocation());
            publish(new AckEnvelope(ack.ack()), "the answer to checkpoint " + ack.ack().getCheckpointId());
        } else if (action instanceof SidecarAction.PublishParticipantDecline decline) {
            LOG.info("Declining checkpoint {} for {}: {} {}", decline.decline().getCheckpointId(), who,
                    decline.decline().getReason(), decline.decline().getMessage());
            publish(new AckEnvelope(decline.decline()), "the answer to checkpoint "
                    + decline.decline().getCheckpointId());
        } else if (action instanceof SidecarAction.PublishStarted started) {
            LOG.warn("The coordinator did not take the start of {}: its current attempt started no earlier (a clock"
                    + " behind, or a replay); announcing it again, started at {}", who,
                    started.started().getTimestampMs());
            publish(new AckEnvelope(started.started()), "the start");
        } else if (action instanceof SidecarAction.PublishFinished finished) {
            LOG.info("{} finished (final state: {}); no further snapshots", who,
                    finished.finished().getFinalState() == null ? "none" : finished.finished().getFinalState());
            finishedSend = publish(new AckEnvelope(finished.finished()), "the end");
        } else {
            return false;
        }
        return true;
    }

    /** Carries out an action that the task's hooks take (snapshot, cancel, notify, discard) or that is only logged. */
    private void callHooks(SidecarAction action) {
        SidecarIdentity who = core.identity();
        if (action instanceof SidecarAction.StartSnapshot start) {
            LOG.info("Snapshotting checkpoint {} ({}) for {}", start.request().checkpointId(),
                    start.request().type(), who);
            hooks.snapshot(start.request(), Duration.ofMillis(start.deadlineMs() - clock.millis()));
        } else if (action instanceof SidecarAction.CancelSnapshot cancel) {
            LOG.info("Cancelling the snapshot of checkpoint {} for {}", cancel.checkpointId(), who);
            hooks.cancel(cancel.checkpointId());
        } else if (action instanceof SidecarAction.NotifyComplete complete) {
            if (complete.stopping()) {
                LOG.info("Stop-with-savepoint {} completed{}: {} takes no further snapshots", complete.checkpointId(),
                        complete.drain() ? " (drained)" : "", who);
            }
            hooks.notifyComplete(new CheckpointCompletion(complete.checkpointId(), complete.lastSubsumedId(),
                    complete.stopping(), complete.drain()));
        } else if (action instanceof SidecarAction.NotifyAborted aborted) {
            hooks.notifyAborted(new CheckpointAbort(aborted.checkpointId(), aborted.latestCompletedId(),
                    aborted.stopFailed()));
        } else if (action instanceof SidecarAction.DiscardState discard) {
            LOG.info("Handing {} the {}state {} of checkpoint {} that the coordinator discarded ({})", who,
                    discard.state().shared() ? "shared " : "", discard.state().location(),
                    discard.state().checkpointId(), discard.state().cause());
            hooks.discardState(discard.state());
        } else if (action instanceof SidecarAction.SnapshotSkipped skipped) {
            LOG.info("Skipping the snapshot of checkpoint {} for {}: {}", skipped.checkpointId(), who,
                    skipped.why());
        } else if (action instanceof SidecarAction.Restart restart) {
            LOG.error("The sidecar of {} stops: {}", who, restart.why());
            stopReason = restart.why();
            running = false;
        }
    }

    private Future<RecordMetadata> publish(AckEnvelope envelope, String what) {
        try {
            return producer.send(new ProducerRecord<>(settings.topics().acks(), settings.jobId(), envelope),
                    (metadata, error) -> {
                        if (error != null) {
                            LOG.error("Could not publish {} of {}: {}", what, core.identity(), error.toString());
                        }
                    });
        } catch (KafkaException e) {
            LOG.error("Could not publish {} of {}: {}", what, core.identity(), e.toString());
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Stops consuming, interrupts a running snapshot (its outcome is no longer published), delivers the
     * notifications already received, and flushes the acks already handed to the producer. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        running = false;
        try {
            control.wakeup();
        } catch (IllegalStateException alreadyClosed) {
            LOG.debug("Control consumer of {} already closed", settings.name());
        }
        try {
            loop.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        hooks.close();
        producer.close(Duration.ofSeconds(10));
        LOG.info("Sidecar of {} stopped", core.identity());
    }
}
