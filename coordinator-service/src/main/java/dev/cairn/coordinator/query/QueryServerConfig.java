package dev.cairn.coordinator.query;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;

/**
 * Where a coordinator's REST API listens, how the other instances of the application reach it, and how
 * much a client may hold of it.
 *
 * @param bindAddress the local address to listen on, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param port the port to listen on; 0 picks a free one
 * @param advertisedHost the host other instances reach this one at: it becomes, with the port actually
 *     bound, Kafka Streams' {@code application.server}, which routes interactive queries
 * @param idleTimeout how long a connection may stay silent (no byte read or written, e.g. a client that
 *     declared a body and stalls) before the server closes it
 * @param maxConnections how many connections are open at most; beyond, new ones wait in the accept queue
 * @param access who may read and change jobs (read-only without tokens)
 * @param tls HTTPS settings; {@code null}: plain HTTP. Every instance of an application uses the same scheme
 */
public record QueryServerConfig(String bindAddress, int port, String advertisedHost, Duration idleTimeout,
        int maxConnections, AccessPolicy access, TlsConfig tls) {

    /** Flink's REST port. */
    public static final int DEFAULT_PORT = 8081;
    /** Only this machine reaches the API unless told otherwise. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_CONNECTIONS = 200;

    public QueryServerConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(access, "access");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("http-port must be in 0..65535 (0 picks a free port), was " + port);
        }
        if (bindAddress.isBlank()) {
            throw new IllegalArgumentException("http-bind-address must not be blank");
        }
        if (advertisedHost.isBlank()) {
            throw new IllegalArgumentException("advertised-host must not be blank");
        }
        if (idleTimeout.toMillis() <= 0) {
            throw new IllegalArgumentException("http-idle-timeout-ms must be positive, was " + idleTimeout.toMillis());
        }
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("http-max-connections must be positive, was " + maxConnections);
        }
    }

    /** Read-only, with the default idle timeout and connection limit. */
    public QueryServerConfig(String bindAddress, int port, String advertisedHost) {
        this(bindAddress, port, advertisedHost, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, AccessPolicy.readOnly(),
                null);
    }

    /** On the loopback interface, on a free port, read-only: what tests and the embedded demo use. */
    public static QueryServerConfig loopback() {
        return new QueryServerConfig("127.0.0.1", 0, "127.0.0.1");
    }

    /**
     * A configuration whose advertised host defaults to the bind address, or to this machine's host name
     * when binding to every interface.
     */
    public static QueryServerConfig of(String bindAddress, int port, String advertisedHostOrNull) {
        if (advertisedHostOrNull != null && !advertisedHostOrNull.isBlank()) {
            return new QueryServerConfig(bindAddress, port, advertisedHostOrNull);
        }
        boolean wildcard = bindAddress.equals("0.0.0.0") || bindAddress.equals("::") || bindAddress.equals("[::]");
        return new QueryServerConfig(bindAddress, port, wildcard ? localHostName() : bindAddress);
    }

    /** The same settings with another idle timeout and connection limit. */
    public QueryServerConfig withLimits(Duration newIdleTimeout, int newMaxConnections) {
        return new QueryServerConfig(bindAddress, port, advertisedHost, newIdleTimeout, newMaxConnections, access,
                tls);
    }

    /** The same settings with another access policy. */
    public QueryServerConfig withAccess(AccessPolicy newAccess) {
        return new QueryServerConfig(bindAddress, port, advertisedHost, idleTimeout, maxConnections, newAccess, tls);
    }

    /** The same settings over HTTPS ({@code null}: plain HTTP). */
    public QueryServerConfig withTls(TlsConfig newTls) {
        return new QueryServerConfig(bindAddress, port, advertisedHost, idleTimeout, maxConnections, access, newTls);
    }

    /** {@code https} with TLS, else {@code http}. */
    public String scheme() {
        return tls == null ? "http" : "https";
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot find this machine's host name (" + e.getMessage()
                    + "); set advertised-host", e);
        }
    }
}
