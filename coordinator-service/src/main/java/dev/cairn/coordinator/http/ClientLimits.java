package dev.cairn.coordinator.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How much of the REST server one client may hold, so that slow or greedy clients cannot starve the others.
 *
 * @param idleTimeout how long a connection may stay silent (no byte read or written) before it is closed
 * @param maxConnections how many connections are open at most; beyond, new ones wait in the accept queue
 * @param maxConnectionsPerClient how many connections one remote address may hold open on the API port; a further
 *     one is closed as soon as it is accepted; 0: no cap
 * @param minRequestDataRate the slowest a request body may arrive, in bytes per second averaged from the start of
 *     the body, once {@link #BODY_RATE_GRACE} has passed; a slower body is answered 408 and its connection closed;
 *     0: no minimum
 * @param headerTimeout how long a request head (request line and headers) may take to arrive, from its first byte;
 *     a connection whose head is still incomplete then is closed
 */
public record ClientLimits(Duration idleTimeout, int maxConnections, int maxConnectionsPerClient,
        long minRequestDataRate, Duration headerTimeout) {

    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_CONNECTIONS = 200;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 20;
    /** 64 KiB, the largest body the API takes, arrives in about a minute at this rate. */
    public static final long DEFAULT_MIN_REQUEST_DATA_RATE = 1024;
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
    /** How long a body may arrive at any rate before {@link #minRequestDataRate} is enforced. */
    public static final Duration BODY_RATE_GRACE = Duration.ofSeconds(2);

    /** The defaults above. */
    public static final ClientLimits DEFAULTS = new ClientLimits(DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
            DEFAULT_MAX_CONNECTIONS_PER_CLIENT, DEFAULT_MIN_REQUEST_DATA_RATE, DEFAULT_HEADER_TIMEOUT);

    /**
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public ClientLimits {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(headerTimeout, "headerTimeout");
        if (idleTimeout.toMillis() <= 0) {
            throw new IllegalArgumentException("http-idle-timeout-ms must be positive, was " + idleTimeout.toMillis());
        }
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("http-max-connections must be positive, was " + maxConnections);
        }
        if (maxConnectionsPerClient < 0) {
            throw new IllegalArgumentException("http-max-connections-per-client must be 0 (no cap) or positive, was "
                    + maxConnectionsPerClient);
        }
        if (minRequestDataRate < 0) {
            throw new IllegalArgumentException("http-min-request-data-rate must be 0 (no minimum) or positive, was "
                    + minRequestDataRate);
        }
        if (headerTimeout.toMillis() <= 0) {
            throw new IllegalArgumentException("http-header-timeout-ms must be positive, was "
                    + headerTimeout.toMillis());
        }
    }

    @Override
    public String toString() {
        return "idle timeout " + idleTimeout.toMillis() + " ms, at most " + maxConnections + " connections"
                + (maxConnectionsPerClient == 0 ? "" : " and " + maxConnectionsPerClient + " per client")
                + ", request heads within " + headerTimeout.toMillis() + " ms"
                + (minRequestDataRate == 0 ? "" : ", bodies at " + minRequestDataRate + " bytes/s at least");
    }
}
