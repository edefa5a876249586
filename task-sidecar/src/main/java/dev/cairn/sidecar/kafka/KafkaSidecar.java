package dev.cairn.sidecar.kafka;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.auth.SigningSerializer;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.sidecar.core.AckEvents;
import dev.cairn.sidecar.core.RestorePoints;
import dev.cairn.sidecar.core.SidecarAction;
import dev.cairn.sidecar.core.SidecarCore;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.kafka.StartupReads.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
 * starting position; read the job's partition of {@code cairn.completed} to its end and hand the worker its
 * restore point ({@link SnapshotHook#restore}); publish {@code TaskStarted} with a fresh attempt id (a UUID) to
 * {@code cairn.acks}. Taking the position before registering means no trigger that plans the new attempt can
 * be missed; older triggers belong to earlier attempts.
 *
 * <p>Then one thread polls the control partition (committed records only), skips other jobs' records, and
 * feeds the core; the core's actions run on a {@link HookRunner} (snapshots and notifications on their own
 * threads) and through an idempotent producer ({@code acks=all}) that publishes acks and declines to
 * {@code cairn.acks}, keyed by job id. In: {@code cairn.control}, {@code cairn.completed}. Out:
 * {@code cairn.acks}.
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
    private final AvroEventSerde<ControlEnvelope> controlSerde = CairnSerdes.control();
    private final Thread loop;
    private final Optional<RestorePoint> restoredFrom;
    private volatile boolean running = true;
    private boolean closed;

    private KafkaSidecar(RuntimeSettings settings, SnapshotHook hook, Clock clock, TaskAttempt attempt,
            KafkaConsumer<String, byte[]> control, KafkaProducer<String, AckEnvelope> producer,
            Optional<RestorePoint> restoredFrom) {
        this.settings = settings;
        this.clock = clock;
        this.core = new SidecarCore(attempt, settings.snapshotTimeout());
        this.control = control;
        this.producer = producer;
        this.restoredFrom = restoredFrom;
        this.hooks = new HookRunner(hook, settings.name(), new HookRunner.Outcomes() {
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
        this.loop = new Thread(this::pollControl, "cairn-sidecar-" + settings.name());
        this.loop.setDaemon(true);
    }

    /** Starts a sidecar on the system clock; see {@link #start(RuntimeSettings, SnapshotHook, Clock)}. */
    public static KafkaSidecar start(RuntimeSettings settings, SnapshotHook hook) {
        return start(settings, hook, Clock.systemUTC());
    }

    /**
     * Positions on the control topic, restores the worker, registers a new attempt and starts consuming.
     * Returns once the attempt is registered; the hook is not closed by the sidecar.
     *
     * @throws IllegalStateException when a topic is missing, the worker's restore fails, or the registration
     *         is not acknowledged by the broker within the start-up timeout
     */
    public static KafkaSidecar start(RuntimeSettings settings, SnapshotHook hook, Clock clock) {
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
            StartupReads.RestoreRecords records = StartupReads.restoreRecords(settings, deadline);
            Optional<RestorePoint> restorePoint = RestorePoints.latest(records.retained(), records.parts().values(),
                    settings.taskId(), settings.subtaskIndex());
            restore(hook, settings, restorePoint);
            producer = new KafkaProducer<>(KafkaClients.producer(settings), new StringSerializer(),
                    settings.authKey() == null ? CairnSerdes.acks().serializer()
                            : new SigningSerializer<>(CairnSerdes.acks().serializer(), settings.authKey()));
            TaskAttempt attempt = new TaskAttempt(settings.jobId(), settings.taskId(), settings.subtaskIndex(),
                    UUID.randomUUID().toString());
            register(producer, settings, attempt, clock, deadline);
            KafkaSidecar sidecar = new KafkaSidecar(settings, hook, clock, attempt, control, producer, restorePoint);
            sidecar.loop.start();
            LOG.info("Sidecar of {} started: consuming {} from offset {}", attempt, partition, from);
            return sidecar;
        } catch (RuntimeException e) {
            control.close();
            if (producer != null) {
                producer.close(Duration.ZERO);
            }
            throw e;
        }
    }

    private static void restore(SnapshotHook hook, RuntimeSettings settings, Optional<RestorePoint> point) {
        LOG.info("Restoring task {} subtask {} of job {} from {}", settings.taskId(), settings.subtaskIndex(),
                settings.jobId(), point.map(p -> "checkpoint " + p.checkpointId() + " (" + p.location() + ")")
                        .orElse("nothing (fresh start)"));
        try {
            hook.restore(point);
        } catch (Exception e) {
            throw new IllegalStateException("the worker's restore from " + point.map(RestorePoint::location)
                    .orElse("nothing") + " failed: " + e.getMessage(), e);
        }
    }

    private static void register(KafkaProducer<String, AckEnvelope> producer, RuntimeSettings settings,
            TaskAttempt attempt, Clock clock, Deadline deadline) {
        try {
            producer.send(new ProducerRecord<>(settings.topics().acks(), settings.jobId(),
                    new AckEnvelope(AckEvents.started(attempt, clock.millis()))))
                    .get(deadline.remaining().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not register " + attempt + " on " + settings.topics().acks()
                    + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while registering " + attempt, e);
        }
    }

    /** The attempt this sidecar registered. */
    public TaskAttempt attempt() {
        return core.attempt();
    }

    /** What the worker was handed to restore from at start. */
    public Optional<RestorePoint> restoredFrom() {
        return restoredFrom;
    }

    /** Whether the sidecar still consumes control events. */
    public boolean isRunning() {
        return running && loop.isAlive();
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
                        LOG.warn("Skipping unreadable control record at offset {}: {}", record.offset(), e.getMessage());
                        continue;
                    }
                    dispatch(c -> c.onControl(envelope.getEvent(), clock.millis()));
                }
            }
        } catch (WakeupException e) {
            LOG.debug("Control consumer of {} woken up to stop", settings.name());
        } catch (RuntimeException e) {
            LOG.error("The sidecar of {} stopped consuming {}", core.attempt(), topic, e);
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
        for (SidecarAction action : input.apply(core)) {
            perform(action);
        }
    }

    private void perform(SidecarAction action) {
        TaskAttempt attempt = core.attempt();
        if (action instanceof SidecarAction.StartSnapshot start) {
            LOG.info("Snapshotting checkpoint {} ({}) for {}", start.request().checkpointId(),
                    start.request().type(), attempt);
            hooks.snapshot(start.request(), Duration.ofMillis(start.deadlineMs() - clock.millis()));
        } else if (action instanceof SidecarAction.CancelSnapshot cancel) {
            LOG.info("Cancelling the snapshot of checkpoint {} for {}", cancel.checkpointId(), attempt);
            hooks.cancel(cancel.checkpointId());
        } else if (action instanceof SidecarAction.PublishAck ack) {
            LOG.info("Acknowledging checkpoint {} for {} ({} bytes at {})", ack.ack().getCheckpointId(), attempt,
                    ack.ack().getStateHandle().getSizeBytes(), ack.ack().getStateHandle().getLocation());
            publish(new AckEnvelope(ack.ack()), ack.ack().getCheckpointId());
        } else if (action instanceof SidecarAction.PublishDecline decline) {
            LOG.info("Declining checkpoint {} for {}: {} {}", decline.decline().getCheckpointId(), attempt,
                    decline.decline().getReason(), decline.decline().getMessage());
            publish(new AckEnvelope(decline.decline()), decline.decline().getCheckpointId());
        } else if (action instanceof SidecarAction.NotifyComplete complete) {
            hooks.notifyComplete(complete.checkpointId(), complete.lastSubsumedId());
        } else if (action instanceof SidecarAction.NotifyAborted aborted) {
            hooks.notifyAborted(aborted.checkpointId(), aborted.latestCompletedId());
        } else if (action instanceof SidecarAction.SnapshotSkipped skipped) {
            LOG.info("Skipping the snapshot of checkpoint {} for {}: {}", skipped.checkpointId(), attempt,
                    skipped.why());
        }
    }

    private void publish(AckEnvelope envelope, long checkpointId) {
        try {
            producer.send(new ProducerRecord<>(settings.topics().acks(), settings.jobId(), envelope),
                    (metadata, error) -> {
                        if (error != null) {
                            LOG.error("Could not publish the answer to checkpoint {} of {}: {}", checkpointId,
                                    core.attempt(), error.toString());
                        }
                    });
        } catch (KafkaException e) {
            LOG.error("Could not publish the answer to checkpoint {} of {}: {}", checkpointId, core.attempt(),
                    e.toString());
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
        LOG.info("Sidecar of {} stopped", core.attempt());
    }
}
