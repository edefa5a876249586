package dev.cairn.coordinator.query;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's REST API on the JDK's HTTP server. Started in two steps, because Kafka Streams needs
 * the port actually bound (its {@code application.server}) before it is created, and the API needs the
 * running Kafka Streams: {@link #bind} opens the socket, {@link #start} serves {@link QueryApi}.
 */
public final class QueryServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
    private static final int THREADS = 4;

    private final QueryServerConfig config;
    private final HttpServer server;
    private final ExecutorService executor;

    private QueryServer(QueryServerConfig config, HttpServer server, ExecutorService executor) {
        this.config = config;
        this.server = server;
        this.executor = executor;
    }

    /**
     * Binds the listening socket; nothing is served before {@link #start}.
     *
     * @throws UncheckedIOException when the address cannot be bound (port in use, unknown address)
     */
    public static QueryServer bind(QueryServerConfig config) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(config.bindAddress(), config.port()), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the REST API to " + config.bindAddress() + ":" + config.port()
                    + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
        server.setExecutor(executor);
        return new QueryServer(config, server, executor);
    }

    /** Serves the API from now on. */
    public void start(StateSource source, RequestPublisher publisher) {
        server.createContext("/", new QueryApi(source, publisher, applicationServer(), System::currentTimeMillis));
        server.start();
        LOG.info("REST API listening on {}:{}, advertised as {}", config.bindAddress(), port(), applicationServer());
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** How other instances reach this one: the advertised host and the port actually bound. */
    public HostInfo self() {
        return new HostInfo(config.advertisedHost(), port());
    }

    /** {@code host:port}, the value of Kafka Streams' {@code application.server}. */
    public String applicationServer() {
        return config.advertisedHost() + ":" + port();
    }

    /** The API's base address, e.g. {@code http://127.0.0.1:8081}. */
    public URI uri() {
        return URI.create("http://" + new JobLocation.Remote(config.advertisedHost(), port()).authority());
    }

    /** Stops serving at once; requests in flight are cut off. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "cairn-rest-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
