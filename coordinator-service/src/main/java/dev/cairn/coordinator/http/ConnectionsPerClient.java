package dev.cairn.coordinator.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SocketChannelEndPoint;

/**
 * At most {@code max} open connections per client on a connector (a remote IPv4 address, or the /64 of an IPv6 one:
 * {@link ClientGroups}): the connection that goes over the cap is
 * closed as soon as it is opened, before it is read, and the client's older connections keep working. Only network
 * connections count (with TLS, the HTTP connection inside the TLS one is not counted again). Jetty's own limits
 * ({@code NetworkConnectionLimit}, {@code ConnectionLimit}) count every client together; this keeps one address
 * from taking them all. Closed connections are warned about through a {@link ClientLog}. Registered on a connector
 * with {@code addEventListener}.
 */
final class ConnectionsPerClient implements Connection.Listener {

    private final int max;
    private final String capName;
    private final ClientLog log;
    private final Map<InetAddress, Integer> open = new ConcurrentHashMap<>();
    /** The address each counted connection was counted under (a closed socket no longer tells it). */
    private final Map<Connection, InetAddress> counted = new ConcurrentHashMap<>();

    /**
     * @param max connections per client at most (positive)
     * @param capName what sets the cap, named in the warning
     * @param log where closed connections are told
     */
    ConnectionsPerClient(int max, String capName, ClientLog log) {
        if (max <= 0) {
            throw new IllegalArgumentException("the cap must be positive, was " + max);
        }
        this.max = max;
        this.capName = capName;
        this.log = log;
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress client = client(connection);
        if (client == null) {
            return;
        }
        counted.put(connection, client);
        int count = open.merge(client, 1, Integer::sum);
        if (count > max) {
            log.warn(client, "has more than " + max + " open connections (" + capName + "): closed its newest");
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress client = counted.remove(connection);
        if (client != null) {
            open.computeIfPresent(client, (address, count) -> count <= 1 ? null : count - 1);
        }
    }

    /** The remote address of a network connection; {@code null} for a connection inside another one. */
    private static InetAddress client(Connection connection) {
        if (!(connection.getEndPoint() instanceof SocketChannelEndPoint endPoint)) {
            return null;
        }
        SocketAddress remote = endPoint.getRemoteSocketAddress();
        return remote instanceof InetSocketAddress inet ? ClientGroups.of(inet.getAddress()) : null;
    }
}
