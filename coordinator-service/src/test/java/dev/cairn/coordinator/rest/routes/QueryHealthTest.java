package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.HealthSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.core.contract.InputLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code /health} and {@code /ready}: answered by the instance asked, with no token, whatever the jobs' state. */
class QueryHealthTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private volatile HealthSource.Health liveness = HealthSource.Health.up();
    private volatile HealthSource.Health readiness = HealthSource.Health.up();
    private QueryServer server;

    @BeforeEach
    void startServerThatNeedsTokensForReadsAndOwnsNoJob() {
        server = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.readsToo()));
        server.start(new FixedStateSource(new JobLocation.Remote("127.0.0.1", 1)), new HealthSource() {
            @Override
            public Health liveness() {
                return liveness;
            }

            @Override
            public Health readiness() {
                return readiness;
            }
        }, (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldAnswer200UpWithoutATokenWhenHealthy() throws Exception {
        HttpResponse<String> live = get("/health");
        HttpResponse<String> ready = get("/ready");

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(live.headers().firstValue("X-Cairn-Served-By")).hasValue(server.applicationServer());
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void shouldAnswer503DownWithTheReasonOfEachCheck() throws Exception {
        readiness = HealthSource.Health.down("Kafka Streams is REBALANCING, not RUNNING");

        HttpResponse<String> ready = get("/ready");
        assertThat(ready.statusCode()).isEqualTo(503);
        JsonNode body = Json.MAPPER.readTree(ready.body());
        assertThat(body.get("status").asText()).isEqualTo("DOWN");
        assertThat(body.get("reason").asText()).isEqualTo("Kafka Streams is REBALANCING, not RUNNING");
        assertThat(get("/health").statusCode()).isEqualTo(200);

        liveness = HealthSource.Health.down("Kafka Streams is ERROR");
        assertThat(get("/health").statusCode()).isEqualTo(503);
        assertThat(Json.MAPPER.readTree(get("/health").body()).get("reason").asText())
                .isEqualTo("Kafka Streams is ERROR");
    }

    @Test
    void shouldAllowOnlyGetOnHealthEndpoints() throws Exception {
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(server.uri() + "/health"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(post.statusCode()).isEqualTo(405);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.uri() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
