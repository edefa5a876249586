package dev.cairn.coordinator.http;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes an HTTP/1.1 connection whose request head (request line and headers) has been arriving for longer than
 * {@code timeout}: the idle timeout bounds silence only, so without this a client sending one byte of its headers
 * every few seconds would hold a connection for hours. Every {@link #period} it looks at the parser of each open
 * connection; a head seen incomplete at one look and still incomplete (the same request) at a look {@code timeout}
 * or more later is cut off, so a head may take at most {@code timeout} plus one period. A connection between
 * requests (its parser waiting for a first byte) is left to the idle timeout. Registered on a connector with
 * {@code addEventListener} and on the server with {@code addBean}, which starts and stops its looks.
 *
 * <p>The parser's state is only reachable through Jetty's {@code internal} {@link HttpConnection}: the tests of
 * this class fail, rather than the deadline silently lapsing, if a Jetty upgrade moves it.
 */
final class HeaderDeadline extends AbstractLifeCycle implements Connection.Listener {

    private final long timeoutNanos;
    private final Duration period;
    private final Scheduler scheduler;
    private final LongSupplier nanoClock;
    private final ClientLog log;
    private final Map<HttpConnection, Head> open = new ConcurrentHashMap<>();
    private volatile Scheduler.Task next;

    /**
     * @param timeout how long a request head may take to arrive
     * @param scheduler where the looks run (the server's)
     * @param nanoClock {@link System#nanoTime}
     * @param log where cut-off clients are told
     */
    HeaderDeadline(Duration timeout, Scheduler scheduler, LongSupplier nanoClock, ClientLog log) {
        this.timeoutNanos = timeout.toNanos();
        this.period = Duration.ofMillis(Math.max(50, Math.min(1_000, timeout.toMillis() / 4)));
        this.scheduler = scheduler;
        this.nanoClock = nanoClock;
        this.log = log;
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            open.put(http, new Head());
        }
    }

    @Override
    public void onClosed(Connection connection) {
        open.remove(connection);
    }

    @Override
    protected void doStart() {
        schedule();
    }

    @Override
    protected void doStop() {
        Scheduler.Task task = next;
        if (task != null) {
            task.cancel();
        }
    }

    private void schedule() {
        if (isRunning() || isStarting()) {
            next = scheduler.schedule(this::look, period.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One look at every open connection; closes those whose head is overdue. */
    private void look() {
        try {
            long now = nanoClock.getAsLong();
            open.forEach((connection, head) -> {
                if (head.overdue(connection, now, timeoutNanos)) {
                    open.remove(connection);
                    if (connection.getEndPoint().getRemoteSocketAddress() instanceof InetSocketAddress remote
                            && remote.getAddress() != null) {
                        log.warn(remote.getAddress(), "was cut off: its request head took longer than "
                                + timeoutNanos / 1_000_000 + " ms (http.header.timeout.ms)");
                    }
                    connection.getEndPoint().close();
                }
            });
        } finally {
            schedule();
        }
    }

    /** Since when the head of which request of a connection has been seen incomplete. */
    private static final class Head {
        private long request = -1;
        private long since;

        /** Whether the connection's current head has been incomplete for longer than the timeout. */
        boolean overdue(HttpConnection connection, long now, long timeoutNanos) {
            HttpParser parser = connection.getParser();
            if (parser.isStart() || !parser.inHeaderState()) {
                request = -1;
                return false;
            }
            long requests = connection.getMessagesIn();
            if (request != requests) {
                request = requests;
                since = now;
                return false;
            }
            return now - since >= timeoutNanos;
        }
    }
}
