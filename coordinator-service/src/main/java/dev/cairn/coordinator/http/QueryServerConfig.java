package dev.cairn.coordinator.http;

import dev.cairn.coordinator.rest.access.AccessPolicy;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Where a coordinator's REST API listens, how the other instances of the application reach it, and how
 * much a client may hold of it.
 *
 * @param bindAddress the local address to listen on, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param port the port to listen on; 0 picks a free one
 * @param advertisedHost the host other instances reach this one at: it becomes, with the port actually
 *     bound, Kafka Streams' {@code application.server}, which routes interactive queries
 * @param limits how much of the server one client may hold: idle and header timeouts, minimum body rate,
 *     connections in all and per client
 * @param probesPort the port of a second listener that serves only {@code /health}, {@code /ready} and
 *     {@code /metrics}, with threads and connections of its own, so that a flood of API clients never makes a
 *     probe time out; 0 picks a free port, {@value #NO_PROBES_PORT}: none (the probes are answered on
 *     {@code port} only, as they always are)
 * @param access who may read and change jobs (read-only without tokens)
 * @param tls HTTPS settings; {@code null}: plain HTTP. Every instance of an application uses the same scheme
 */
public record QueryServerConfig(String bindAddress, int port, String advertisedHost, ClientLimits limits,
        int probesPort, AccessPolicy access, TlsConfig tls) {

    /** Flink's REST port. */
    public static final int DEFAULT_PORT = 8081;
    /** Only this machine reaches the API unless told otherwise. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    /** No probes port: the probes are answered on the API's port only. */
    public static final int NO_PROBES_PORT = -1;

    public QueryServerConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(limits, "limits");
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
        if (probesPort < NO_PROBES_PORT || probesPort > 65_535) {
            throw new IllegalArgumentException("http-probes-port must be in -1..65535 (-1: none, 0 picks a free port), "
                    + "was " + probesPort);
        }
        if (probesPort == port && port != 0) {
            throw new IllegalArgumentException("http-probes-port must differ from http-port (" + port + ")");
        }
    }

    /** Read-only, with the default {@link ClientLimits} and no probes port. */
    public QueryServerConfig(String bindAddress, int port, String advertisedHost) {
        this(bindAddress, port, advertisedHost, ClientLimits.DEFAULTS, NO_PROBES_PORT, AccessPolicy.readOnly(), null);
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

    /** The same settings with other limits. */
    public QueryServerConfig withLimits(ClientLimits newLimits) {
        return new QueryServerConfig(bindAddress, port, advertisedHost, newLimits, probesPort, access, tls);
    }

    /** The same settings with a probes port ({@value #NO_PROBES_PORT}: none). */
    public QueryServerConfig withProbesPort(int newProbesPort) {
        return new QueryServerConfig(bindAddress, port, advertisedHost, limits, newProbesPort, access, tls);
    }

    /** The same settings with another access policy. */
    public QueryServerConfig withAccess(AccessPolicy newAccess) {
        return new QueryServerConfig(bindAddress, port, advertisedHost, limits, probesPort, newAccess, tls);
    }

    /** The same settings over HTTPS ({@code null}: plain HTTP). */
    public QueryServerConfig withTls(TlsConfig newTls) {
        return new QueryServerConfig(bindAddress, port, advertisedHost, limits, probesPort, access, newTls);
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
