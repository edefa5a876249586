package dev.cairn.coordinator.app;

import dev.cairn.coordinator.query.AccessPolicy;
import dev.cairn.coordinator.query.BearerTokens;
import dev.cairn.coordinator.query.QueryServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The flags of the coordinator's REST API (a picocli mixin of {@link CoordinatorMain}): where it listens,
 * how long a silent connection lives, how many connections it takes, and who may change jobs.
 */
final class HttpOptions {

    @Option(names = "--http-port", defaultValue = "${env:CAIRN_HTTP_PORT:-8081}",
            description = "Port of the REST API over the state stores; 0 picks a free port, -1 runs no REST API "
                    + "(env CAIRN_HTTP_PORT, default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--http-bind-address", defaultValue = "${env:CAIRN_HTTP_BIND_ADDRESS:-127.0.0.1}",
            description = "Address the REST API listens on; 0.0.0.0 for every interface "
                    + "(env CAIRN_HTTP_BIND_ADDRESS, default ${DEFAULT-VALUE}: this machine only).")
    String bindAddress;

    @Option(names = "--advertised-host", defaultValue = "${env:CAIRN_ADVERTISED_HOST}",
            description = "Host at which the other coordinator instances reach this one's REST API (it becomes "
                    + "Kafka Streams' application.server, which routes queries); default: the bind address, or "
                    + "this machine's host name when listening on every interface (env CAIRN_ADVERTISED_HOST).")
    String advertisedHost;

    @Option(names = "--http-idle-timeout-ms", defaultValue = "${env:CAIRN_HTTP_IDLE_TIMEOUT_MS:-10000}",
            description = "A REST connection silent this long (e.g. a client stalling in its body) is closed "
                    + "(env CAIRN_HTTP_IDLE_TIMEOUT_MS, default ${DEFAULT-VALUE}).")
    long idleTimeoutMs;

    @Option(names = "--http-max-connections", defaultValue = "${env:CAIRN_HTTP_MAX_CONNECTIONS:-200}",
            description = "Open REST connections at most; more wait to be accepted "
                    + "(env CAIRN_HTTP_MAX_CONNECTIONS, default ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--http-tokens-file", defaultValue = "${env:CAIRN_HTTP_TOKENS_FILE}",
            description = "Properties file of bearer tokens allowed to PUT and POST: <principal>.token=<secret>, "
                    + "<principal>.jobs=<job ids or prefix*> (default every job); without it the REST API is "
                    + "read-only (env CAIRN_HTTP_TOKENS_FILE).")
    Path tokensFile;

    @Option(names = "--http-require-token-for-reads",
            defaultValue = "${env:CAIRN_HTTP_REQUIRE_TOKEN_FOR_READS:-false}",
            description = "GETs need a bearer token of the tokens file too (health checks excepted) "
                    + "(env CAIRN_HTTP_REQUIRE_TOKEN_FOR_READS, default ${DEFAULT-VALUE}).")
    boolean requireTokenForReads;

    /**
     * The REST API's settings, {@code null} for none.
     *
     * @throws IllegalArgumentException naming the flag (or file) that is wrong
     */
    QueryServerConfig toConfig() {
        if (port < -1) {
            throw new IllegalArgumentException("--http-port must be -1 (no REST API), 0 (a free port) or a port "
                    + "number, was " + port);
        }
        if (port == -1) {
            return null;
        }
        return QueryServerConfig.of(bindAddress, port, advertisedHost)
                .withLimits(Duration.ofMillis(idleTimeoutMs), maxConnections)
                .withAccess(access());
    }

    private AccessPolicy access() {
        if (tokensFile == null) {
            if (requireTokenForReads) {
                throw new IllegalArgumentException("--http-require-token-for-reads needs --http-tokens-file");
            }
            return AccessPolicy.readOnly();
        }
        try {
            return AccessPolicy.withTokens(BearerTokens.load(tokensFile), requireTokenForReads);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--http-tokens-file: " + e.getMessage(), e);
        }
    }
}
