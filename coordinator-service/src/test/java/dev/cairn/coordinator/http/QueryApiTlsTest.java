package dev.cairn.coordinator.http;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.core.contract.InputLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REST API over HTTPS, and queries forwarded from one HTTPS instance to another. */
class QueryApiTlsTest {

    @TempDir
    static Path dir;
    private static Path keystore;

    @TempDir
    Path stateDir;

    private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void createKeystore() throws Exception {
        keystore = SelfSignedKeystore.create(dir);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : closing) {
            closeable.close();
        }
    }

    @Test
    void shouldServeGetsOverHttps() throws Exception {
        QueryServer server = start(new FixedStateSource(new JobLocation.Unavailable("restoring")));

        HttpResponse<String> response = https().send(HttpRequest.newBuilder(URI.create(server.uri() + "/health"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(server.uri().getScheme()).isEqualTo("https");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void shouldForwardAGetToTheOwnerOverHttps() throws Exception {
        CoordinatorDriver cairn = CoordinatorDriver.start(stateDir);
        closing.add(cairn);
        cairn.register(spec("job-1", task("source", 1)));
        QueryServer owner = start(cairn.localSource());
        QueryServer asked = start(new FixedStateSource(new JobLocation.Remote("127.0.0.1", owner.port())));

        HttpResponse<String> response = https().send(HttpRequest.newBuilder(URI.create(asked.uri() + "/jobs/job-1"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Cairn-Served-By")).hasValue(owner.applicationServer());
        assertThat(Json.MAPPER.readTree(response.body()).get("jid").asText()).isEqualTo("job-1");
    }

    @Test
    void shouldRefuseClientsThatDoNotTrustItsCertificate() {
        QueryServer server = start(new FixedStateSource(new JobLocation.Unavailable("restoring")));

        assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.uri() + "/health")).GET().build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void shouldNameTheFlagOfAWrongKeystorePassword() {
        assertThatThrownBy(() -> TlsConfig.load(keystore, "wrong".toCharArray(), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--http-tls-keystore-password does not open " + keystore);
        assertThatThrownBy(() -> TlsConfig.load(dir.resolve("missing.p12"), "x".toCharArray(), null, null))
                .hasMessageStartingWith("--http-tls-keystore: cannot read ");
        assertThatThrownBy(() -> TlsConfig.load(keystore, SelfSignedKeystore.PASSWORD.toCharArray(), keystore,
                "wrong".toCharArray())).hasMessageStartingWith("--http-tls-truststore-password does not open");
    }

    private QueryServer start(StateSource source) {
        TlsConfig tls = TlsConfig.load(keystore, SelfSignedKeystore.PASSWORD.toCharArray(), keystore,
                SelfSignedKeystore.PASSWORD.toCharArray());
        QueryServer server = QueryServer.bind(QueryServerConfig.loopback().withTls(tls));
        closing.add(server);
        server.start(source, new AlwaysUp(), (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
        return server;
    }

    private static HttpClient https() throws Exception {
        return HttpClient.newBuilder().sslContext(SelfSignedKeystore.trusting(keystore))
                .connectTimeout(Duration.ofSeconds(5)).build();
    }
}
