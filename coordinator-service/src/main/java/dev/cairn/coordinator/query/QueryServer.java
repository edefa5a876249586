package dev.cairn.coordinator.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.state.HostInfo;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's REST API on Jetty: a bounded thread pool, a connector that closes connections idle
 * for {@link QueryServerConfig#idleTimeout()}, at most {@link QueryServerConfig#maxConnections()} open
 * connections, and request headers of at most {@value #MAX_HEADER_BYTES} bytes (431 beyond); HTTPS when
 * {@link QueryServerConfig#tls()} is set. Started in
 * two steps, because Kafka Streams needs the port actually bound (its {@code application.server}) before it
 * is created, and the API needs the running Kafka Streams: {@link #bind} opens the socket, {@link #start}
 * serves {@link QueryApi}, and the web page at {@code /} ({@link WebPageHandler}).
 */
public final class QueryServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
    /** Threads that compute answers; reading a request body holds none. */
    private static final int MAX_THREADS = 16;
    private static final int MIN_THREADS = 4;
    static final int MAX_HEADER_BYTES = 8 * 1024;

    private final QueryServerConfig config;
    private final Server server;
    private final ServerConnector connector;

    private QueryServer(QueryServerConfig config, Server server, ServerConnector connector) {
        this.config = config;
        this.server = server;
        this.connector = connector;
    }

    /**
     * Binds the listening socket; nothing is served before {@link #start}.
     *
     * @throws UncheckedIOException when the address cannot be bound (port in use, unknown address)
     */
    public static QueryServer bind(QueryServerConfig config) {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, MIN_THREADS);
        threads.setName("cairn-rest");
        threads.setDaemon(true);
        Server server = new Server(threads);
        server.setErrorHandler(new JsonErrorHandler());
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        ServerConnector connector;
        if (config.tls() == null) {
            connector = new ServerConnector(server, new HttpConnectionFactory(http));
        } else {
            http.addCustomizer(new SecureRequestCustomizer());
            connector = new ServerConnector(server, config.tls().serverContextFactory(),
                    new HttpConnectionFactory(http));
        }
        connector.setHost(config.bindAddress());
        connector.setPort(config.port());
        connector.setIdleTimeout(config.idleTimeout().toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(config.maxConnections(), connector));
        try {
            connector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the REST API to " + config.bindAddress() + ":" + config.port()
                    + ": " + e.getMessage(), e);
        }
        return new QueryServer(config, server, connector);
    }

    /**
     * Serves the API from now on.
     *
     * @param source the jobs' state
     * @param health what {@code /health} and {@code /ready} answer
     * @param publisher where PUT and POST send their requests
     */
    public void start(StateSource source, HealthSource health, RequestPublisher publisher) {
        start(source, health, publisher, UnaryOperator.identity());
    }

    /** As above, serving {@code front.apply(api)}: handlers of other paths put in front of the web page and the API (/metrics). */
    public void start(StateSource source, HealthSource health, RequestPublisher publisher,
            UnaryOperator<Handler> front) {
        server.setHandler(front.apply(new Handler.Sequence(new WebPageHandler(), new JettyApiHandler(new QueryApi(
                source, health, publisher, config.access(), forwarder(), applicationServer(),
                System::currentTimeMillis)))));
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the REST API on " + applicationServer() + ": " + e, e);
        }
        LOG.info("REST API listening on {}:{}, advertised as {} (idle timeout {} ms, at most {} connections; {})",
                config.bindAddress(), port(), uri(), config.idleTimeout().toMillis(), config.maxConnections(),
                config.access());
    }

    private Forwarder forwarder() {
        return config.tls() == null ? new Forwarder(applicationServer())
                : new Forwarder(applicationServer(), config.tls().clientContext());
    }

    /** The port actually bound. */
    public int port() {
        return connector.getLocalPort();
    }

    /** How other instances reach this one: the advertised host and the port actually bound. */
    public HostInfo self() {
        return new HostInfo(config.advertisedHost(), port());
    }

    /** {@code host:port}, the value of Kafka Streams' {@code application.server}. */
    public String applicationServer() {
        return config.advertisedHost() + ":" + port();
    }

    /** The API's base address, e.g. {@code http://127.0.0.1:8081} (or {@code https://...} with TLS). */
    public URI uri() {
        String authority = new JobLocation.Remote(config.advertisedHost(), port()).authority();
        return URI.create(config.scheme() + "://" + authority);
    }

    /** Stops serving at once; requests in flight are cut off. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("REST API on {} did not stop cleanly", applicationServer(), e);
        } finally {
            connector.close();
        }
    }
}
