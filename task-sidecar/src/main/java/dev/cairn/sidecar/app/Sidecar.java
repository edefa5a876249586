package dev.cairn.sidecar.app;

import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.kafka.KafkaSidecar;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task sidecar, embeddable as a library: {@code Sidecar.start(config, hook)} registers a new attempt of the
 * configured subtask and serves the hook until {@link #close()}.
 *
 * <p>In: {@code <prefix>control} (the job's triggers and notifications, from the end at start-up) and
 * {@code <prefix>completed} (read once at start-up for the restore point). Out: {@code <prefix>acks}
 * ({@code TaskStarted}, then one ack or decline per planned checkpoint), keyed by job id.
 *
 * <pre>{@code
 * try (Sidecar sidecar = Sidecar.start(SidecarConfig.forTask("localhost:9092", "orders", "sink", 0), myHook)) {
 *     ... // the worker runs; sidecar.attemptId() is the attempt the coordinator plans with
 * }
 * }</pre>
 */
public final class Sidecar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Sidecar.class);

    private final SidecarConfig config;
    private final KafkaSidecar running;
    private final SnapshotHook ownedHook;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Sidecar(SidecarConfig config, KafkaSidecar running, SnapshotHook ownedHook) {
        this.config = config;
        this.running = running;
        this.ownedHook = ownedHook;
    }

    /**
     * Starts a sidecar for {@code hook}, which stays the caller's: closing the sidecar does not close it.
     * Returns once the worker has been handed its restore point and the new attempt is registered.
     *
     * @throws IllegalStateException when the topics do not exist in time, the restore fails, or the
     *         registration is not acknowledged within the start-up timeout
     */
    public static Sidecar start(SidecarConfig config, SnapshotHook hook) {
        return new Sidecar(config, KafkaSidecar.start(config.runtimeSettings(), hook), null);
    }

    /**
     * Starts a sidecar with the hook its configuration names (see {@link HookFactory}); the hook is closed with
     * the sidecar.
     *
     * @throws SidecarConfigException when the hook cannot be created
     */
    public static Sidecar start(SidecarConfig config) {
        SnapshotHook hook = HookFactory.create(config);
        try {
            return new Sidecar(config, KafkaSidecar.start(config.runtimeSettings(), hook), hook);
        } catch (RuntimeException e) {
            closeQuietly(hook);
            throw e;
        }
    }

    /** The id of the attempt this sidecar registered (a UUID). */
    public String attemptId() {
        return running.attempt().attemptId();
    }

    /** The job, task, subtask and attempt this sidecar stands for. */
    public TaskAttempt attempt() {
        return running.attempt();
    }

    /** What the worker was handed to restore from at start-up. */
    public Optional<RestorePoint> restoredFrom() {
        return running.restoredFrom();
    }

    /** Whether it still consumes control events. */
    public boolean isRunning() {
        return running.isRunning();
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
        running.close();
        if (ownedHook != null) {
            closeQuietly(ownedHook);
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
