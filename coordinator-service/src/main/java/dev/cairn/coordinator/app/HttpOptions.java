package dev.cairn.coordinator.app;

import dev.cairn.coordinator.query.AccessPolicy;
import dev.cairn.coordinator.query.BearerTokens;
import dev.cairn.coordinator.query.QueryServerConfig;
import dev.cairn.coordinator.query.TlsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The flags of the coordinator's REST API (a picocli mixin of {@link CoordinatorMain}): where it listens,
 * how long a silent connection lives, how many connections it takes, who may change jobs, and HTTPS.
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

    @Option(names = "--http-tls-keystore", defaultValue = "${env:CAIRN_HTTP_TLS_KEYSTORE}",
            description = "PKCS12 keystore of the REST API's key and certificate: serves HTTPS "
                    + "(env CAIRN_HTTP_TLS_KEYSTORE).")
    Path keyStore;

    @Option(names = "--http-tls-keystore-password", defaultValue = "${env:CAIRN_HTTP_TLS_KEYSTORE_PASSWORD}",
            description = "Password of the keystore and its key (env CAIRN_HTTP_TLS_KEYSTORE_PASSWORD).")
    String keyStorePassword;

    @Option(names = "--http-tls-keystore-password-file",
            defaultValue = "${env:CAIRN_HTTP_TLS_KEYSTORE_PASSWORD_FILE}",
            description = "File whose first line is the keystore password (env CAIRN_HTTP_TLS_KEYSTORE_PASSWORD_FILE).")
    Path keyStorePasswordFile;

    @Option(names = "--http-tls-truststore", defaultValue = "${env:CAIRN_HTTP_TLS_TRUSTSTORE}",
            description = "PKCS12 truststore of the certificates of the other instances, to forward queries to "
                    + "them over HTTPS; default: the JDK's trusted certificates (env CAIRN_HTTP_TLS_TRUSTSTORE).")
    Path trustStore;

    @Option(names = "--http-tls-truststore-password", defaultValue = "${env:CAIRN_HTTP_TLS_TRUSTSTORE_PASSWORD}",
            description = "Password of the truststore (env CAIRN_HTTP_TLS_TRUSTSTORE_PASSWORD).")
    String trustStorePassword;

    @Option(names = "--http-tls-truststore-password-file",
            defaultValue = "${env:CAIRN_HTTP_TLS_TRUSTSTORE_PASSWORD_FILE}",
            description = "File whose first line is the truststore password "
                    + "(env CAIRN_HTTP_TLS_TRUSTSTORE_PASSWORD_FILE).")
    Path trustStorePasswordFile;

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
                .withAccess(access())
                .withTls(tls());
    }

    private TlsConfig tls() {
        if (keyStore == null) {
            if (trustStore != null) {
                throw new IllegalArgumentException("--http-tls-truststore needs --http-tls-keystore (HTTPS)");
            }
            return null;
        }
        return TlsConfig.load(keyStore, password("--http-tls-keystore", keyStorePassword, keyStorePasswordFile),
                trustStore, trustStore == null ? null
                        : password("--http-tls-truststore", trustStorePassword, trustStorePasswordFile));
    }

    /** The password given directly or as the first line of a file; {@code null} when neither is. */
    private static char[] password(String flag, String password, Path passwordFile) {
        if (password != null && passwordFile != null) {
            throw new IllegalArgumentException("give " + flag + "-password or " + flag + "-password-file, not both");
        }
        if (passwordFile == null) {
            return password == null ? null : password.toCharArray();
        }
        try {
            List<String> lines = Files.readAllLines(passwordFile);
            return lines.isEmpty() ? new char[0] : lines.get(0).toCharArray();
        } catch (IOException e) {
            throw new IllegalArgumentException(flag + "-password-file: cannot read " + passwordFile + ": " + e, e);
        }
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
