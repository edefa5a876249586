package dev.cairn.coordinator.query;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Where a coordinator's REST API listens, and how the other instances of the application reach it.
 *
 * @param bindAddress the local address to listen on, e.g. {@code 0.0.0.0} or {@code 127.0.0.1}
 * @param port the port to listen on; 0 picks a free one
 * @param advertisedHost the host other instances reach this one at: it becomes, with the port actually
 *     bound, Kafka Streams' {@code application.server}, which routes interactive queries
 */
public record QueryServerConfig(String bindAddress, int port, String advertisedHost) {

    /** Flink's REST port. */
    public static final int DEFAULT_PORT = 8081;

    public QueryServerConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("http-port must be in 0..65535 (0 picks a free port), was " + port);
        }
        if (bindAddress.isBlank()) {
            throw new IllegalArgumentException("http-bind-address must not be blank");
        }
        if (advertisedHost.isBlank()) {
            throw new IllegalArgumentException("advertised-host must not be blank");
        }
    }

    /** On the loopback interface, on a free port: what tests and the embedded demo use. */
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

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot find this machine's host name (" + e.getMessage()
                    + "); set advertised-host", e);
        }
    }
}
