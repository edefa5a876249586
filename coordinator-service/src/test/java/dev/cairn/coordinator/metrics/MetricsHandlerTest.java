package dev.cairn.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.client.Json;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.testbed.NoJobs;
import dev.cairn.core.contract.InputLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} on the REST API's server, in front of the API: open, negotiated, GET only; and on the probes
 * port beside {@code /health}.
 */
class MetricsHandlerTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final CoordinatorMetrics metrics = new CoordinatorMetrics();
    private QueryServer server;

    @BeforeEach
    void startServerWithMetricsAndNoJobs() {
        metrics.decisions().decided("orders", List.of(DecisionMetricsTest.ack("orders", 0)), 1_000);
        server = QueryServer.bind(QueryServerConfig.loopback().withProbesPort(0));
        server.start(new NoJobs(), new AlwaysUp(), (jobId, request) -> { }, InputLimits.DEFAULTS,
                api -> new MetricsHandler(metrics, api));
    }

    @AfterEach
    void stop() {
        server.close();
        metrics.close();
    }

    @Test
    void shouldServePrometheusTextWhenScrapedWithoutAcceptHeader() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/metrics")).GET().build());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).contains("# TYPE cairn_checkpoint_acks_total counter");
        assertThat(Scrapes.value(response.body(), "cairn_checkpoint_acks_total{job=\"orders\"}")).isEqualTo(1.0);
        assertThat(response.body()).contains("jvm_memory_used_bytes");
    }

    @Test
    void shouldServeOpenMetricsWhenPrometheusAsksForIt() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/metrics"))
                .header("Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5")
                .GET().build());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/openmetrics-text; version=1.0.0"));
        assertThat(response.body()).endsWith("# EOF\n");
    }

    @Test
    void shouldAnswer405WithJsonErrorWhenMetricsAreNotAskedWithGet() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(Json.MAPPER.readTree(response.body()).get("error").asText())
                .isEqualTo("POST is not allowed here; allowed: GET");
    }

    @Test
    void shouldLeaveEveryOtherPathToTheApiWhenMetricsAreInFront() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri("/health")).GET().build()).body()).isEqualTo("{\"status\":\"UP\"}");
        HttpResponse<String> unknown = send(HttpRequest.newBuilder(uri("/metrics/extra")).GET().build());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Json.MAPPER.readTree(unknown.body()).get("error").asText())
                .startsWith("no endpoint GET /metrics/extra");
    }

    @Test
    void shouldServeTheMetricsAndHealthButNotTheApiOnTheProbesPort() throws Exception {
        URI probes = URI.create("http://127.0.0.1:" + server.probesPort());

        HttpResponse<String> scrape = send(HttpRequest.newBuilder(URI.create(probes + "/metrics")).GET().build());
        HttpResponse<String> health = send(HttpRequest.newBuilder(URI.create(probes + "/health")).GET().build());
        HttpResponse<String> jobs = send(HttpRequest.newBuilder(URI.create(probes + "/jobs")).GET().build());

        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(Scrapes.value(scrape.body(), "cairn_checkpoint_acks_total{job=\"orders\"}")).isEqualTo(1.0);
        assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(jobs.statusCode()).isEqualTo(404);
        assertThat(Json.MAPPER.readTree(jobs.body()).get("error").asText())
                .startsWith("the probes port serves only /health, /ready and /metrics");
        assertThat(probes.getPort()).isNotEqualTo(server.port());
    }

    private URI uri(String path) {
        return URI.create(server.uri() + path);
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
