package dev.cairn.coordinator.rest.sources;

/**
 * What {@code GET /health} (liveness: restart me if down) and {@code GET /ready} (readiness: send me
 * traffic) answer. Both are answered by the instance asked, never forwarded, and need no token.
 */
public interface HealthSource {

    /** Whether this instance works at all; down means it should be restarted. */
    Health liveness();

    /** Whether this instance serves its jobs now; down while it starts, rebalances or restores. */
    Health readiness();

    /**
     * One health check's result.
     *
     * @param ok whether the check passed
     * @param reason why it did not pass; empty when it did
     */
    record Health(boolean ok, String reason) {

        public Health {
            java.util.Objects.requireNonNull(reason, "reason");
        }

        public static Health up() {
            return new Health(true, "");
        }

        public static Health down(String reason) {
            return new Health(false, reason);
        }
    }
}
