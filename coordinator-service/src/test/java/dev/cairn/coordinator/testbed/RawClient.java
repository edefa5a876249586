package dev.cairn.coordinator.testbed;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A client on a plain socket from a chosen loopback address (127.0.0.2 and up are distinct source addresses on
 * Linux), that writes what the test says when it says, and tells without blocking whether the server closed the
 * connection and what it answered before.
 */
public final class RawClient implements AutoCloseable {

    private final SocketChannel channel;
    private final StringBuilder received = new StringBuilder();
    private boolean closedByServer;

    private RawClient(SocketChannel channel) {
        this.channel = channel;
    }

    /** Connects from {@code source} to the server's loopback {@code port}. */
    public static RawClient connect(String source, int port) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            channel.socket().connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            channel.configureBlocking(false);
            return new RawClient(channel);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    /** The head of a request that declares a body of {@code bodyBytes}, with the bearer {@code token}. */
    public static String postHead(int bodyBytes, String token) {
        return "POST /jobs/job-1/checkpoints HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bodyBytes + "\r\n\r\n";
    }

    /** Writes {@code text}; false when it could not (the server has closed the connection, which a read tells). */
    public synchronized boolean send(String text) {
        if (closedByServer) {
            return false;
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the server closed the connection (end of stream or reset); reads what it sent meanwhile. */
    public synchronized boolean closedByServer() {
        if (closedByServer) {
            return true;
        }
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        try {
            int read;
            while ((read = channel.read(buffer)) > 0) {
                received.append(new String(buffer.array(), 0, read, StandardCharsets.US_ASCII));
                buffer.clear();
            }
            closedByServer = read == -1;
        } catch (IOException e) {
            closedByServer = true;
        }
        return closedByServer;
    }

    /** What the server sent so far. */
    public synchronized String received() {
        closedByServer();
        return received.toString();
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }
}
