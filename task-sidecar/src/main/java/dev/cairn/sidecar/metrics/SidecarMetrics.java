package dev.cairn.sidecar.metrics;

import dev.cairn.metrics.PrometheusScrape;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.SnapshotHook;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A sidecar's metrics, counted by {@link #instrument wrapping its hook}, in a Prometheus registry:
 *
 * <ul>
 *   <li>{@code cairn_sidecar_snapshots_total{outcome}}: snapshots the worker was asked for, by how they ended:
 *       {@code taken} (a state to acknowledge), {@code finished} (the task finished instead), {@code declined}
 *       (the worker declined: {@code SnapshotDeclinedException}), {@code failed} (the hook threw or its stage
 *       failed), {@code cancelled} (the sidecar gave up on it: the snapshot timed out or the checkpoint was
 *       aborted);</li>
 *   <li>{@code cairn_sidecar_hook_duration_seconds{call, outcome}}: a histogram of how long each call of the
 *       hook took ({@code call}: snapshot, restore, notify_complete, notify_aborted, discard_state;
 *       {@code outcome} as above for snapshots, {@code ok} or {@code failed} for the others), buckets from
 *       5 ms to 10 min;</li>
 *   <li>{@code cairn_sidecar_notifications_total{kind}}: notifications handed to the worker ({@code complete},
 *       {@code aborted}, {@code discard_state});</li>
 *   <li>{@code cairn_sidecar_discarded_objects_total{cause, shared}} and
 *       {@code cairn_sidecar_discarded_bytes_total{cause, shared}}: the state objects the coordinator discarded
 *       that were handed to the worker to delete, and their sizes, by cause ({@code unknown}, {@code discarded},
 *       {@code late}: an ack it did not accept; {@code subsumed}, {@code aborted}, {@code disposed}: a
 *       checkpoint's state) and whether they are shared objects ({@code true}, {@code false});</li>
 *   <li>{@code cairn_sidecar_restores_total{from}}: restores at start-up, from a checkpoint or {@code none};</li>
 *   <li>the JVM's memory and threads, the process's CPU and uptime.</li>
 * </ul>
 *
 * Every label takes values from a closed set; the scrape target (one sidecar per subtask) says which subtask
 * it is. Counts are in memory: they start at zero with the sidecar.
 */
public final class SidecarMetrics implements AutoCloseable {

    static final List<Duration> DURATION_BUCKETS = List.of(Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5),
            Duration.ofMinutes(10));

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** With the JVM's and the process's metrics bound. */
    public SidecarMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** {@code hook}, counted and timed here; closing the result closes {@code hook}. */
    public SnapshotHook instrument(SnapshotHook hook) {
        return new MeteredSnapshotHook(hook, this);
    }

    /** The registry every sidecar metric is in. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    void snapshotEnded(String outcome, long nanos) {
        Counter.builder("cairn.sidecar.snapshots")
                .description("Snapshots the worker was asked for, by how they ended")
                .tag("outcome", outcome)
                .register(registry)
                .increment();
        hookCall("snapshot", outcome, nanos);
    }

    void notified(String kind, String call, boolean ok, long nanos) {
        Counter.builder("cairn.sidecar.notifications")
                .description("Notifications handed to the worker")
                .tag("kind", kind)
                .register(registry)
                .increment();
        hookCall(call, ok ? "ok" : "failed", nanos);
    }

    void discarded(DiscardedState state) {
        String cause = state.cause().toLowerCase(Locale.ROOT);
        String shared = Boolean.toString(state.shared());
        Counter.builder("cairn.sidecar.discarded.objects")
                .description("State objects the coordinator discarded, handed to the worker to delete")
                .tag("cause", cause)
                .tag("shared", shared)
                .register(registry)
                .increment();
        Counter.builder("cairn.sidecar.discarded.bytes")
                .description("The sizes of the state objects handed to the worker to delete")
                .tag("cause", cause)
                .tag("shared", shared)
                .register(registry)
                .increment(Math.max(0, state.sizeBytes()));
    }

    void restored(boolean fromCheckpoint, boolean ok, long nanos) {
        Counter.builder("cairn.sidecar.restores")
                .description("Restores of the worker at start-up, from a checkpoint or none")
                .tag("from", fromCheckpoint ? "checkpoint" : "none")
                .register(registry)
                .increment();
        hookCall("restore", ok ? "ok" : "failed", nanos);
    }

    private void hookCall(String call, String outcome, long nanos) {
        Timer.builder("cairn.sidecar.hook.duration")
                .description("How long calls of the worker's hook took")
                .tag("call", call)
                .tag("outcome", outcome)
                .serviceLevelObjectives(DURATION_BUCKETS.toArray(Duration[]::new))
                .register(registry)
                .record(Duration.ofNanos(nanos));
    }

    /**
     * Every metric now: OpenMetrics when {@code accept} names {@code application/openmetrics-text}, Prometheus'
     * text format 0.0.4 otherwise.
     *
     * @param accept the request's {@code Accept} header; {@code null} when it has none
     */
    public PrometheusScrape scrape(String accept) {
        return PrometheusScrape.of(registry, accept);
    }

    @Override
    public void close() {
        registry.close();
    }
}
