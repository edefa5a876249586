package dev.cairn.coordinator.app;

import dev.cairn.config.LayeredConfig;
import dev.cairn.coordinator.http.ClientLimits;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.http.TlsConfig;
import dev.cairn.coordinator.rest.access.AccessPolicy;
import dev.cairn.coordinator.rest.access.BearerTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/**
 * The keys of the coordinator's REST API (part of {@link CoordinatorKeys#SCHEMA}): where it and its probes listen,
 * how much of it one client may hold ({@link ClientLimits}), who may change jobs, and HTTPS; and the
 * {@link QueryServerConfig} they describe.
 */
final class HttpKeys {

    static final String PORT = "http.port";
    static final String BIND_ADDRESS = "http.bind.address";
    static final String ADVERTISED_HOST = "advertised.host";
    static final String IDLE_TIMEOUT_MS = "http.idle.timeout.ms";
    static final String MAX_CONNECTIONS = "http.max.connections";
    static final String MAX_CONNECTIONS_PER_CLIENT = "http.max.connections.per.client";
    static final String MIN_REQUEST_DATA_RATE = "http.min.request.data.rate";
    static final String HEADER_TIMEOUT_MS = "http.header.timeout.ms";
    static final String PROBES_PORT = "http.probes.port";
    /** The probes port's default: {@link #PROBES_OFFSET} above the API's port, so that side-by-side ones differ. */
    static final int PROBES_BESIDE_API = -2;
    /** How far above the API's port the probes listen by default: 8081 and 9081. */
    static final int PROBES_OFFSET = 1000;
    static final String TOKENS_FILE = "http.tokens.file";
    static final String REQUIRE_TOKEN_FOR_READS = "http.require.token.for.reads";
    static final String KEYSTORE = "http.tls.keystore";
    static final String TRUSTSTORE = "http.tls.truststore";
    private static final String PASSWORD = ".password";
    private static final String PASSWORD_FILE = ".password.file";

    private HttpKeys() {
    }

    /** {@code def} with the REST API's keys added. */
    static ConfigDef define(ConfigDef def) {
        def.define(PORT, Type.INT, QueryServerConfig.DEFAULT_PORT, Range.between(-1, 65_535), Importance.MEDIUM,
                        "Port of the REST API over the state stores; 0 picks a free port, -1 runs no REST API.")
                .define(BIND_ADDRESS, Type.STRING, QueryServerConfig.DEFAULT_BIND_ADDRESS, new NonEmptyString(),
                        Importance.MEDIUM, "Address the REST API listens on; 0.0.0.0 for every interface (default: "
                                + "this machine only).")
                .define(ADVERTISED_HOST, Type.STRING, null, Importance.MEDIUM,
                        "Host at which the other coordinator instances reach this one's REST API (Kafka Streams' "
                                + "application.server, which routes queries); default: the bind address, or this "
                                + "machine's host name when listening on every interface.")
                .define(PROBES_PORT, Type.INT, PROBES_BESIDE_API, Range.between(PROBES_BESIDE_API, 65_535),
                        Importance.MEDIUM, "Port of a second listener, with its own threads and connections (at "
                                + "most 4 per client), that serves only /health, /ready and /metrics, so that "
                                + "clients flooding the API never make a probe time out (they are served on "
                                + "http.port too); 0 picks a free port, -1 none, -2 (the default) http.port + "
                                + PROBES_OFFSET + " (a free port when http.port is 0). Point the liveness and "
                                + "readiness probes and the metrics scraper at it.")
                .define(IDLE_TIMEOUT_MS, Type.LONG, ClientLimits.DEFAULT_IDLE_TIMEOUT.toMillis(), Range.atLeast(1),
                        Importance.LOW, "A REST connection silent this long (e.g. a client stalling in its body) is "
                                + "closed.")
                .define(HEADER_TIMEOUT_MS, Type.LONG, ClientLimits.DEFAULT_HEADER_TIMEOUT.toMillis(),
                        Range.atLeast(1), Importance.LOW, "A REST connection whose request line and headers have "
                                + "not all arrived this long after their first byte is closed (the idle timeout "
                                + "bounds silence only).")
                .define(MIN_REQUEST_DATA_RATE, Type.LONG, ClientLimits.DEFAULT_MIN_REQUEST_DATA_RATE, Range.atLeast(0),
                        Importance.LOW, "Bytes per second at which a request body must arrive on average, after "
                                + "its first " + ClientLimits.BODY_RATE_GRACE.toSeconds() + " seconds; a slower "
                                + "body is answered 408 and its connection closed. 0: no minimum.")
                .define(MAX_CONNECTIONS, Type.INT, ClientLimits.DEFAULT_MAX_CONNECTIONS, Range.atLeast(1),
                        Importance.LOW, "Open REST connections at most; more wait to be accepted.")
                .define(MAX_CONNECTIONS_PER_CLIENT, Type.INT, ClientLimits.DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
                        Range.atLeast(0), Importance.LOW, "Open connections one client (a remote IPv4 address, "
                                + "or an IPv6 /64) may hold on http.port; a further one is closed at once. 0: no cap. "
                                + "Behind a proxy every client has the proxy's address: raise it or set 0 there.")
                .define(TOKENS_FILE, Type.STRING, null, Importance.HIGH,
                        "Properties file of bearer tokens allowed to PUT and POST: <principal>.token=<secret>, "
                                + "<principal>.jobs=<job ids or prefix*> (default every job); without it the REST "
                                + "API is read-only.")
                .define(REQUIRE_TOKEN_FOR_READS, Type.BOOLEAN, false, Importance.MEDIUM,
                        "GETs need a bearer token of the tokens file too (health checks excepted).")
                .define(KEYSTORE, Type.STRING, null, Importance.MEDIUM,
                        "PKCS12 keystore of the REST API's key and certificate: serves HTTPS.")
                .define(KEYSTORE + PASSWORD, Type.PASSWORD, null, Importance.MEDIUM,
                        "Password of the keystore and its key.")
                .define(KEYSTORE + PASSWORD_FILE, Type.STRING, null, Importance.MEDIUM,
                        "File whose first line is the keystore password.")
                .define(TRUSTSTORE, Type.STRING, null, Importance.LOW,
                        "PKCS12 truststore of the certificates of the other instances, to forward queries to them "
                                + "over HTTPS; default: the JDK's trusted certificates.")
                .define(TRUSTSTORE + PASSWORD, Type.PASSWORD, null, Importance.LOW, "Password of the truststore.")
                .define(TRUSTSTORE + PASSWORD_FILE, Type.STRING, null, Importance.LOW,
                        "File whose first line is the truststore password.");
        return def;
    }

