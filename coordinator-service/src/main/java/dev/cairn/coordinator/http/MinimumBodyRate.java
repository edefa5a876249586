package dev.cairn.coordinator.http;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Cuts off a request whose body arrives slower than {@code minBytesPerSecond}, averaged over each request from
 * when its handling started, once {@code grace} has passed: the next read of the body fails with a
 * {@link TimeoutException}, which {@link JettyApiHandler} answers 408, and Jetty closes the connection (the rest of
 * the body is never read). The check runs whenever the handler asks for more of the body, that is after every
 * piece that arrives; a client that sends nothing at all is closed by the idle timeout instead. So a client that
 * dribbles its body holds a connection for about {@code grace} plus the time between two of its bytes, however
 * long the body it declared.
 *
 * <p>Jetty 12's own means do not fit: {@code HttpConfiguration.setMinRequestDataRate} is no longer read by
 * anything, and {@code MinimumDataRateHandler} divides the bytes of every request it has served by the age of one
 * request.
 */
final class MinimumBodyRate extends Handler.Wrapper {

    private final long minBytesPerSecond;
    private final long graceNanos;
    private final LongSupplier nanoClock;
    private final ClientLog log;

    /**
     * @param next the handler that reads the bodies
     * @param minBytesPerSecond the slowest body accepted (positive)
     * @param grace how long any rate is accepted
     * @param nanoClock {@link System#nanoTime} or a test's clock
     * @param log where cut-off clients are told
     */
    MinimumBodyRate(Handler next, long minBytesPerSecond, Duration grace, LongSupplier nanoClock, ClientLog log) {
        super(next);
        if (minBytesPerSecond <= 0) {
            throw new IllegalArgumentException("the minimum rate must be positive, was " + minBytesPerSecond);
        }
        this.minBytesPerSecond = minBytesPerSecond;
        this.graceNanos = grace.toNanos();
        this.nanoClock = nanoClock;
        this.log = log;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        return super.handle(new Metered(request), response, callback);
    }

    /** A request that counts the bytes of its body read so far, and fails its body once it is too slow. */
    private final class Metered extends Request.Wrapper {

        private final long startedAt = nanoClock.getAsLong();
        private long bytesRead;
        private Content.Chunk failure;

        Metered(Request request) {
            super(request);
        }

        @Override
        public Content.Chunk read() {
            if (failure != null) {
                return failure;
            }
            Content.Chunk chunk = super.read();
            if (chunk != null) {
                bytesRead += chunk.remaining();
            }
            return chunk;
        }

        @Override
        public void demand(Runnable demandCallback) {
            long elapsed = nanoClock.getAsLong() - startedAt;
            if (failure == null && elapsed > graceNanos && tooSlow(elapsed)) {
                String message = "the body arrived at " + bytesRead + " bytes in " + elapsed / 1_000_000
                        + " ms, slower than the minimum of " + minBytesPerSecond + " bytes/s";
                failure = Content.Chunk.from(new TimeoutException(message));
                SocketAddress remote = getConnectionMetaData().getRemoteSocketAddress();
                if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
                    log.warn(inet.getAddress(), "was cut off: " + message + " (http.min.request.data.rate)");
                }
            }
            if (failure != null) {
                demandCallback.run();
            } else {
                super.demand(demandCallback);
            }
        }

        private boolean tooSlow(long elapsedNanos) {
            return bytesRead * 1e9 / elapsedNanos < minBytesPerSecond;
        }
    }
}
