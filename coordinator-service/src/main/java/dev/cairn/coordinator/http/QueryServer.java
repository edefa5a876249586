package dev.cairn.coordinator.http;

import dev.cairn.coordinator.rest.routes.Forwarder;
import dev.cairn.coordinator.rest.routes.JettyApiHandler;
import dev.cairn.coordinator.rest.routes.QueryApi;
import dev.cairn.coordinator.rest.sources.HealthSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.RequestPublisher;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.web.WebPageHandler;
import dev.cairn.core.contract.InputLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.state.HostInfo;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
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
 * The coordinator's REST API on Jetty, HTTPS when {@link QueryServerConfig#tls()} is set, with the
 * {@link ClientLimits} of {@link QueryServerConfig#limits()}: a bounded thread pool, connections closed when idle
 * for the idle timeout, when their request head takes longer than the header timeout ({@link HeaderDeadline}) or
 * their body arrives slower than the minimum rate ({@link MinimumBodyRate}, 408), at most so many open connections
 * in all and per client ({@link ConnectionsPerClient}: an IPv4 address or an IPv6 /64), and request headers of at
 * most {@value #MAX_HEADER_BYTES} bytes (431 beyond). With a {@link QueryServerConfig#probesPort()}, a second server
 * with its own threads and connections, at most {@value #PROBE_CONNECTIONS_PER_CLIENT} per client, serves
 * {@code /health}, {@code /ready} and {@code /metrics} there ({@link ProbePaths}), so that clients that hold every API
 * connection, or many of the probes port's, never make a probe time out; the API's port answers them too. Started
 * in two steps, because Kafka Streams needs the port actually bound (its {@code application.server}) before it is
 * created, and the API needs the running Kafka Streams: {@link #bind} opens the sockets, {@link #start} serves
 * {@link QueryApi}, and the web page at {@code /} ({@link WebPageHandler}).
 */
public final class QueryServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
    /** Threads that compute answers; reading a request body holds none. */
    private static final int MAX_THREADS = 16;
    private static final int MIN_THREADS = 4;
    /** The probes port's threads: one accepts, one selects, the rest answer probes. */
    private static final int PROBE_THREADS = 8;
    static final int MAX_HEADER_BYTES = 8 * 1024;
    /**
     * Open connections per client on the probes port: a kubelet's liveness and readiness probes and a metrics scraper
     * need one or two each, and one client holding more cannot take the port's threads from the others.
     */
    static final int PROBE_CONNECTIONS_PER_CLIENT = 4;

    private final QueryServerConfig config;
    private final ClientLog clientLog;
    private final Listener api;
    private final Listener probes;

    private QueryServer(QueryServerConfig config, ClientLog clientLog, Listener api, Listener probes) {
        this.config = config;
        this.clientLog = clientLog;
        this.api = api;
        this.probes = probes;
    }

    /** A Jetty server with its one connector. */
    private record Listener(Server server, ServerConnector connector) {

        void close() {
            try {
                server.stop();
            } catch (Exception e) {
                LOG.warn("REST listener on port {} did not stop cleanly", connector.getLocalPort(), e);
            } finally {
                connector.close();
            }
        }
    }

    /**
     * Binds the listening sockets (the API's, and the probes' if any); nothing is served before {@link #start}.
     *
     * @throws UncheckedIOException when an address cannot be bound (port in use, unknown address)
     */
    public static QueryServer bind(QueryServerConfig config) {
        ClientLog clientLog = new ClientLog(LOG, System::nanoTime);
        Listener api = listener(config, config.port(), new QueuedThreadPool(MAX_THREADS, MIN_THREADS), -1, clientLog);
        if (config.limits().maxConnectionsPerClient() > 0) {
            api.connector().addEventListener(new ConnectionsPerClient(config.limits().maxConnectionsPerClient(),
                    "http.max.connections.per.client", clientLog));
        }
        open(api, config, config.port());
        if (config.probesPort() == QueryServerConfig.NO_PROBES_PORT) {
            return new QueryServer(config, clientLog, api, null);
        }
        Listener probes = listener(config, config.probesPort(), new QueuedThreadPool(PROBE_THREADS, 2), 1,
                clientLog);
        probes.connector().addEventListener(new ConnectionsPerClient(PROBE_CONNECTIONS_PER_CLIENT,
                "the probes port's cap", clientLog));
        try {
            open(probes, config, config.probesPort());
        } catch (UncheckedIOException e) {
            api.close();
            throw e;
        }
        return new QueryServer(config, clientLog, api, probes);
    }

    /** A server on {@code threads} with one connector of {@code acceptorsAndSelectors} each (-1: Jetty's default). */
    private static Listener listener(QueryServerConfig config, int port, QueuedThreadPool threads,
            int acceptorsAndSelectors, ClientLog clientLog) {
        threads.setName(acceptorsAndSelectors == -1 ? "cairn-rest" : "cairn-probes");
        threads.setDaemon(true);
        Server server = new Server(threads);
        server.setErrorHandler(new JsonErrorHandler());
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        ConnectionFactory[] factories;
        if (config.tls() == null) {
            factories = new ConnectionFactory[] {new HttpConnectionFactory(http)};
        } else {
            http.addCustomizer(new SecureRequestCustomizer());
            factories = AbstractConnectionFactory.getFactories(config.tls().serverContextFactory(),
                    new HttpConnectionFactory(http));
        }
        ServerConnector connector = new ServerConnector(server, acceptorsAndSelectors, acceptorsAndSelectors,
                factories);
        connector.setHost(config.bindAddress());
        connector.setPort(port);
        connector.setIdleTimeout(config.limits().idleTimeout().toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(config.limits().maxConnections(), connector));
        HeaderDeadline headers = new HeaderDeadline(config.limits().headerTimeout(), server.getScheduler(),
                System::nanoTime, clientLog);
        connector.addEventListener(headers);
        server.addBean(headers);
        return new Listener(server, connector);
    }

    private static void open(Listener listener, QueryServerConfig config, int port) {
        try {
            listener.connector().open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the REST " + (port == config.port() ? "API" : "probes")
                    + " to " + config.bindAddress() + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Serves the API from now on, behind {@code front.apply(api)}: handlers of other paths put in front of the web
     * page and the API ({@code /metrics}); on the probes port, {@code front} is applied to the API alone, and only
     * the probe routes are served ({@link ProbePaths}).
     *
     * @param source the jobs' state
     * @param health what {@code /health} and {@code /ready} answer
     * @param publisher where PUT and POST send their requests
     * @param limits what the coordinator accepts of a request
     */
    public void start(StateSource source, HealthSource health, RequestPublisher publisher, InputLimits limits,
            UnaryOperator<Handler> front) {
        QueryApi queryApi = new QueryApi(source, health, publisher, config.access(), forwarder(), applicationServer(),
                System::currentTimeMillis, limits);
        api.server().setHandler(slowBodies(front.apply(new Handler.Sequence(new WebPageHandler(),
                new JettyApiHandler(queryApi)))));
        if (probes != null) {
            probes.server().setHandler(slowBodies(new ProbePaths(front.apply(new JettyApiHandler(queryApi)))));
            start(probes);
        }
        start(api);
        LOG.info("REST API listening on {}:{}, advertised as {}, probes {} ({}; {})", config.bindAddress(), port(),
                uri(), probes == null ? "on the API port only" : "also on port " + probesPort(), config.limits(),
                config.access());
    }

    private Handler slowBodies(Handler handler) {
        long minRate = config.limits().minRequestDataRate();
        return minRate == 0 ? handler
                : new MinimumBodyRate(handler, minRate, ClientLimits.BODY_RATE_GRACE, System::nanoTime, clientLog);
    }

    private void start(Listener listener) {
        try {
            listener.server().start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the REST API on " + config.bindAddress() + ":"
                    + listener.connector().getLocalPort() + ": " + e, e);
        }
    }

    private Forwarder forwarder() {
        return config.tls() == null ? new Forwarder(applicationServer())
                : new Forwarder(applicationServer(), config.tls().clientContext());
    }

    /** The port actually bound. */
    public int port() {
        return api.connector().getLocalPort();
    }

    /** The probes port actually bound; {@value QueryServerConfig#NO_PROBES_PORT} without one. */
    public int probesPort() {
        return probes == null ? QueryServerConfig.NO_PROBES_PORT : probes.connector().getLocalPort();
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
            if (probes != null) {
                probes.close();
            }
        } finally {
            api.close();
        }
    }
}
