package dev.cairn.coordinator.http;

import java.time.Duration;

/** {@link ClientLimits#DEFAULTS} with some limits changed. */
public final class TestLimits {

    private static final ClientLimits D = ClientLimits.DEFAULTS;

    private TestLimits() {
    }

    /** Another cap per client (0: none). */
    public static ClientLimits perClient(int maxConnectionsPerClient) {
        return new ClientLimits(D.idleTimeout(), D.maxConnections(), maxConnectionsPerClient, D.minRequestDataRate(),
                D.headerTimeout());
    }

    /** Another minimum body rate (0: none) and header timeout. */
    public static ClientLimits slowClients(long minRequestDataRate, Duration headerTimeout) {
        return new ClientLimits(D.idleTimeout(), D.maxConnections(), D.maxConnectionsPerClient(), minRequestDataRate,
                headerTimeout);
    }

    /** Another idle timeout and connection caps. */
    public static ClientLimits connections(Duration idleTimeout, int maxConnections, int maxConnectionsPerClient) {
        return new ClientLimits(idleTimeout, maxConnections, maxConnectionsPerClient, D.minRequestDataRate(),
                D.headerTimeout());
    }
}
