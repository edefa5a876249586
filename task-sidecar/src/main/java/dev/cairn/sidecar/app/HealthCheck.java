package dev.cairn.sidecar.app;

import dev.cairn.sidecar.kafka.KafkaSidecar;
import dev.cairn.sidecar.metrics.SidecarHealth;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What a sidecar's {@code GET /health} answers as it goes: down while it starts (finds the topics, hands the worker
 * its restore point, registers the attempt), up while its hook loop consumes control events and its control
 * consumer hears from Kafka, down again once the loop stopped (with the reason it stopped for, when it stopped on
 * its own), when the consumer heard nothing from the cluster in its metrics window, or once the sidecar closes.
 * Safe to ask from any thread.
 */
final class HealthCheck implements Supplier<SidecarHealth> {

    static final String STARTING = "starting: finding the topics, restoring the worker and registering its attempt";
    static final String CLOSING = "stopping: the sidecar is closing";
    static final String STOPPED = "the hook loop stopped consuming control events";
    static final String NOT_CONNECTED = "not connected: the control consumer had no fetch response from Kafka in "
            + "its metrics window (30 to 60 s by default)";

    /** The running sidecar's loop, as {@link KafkaSidecar} reports it. */
    record Loop(BooleanSupplier running, Supplier<Optional<String>> stopReason, BooleanSupplier connected) {

        static Loop of(KafkaSidecar sidecar) {
            return new Loop(sidecar::isRunning, sidecar::stopReason, sidecar::isConnected);
        }
    }

    private volatile Loop loop;
    private volatile boolean closing;

    /** The sidecar started: from now on its loop says. */
    void started(Loop started) {
        this.loop = started;
    }

    /** The sidecar closes: down from now on. */
    void closing() {
        this.closing = true;
    }

    @Override
    public SidecarHealth get() {
        Loop current = loop;
        if (closing) {
            return SidecarHealth.down(CLOSING);
        }
        if (current == null) {
            return SidecarHealth.down(STARTING);
        }
        if (!current.running().getAsBoolean()) {
            return SidecarHealth.down(STOPPED + current.stopReason().get().map(why -> ": " + why).orElse(""));
        }
        if (!current.connected().getAsBoolean()) {
            return SidecarHealth.down(NOT_CONNECTED);
        }
        return SidecarHealth.healthy();
    }
}
