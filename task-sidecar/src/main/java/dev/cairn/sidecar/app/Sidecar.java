package dev.cairn.sidecar.app;

import dev.cairn.events.StateHandle;
import dev.cairn.sidecar.core.SidecarIdentity;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.kafka.KafkaSidecar;
import dev.cairn.sidecar.metrics.MetricsServer;
import dev.cairn.sidecar.metrics.SidecarMetrics;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task sidecar, embeddable as a library: {@code Sidecar.start(config, hook)} registers a new attempt of the
 * configured subtask and serves the hook until {@link #close()}. Configured with a participant
 * ({@link SidecarConfig#forParticipant}), it runs as that coordinator-side participant of the job instead: it
 * registers nothing and answers the {@code ParticipantsTriggered} that name it. With
 * {@link SidecarConfig#metricsPort()} set, it serves {@code GET /metrics} ({@link SidecarMetrics}) there, and
 * {@code GET /health}: 200 while it is connected and runs its hook loop, 503 with the reason otherwise.
 *
 * <p>In: {@code <prefix>control} (the job's triggers, notifications and discarded acks, from the end at
 * start-up) and {@code <prefix>completed} (read once at start-up for the restore point). Out:
 * {@code <prefix>acks} ({@code TaskStarted}, then one ack or decline per planned checkpoint, and
 * {@code TaskFinished} once the worker {@link #finish finished}; for a participant,
 * {@code ParticipantAcknowledged} or {@code ParticipantDeclined}), keyed by job id, and, once at start-up, the
 * schema of those records to {@code <prefix>schemas}, where a coordinator of an earlier release finds it (and
 * from where this one reads the schemas of a later coordinator's records).
 *
 * <pre>{@code
 * try (Sidecar sidecar = Sidecar.start(SidecarConfig.forTask("localhost:9092", "orders", "sink", 0), myHook)) {
 *     ... // the worker runs; sidecar.attemptId() is the attempt the coordinator plans with
 *     sidecar.finish(Optional.of(finalState)); // bounded input: exhausted, no further snapshots
 * }
 * }</pre>
 */
public final class Sidecar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Sidecar.class);

    private final SidecarConfig config;
    private final KafkaSidecar running;
    private final SnapshotHook ownedHook;
    private final Metrics metrics;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Sidecar(SidecarConfig config, KafkaSidecar running, SnapshotHook ownedHook, Metrics metrics) {
        this.config = config;
        this.running = running;
        this.ownedHook = ownedHook;
        this.metrics = metrics;
    }

    /**
     * The sidecar's metrics, its health and their endpoint, when {@link SidecarConfig#metricsPort()} is set. The
     * endpoint is up before the sidecar starts, so that {@code GET /health} says it is starting.
     */
    private record Metrics(SidecarMetrics registry, HealthCheck health, MetricsServer server)
            implements AutoCloseable {

        /** Serves the metrics and health of {@code config}, or none when it sets no port. */
        static Optional<Metrics> of(SidecarConfig config) {
            if (config.metricsPort() == null) {
                return Optional.empty();
            }
            SidecarMetrics registry = new SidecarMetrics();
            HealthCheck health = new HealthCheck();
            try {
                return Optional.of(new Metrics(registry, health, MetricsServer.start(registry, health,
                        config.metricsBindAddress(), config.metricsPort())));
            } catch (RuntimeException e) {
                registry.close();
                throw e;
            }
        }

        SnapshotHook instrument(SnapshotHook hook) {
            return registry.instrument(hook);
        }

        @Override
        public void close() {
            server.close();
            registry.close();
        }
    }

    /** Starts the Kafka side with {@code hook}, timed and counted when the config asks for metrics. */
    private static Sidecar run(SidecarConfig config, SnapshotHook hook, SnapshotHook ownedHook) {
        Optional<Metrics> metrics = Metrics.of(config);
        try {
            SnapshotHook served = metrics.map(m -> m.instrument(hook)).orElse(hook);
            KafkaSidecar running = KafkaSidecar.start(config.runtimeSettings(), served);
            metrics.ifPresent(m -> m.health().started(HealthCheck.Loop.of(running)));
            return new Sidecar(config, running, ownedHook, metrics.orElse(null));
        } catch (RuntimeException e) {
            metrics.ifPresent(Metrics::close);
            throw e;
        }
    }

    /** The port of {@code GET /metrics} and {@code GET /health}, when the config asks for metrics. */
    public Optional<Integer> metricsPort() {
        return Optional.ofNullable(metrics).map(m -> m.server().port());
    }

    /**
     * Starts a sidecar for {@code hook}, which stays the caller's: closing the sidecar does not close it.
     * Returns once the worker has been handed its restore point and the new attempt is registered.
     *
     * @throws IllegalStateException when the topics do not exist in time, the restore fails, or the
     *         registration is not acknowledged within the start-up timeout
     */
    public static Sidecar start(SidecarConfig config, SnapshotHook hook) {
        return run(config, hook, null);
    }

    /**
     * Starts a sidecar with the hook its configuration names (see {@link HookFactory}); the hook is closed with
     * the sidecar.
     *
     * @throws dev.cairn.config.ConfigProblem when the hook cannot be created
     */
    public static Sidecar start(SidecarConfig config) {
        SnapshotHook hook = HookFactory.create(config);
        try {
            return run(config, hook, hook);
        } catch (RuntimeException e) {
            closeQuietly(hook);
            throw e;
        }
    }

    /** The id of the attempt this sidecar registered (a UUID); an {@link IllegalStateException} for a participant. */
    public String attemptId() {
        return running.attempt().attemptId();
    }

    /**
     * The job, task, subtask and attempt this sidecar stands for; an {@link IllegalStateException} for a participant.
     */
    public TaskAttempt attempt() {
        return running.attempt();
    }

    /** The attempt ({@code TaskAttempt}) or the participant ({@code Participant}) this sidecar stands for. */
    public SidecarIdentity identity() {
        return running.identity();
    }

    /**
     * The worker finished for good (its input was bounded): publishes {@code TaskFinished} with its final state
     * ({@code finalState}, or none), once; from then on the sidecar takes no snapshot, while a notified task is
     * still told how later checkpoints end (the first completion after this one holds the final state). Returns
     * once the broker has the record. Workers behind the HTTP or command hook answer a snapshot with
     * {@code {"finished":true,...}} instead.
     *
     * @throws IllegalStateException for a participant, when closed, or when the record is not written within the
     *         start-up timeout
     */
    public void finish(Optional<StateHandle> finalState) {
        running.finish(finalState);
    }

    /** {@link #finish(Optional)} with a final state at {@code location} of {@code sizeBytes}. */
    public void finish(String location, long sizeBytes) {
        finish(Optional.of(StateHandle.newBuilder().setLocation(location).setSizeBytes(sizeBytes).build()));
    }

    /** Whether the subtask finished: {@link #finish} was called or the worker answered a snapshot so. */
    public boolean isFinished() {
        return running.isFinished();
    }

    /** Whether a stop-with-savepoint of the job completed: the sidecar takes no further snapshot. */
    public boolean isStopping() {
        return running.isStopping();
    }

    /** What the worker was handed to restore from at start-up. */
    public Optional<RestorePoint> restoredFrom() {
        return running.restoredFrom();
    }

    /** Whether it still consumes control events. */
    public boolean isRunning() {
        return running.isRunning();
    }

    /**
     * Why the sidecar stopped consuming control events on its own, if it did: the job fell back from the restore
     * point its worker restored, which must be restarted with it.
     */
    public Optional<String> stopReason() {
        return running.stopReason();
    }

    public SidecarConfig config() {
        return config;
    }

    /**
     * Stops consuming and publishing (see {@link KafkaSidecar#close()}); closes the hook if it created it.
     * Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (metrics != null) {
            metrics.health().closing();
        }
        running.close();
        if (ownedHook != null) {
            closeQuietly(ownedHook);
        }
        if (metrics != null) {
            metrics.close();
        }
    }

    private static void closeQuietly(SnapshotHook hook) {
        try {
            hook.close();
        } catch (Exception e) {
            LOG.warn("Closing the snapshot hook failed", e);
        }
    }
}
