package dev.cairn.sidecar.metrics;

import java.util.Objects;

/**
 * What a sidecar's {@code GET /health} answers: up (200, {@code {"status":"UP"}}) while the sidecar is connected to
 * Kafka and runs its hook loop, down (503, {@code {"status":"DOWN","reason":"..."}}) otherwise, with why.
 *
 * @param up whether the sidecar is connected and running
 * @param reason why it is not; empty when it is
 */
public record SidecarHealth(boolean up, String reason) {

    public SidecarHealth {
        Objects.requireNonNull(reason, "reason");
    }

    /** Connected and running. */
    public static SidecarHealth healthy() {
        return new SidecarHealth(true, "");
    }

    /** Not connected or not running, because of {@code reason}. */
    public static SidecarHealth down(String reason) {
        return new SidecarHealth(false, reason);
    }
}