    /**
     * The REST API's settings, {@code null} for none.
     *
     * @throws IllegalArgumentException naming the key (or file) that is wrong
     */
    static QueryServerConfig toConfig(LayeredConfig config) {
        int port = config.getInt(PORT);
        if (port == -1) {
            return null;
        }
        int probesPort = config.getInt(PROBES_PORT);
        if (probesPort == PROBES_BESIDE_API) {
            probesPort = port == 0 ? 0 : port + PROBES_OFFSET;
            if (probesPort > 65_535) {
                throw config.problem(PORT, "is " + port + ", so the probes port it sets by default, " + PORT + " + "
                        + PROBES_OFFSET + ", would be above 65535: set " + PROBES_PORT + " (or -1 for none)");
            }
        }
        if (probesPort == port && port != 0) {
            throw config.problem(PROBES_PORT, "must differ from " + PORT + " (" + port + ")");
        }
        return QueryServerConfig.of(config.getString(BIND_ADDRESS), port, config.getString(ADVERTISED_HOST))
                .withLimits(limits(config))
                .withProbesPort(probesPort)
                .withAccess(access(config))
                .withTls(tls(config));
    }

    private static ClientLimits limits(LayeredConfig config) {
        return new ClientLimits(Duration.ofMillis(config.getLong(IDLE_TIMEOUT_MS)), config.getInt(MAX_CONNECTIONS),
                config.getInt(MAX_CONNECTIONS_PER_CLIENT), config.getLong(MIN_REQUEST_DATA_RATE),
                Duration.ofMillis(config.getLong(HEADER_TIMEOUT_MS)));
    }

    private static TlsConfig tls(LayeredConfig config) {
        String keyStore = config.getString(KEYSTORE);
        String trustStore = config.getString(TRUSTSTORE);
        if (keyStore == null) {
            if (trustStore != null) {
                throw config.problem(TRUSTSTORE, "needs " + KEYSTORE + " (HTTPS)");
            }
            return null;
        }
        return TlsConfig.load(Path.of(keyStore), password(config, KEYSTORE),
                trustStore == null ? null : Path.of(trustStore),
                trustStore == null ? null : password(config, TRUSTSTORE));
    }

    /** The password given directly or as the first line of a file; {@code null} when neither is. */
    private static char[] password(LayeredConfig config, String store) {
        Password password = config.getPassword(store + PASSWORD);
        String file = config.getString(store + PASSWORD_FILE);
        if (password != null && file != null) {
            throw config.contradiction(store + PASSWORD, store + PASSWORD_FILE);
        }
        if (file == null) {
            return password == null ? null : password.value().toCharArray();
        }
        try {
            List<String> lines = Files.readAllLines(Path.of(file));
            return lines.isEmpty() ? new char[0] : lines.get(0).toCharArray();
        } catch (IOException e) {
            throw config.problem(store + PASSWORD_FILE, "cannot be read: " + e);
        }
    }

    private static AccessPolicy access(LayeredConfig config) {
        String tokensFile = config.getString(TOKENS_FILE);
        boolean requireTokenForReads = config.getBoolean(REQUIRE_TOKEN_FOR_READS);
        if (tokensFile == null) {
            if (requireTokenForReads) {
                throw config.problem(REQUIRE_TOKEN_FOR_READS, "needs " + TOKENS_FILE);
            }
            return AccessPolicy.readOnly();
        }
        try {
            return AccessPolicy.withTokens(BearerTokens.load(Path.of(tokensFile)), requireTokenForReads);
        } catch (IllegalArgumentException e) {
            throw config.problem(TOKENS_FILE, e.getMessage());
        }
    }
}
