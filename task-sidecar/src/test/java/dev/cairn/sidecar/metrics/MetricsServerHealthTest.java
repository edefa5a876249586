package dev.cairn.sidecar.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MetricsServerHealthTest {

    private final SidecarMetrics metrics = new SidecarMetrics();
    private final AtomicReference<SidecarHealth> health = new AtomicReference<>(SidecarHealth.down("starting"));
    private final MetricsServer server = MetricsServer.start(metrics, health::get, "127.0.0.1", 0);

    @AfterEach
    void close() {
        server.close();
        metrics.close();
    }

    @Test
    void shouldAnswer503WithTheReasonWhenTheSidecarIsDownAnd200WhenItIsUp() throws Exception {
        HttpResponse<String> down = get("/health");
        health.set(SidecarHealth.healthy());
        HttpResponse<String> up = get("/health");

        assertThat(down.statusCode()).isEqualTo(503);
        assertThat(down.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        JsonNode body = new ObjectMapper().readTree(down.body());
        assertThat(body.get("status").asText()).isEqualTo("DOWN");
        assertThat(body.get("reason").asText()).isEqualTo("starting");
        assertThat(up.statusCode()).isEqualTo(200);
        assertThat(up.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void shouldRefuseAnotherMethodThanGetWhenAskedForHealth() throws Exception {
        HttpResponse<String> post = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(MetricsServer
                .HEALTH_PATH)).POST(HttpRequest.BodyPublishers.ofString("{")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET");
        assertThat(new ObjectMapper().readTree(post.body()).get("error").asText())
                .isEqualTo("POST is not allowed here; allowed: GET");
    }

    @Test
    void shouldNotTakeAPathUnderHealthForHealthWhenAsked() throws Exception {
        HttpResponse<String> elsewhere = get("/health/live");

        assertThat(elsewhere.statusCode()).isEqualTo(404);
        assertThat(new ObjectMapper().readTree(elsewhere.body()).get("error").asText())
                .isEqualTo("no endpoint GET /health/live; the sidecar serves GET /metrics and GET /health");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
