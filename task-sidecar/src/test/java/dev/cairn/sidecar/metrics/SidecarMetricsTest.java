package dev.cairn.sidecar.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sidecar's metrics: what the wrapped hook counts and times, and the endpoint that serves them. */
class SidecarMetricsTest {

    private final SidecarMetrics metrics = new SidecarMetrics();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private MetricsServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        metrics.close();
    }

    @Test
    void shouldCountSnapshotsByOutcomeWhenTheWorkerTakesDeclinesFailsOrIsCancelled() throws Exception {
        CompletableFuture<SnapshotResult> cancelled = new CompletableFuture<>();
        SnapshotHook hook = metrics.instrument(new Worker(id -> switch ((int) id) {
            case 1, 2 -> CompletableFuture.completedFuture(SnapshotResult.of("file:///s/" + id, 10));
            case 3 -> CompletableFuture.failedFuture(new SnapshotDeclinedException(
                    CheckpointFailureReason.CHECKPOINT_DECLINED, "not now"));
            case 4 -> CompletableFuture.failedFuture(new IllegalStateException("disk full"));
            default -> cancelled;
        }));

        for (long id = 1; id <= 5; id++) {
            hook.snapshot(request(id));
        }
        cancelled.cancel(true);

        String scrape = scrape();
        assertThat(value(scrape, "cairn_sidecar_snapshots_total{outcome=\"taken\"}")).isEqualTo(2.0);
        assertThat(value(scrape, "cairn_sidecar_snapshots_total{outcome=\"declined\"}")).isEqualTo(1.0);
        assertThat(value(scrape, "cairn_sidecar_snapshots_total{outcome=\"failed\"}")).isEqualTo(1.0);
        assertThat(value(scrape, "cairn_sidecar_snapshots_total{outcome=\"cancelled\"}")).isEqualTo(1.0);
        assertThat(value(scrape, "cairn_sidecar_hook_duration_seconds_count{call=\"snapshot\",outcome=\"taken\"}"))
                .isEqualTo(2.0);
        assertThat(value(scrape,
                "cairn_sidecar_hook_duration_seconds_bucket{call=\"snapshot\",outcome=\"taken\",le=\"+Inf\"}"))
                .isEqualTo(2.0);
    }

    @Test
    void shouldCountAHookThatThrowsAsFailedAndStillThrow() {
        SnapshotHook hook = metrics.instrument(new Worker(id -> {
            throw new IllegalStateException("worker gone");
        }));

        assertThatThrownBy(() -> hook.snapshot(request(1))).hasMessage("worker gone");
        assertThat(value(scrape(), "cairn_sidecar_snapshots_total{outcome=\"failed\"}")).isEqualTo(1.0);
    }

    @Test
    void shouldCountNotificationsAndRestoresWhenTheyReachTheWorker() throws Exception {
        SnapshotHook hook = metrics.instrument(new Worker(id -> null));

        hook.restore(Optional.of(new RestorePoint(4, "file:///s/4", 10)));
        hook.notifyComplete(new CheckpointCompletion(5, 4, false, false));
        hook.notifyAborted(6, 5);

        String scrape = scrape();
        assertThat(value(scrape, "cairn_sidecar_restores_total{from=\"checkpoint\"}")).isEqualTo(1.0);
        assertThat(value(scrape, "cairn_sidecar_notifications_total{kind=\"complete\"}")).isEqualTo(1.0);
        assertThat(value(scrape, "cairn_sidecar_notifications_total{kind=\"aborted\"}")).isEqualTo(1.0);
        assertThat(value(scrape, "cairn_sidecar_hook_duration_seconds_count{call=\"restore\",outcome=\"ok\"}"))
                .isEqualTo(1.0);
    }

    @Test
    void shouldCountTheDiscardedObjectsAndBytesByCauseWhenTheyAreHandedToTheWorker() throws Exception {
        SnapshotHook hook = metrics.instrument(new Worker(id -> null));

        hook.discardState(DiscardedState.ofCheckpoint(3, "file:///s/3", 100, false, DiscardReason.SUBSUMED, "s"));
        hook.discardState(DiscardedState.ofCheckpoint(3, "file:///s/sst-1", 40, true, DiscardReason.SUBSUMED, "s"));
        hook.discardState(DiscardedState.ofCheckpoint(3, "file:///s/sst-2", 2, true, DiscardReason.SUBSUMED, "s"));
        hook.discardState(new DiscardedState(5, "file:///s/5", 7, AckDiscardStatus.LATE, "late"));

        String scrape = scrape();
        assertThat(value(scrape, "cairn_sidecar_discarded_objects_total{cause=\"subsumed\",shared=\"true\"}"))
                .isEqualTo(2.0);
        assertThat(value(scrape, "cairn_sidecar_discarded_bytes_total{cause=\"subsumed\",shared=\"true\"}"))
                .isEqualTo(42.0);
        assertThat(value(scrape, "cairn_sidecar_discarded_bytes_total{cause=\"subsumed\",shared=\"false\"}"))
                .isEqualTo(100.0);
        assertThat(value(scrape, "cairn_sidecar_discarded_objects_total{cause=\"late\",shared=\"false\"}"))
                .isEqualTo(1.0);
        assertThat(value(scrape, "cairn_sidecar_notifications_total{kind=\"discard_state\"}")).isEqualTo(4.0);
    }

    @Test
    void shouldServeTheMetricsOnGetAndAJsonErrorOtherwiseWhenScrapedOverHttp() throws Exception {
        metrics.instrument(new Worker(id -> null)).notifyAborted(1, -1);
        server = MetricsServer.start(metrics, SidecarHealth::healthy, "127.0.0.1", 0);

        HttpResponse<String> get = send(HttpRequest.newBuilder(uri("/metrics")).GET().build());
        HttpResponse<String> post = send(HttpRequest.newBuilder(uri("/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        HttpResponse<String> elsewhere = send(HttpRequest.newBuilder(uri("/snapshot")).GET().build());

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(value(get.body(), "cairn_sidecar_notifications_total{kind=\"aborted\"}")).isEqualTo(1.0);
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET");
        assertThat(new ObjectMapper().readTree(post.body()).get("error").asText())
                .isEqualTo("POST is not allowed here; allowed: GET");
        assertThat(elsewhere.statusCode()).isEqualTo(404);
        assertThat(new ObjectMapper().readTree(elsewhere.body()).get("error").asText())
                .isEqualTo("no endpoint GET /snapshot; the sidecar serves GET /metrics and GET /health");
    }

    @Test
    void shouldServeOpenMetricsWhenAskedForIt() throws Exception {
        server = MetricsServer.start(metrics, SidecarHealth::healthy, "127.0.0.1", 0);

        HttpResponse<String> get = send(HttpRequest.newBuilder(uri("/metrics"))
                .header("Accept", "application/openmetrics-text; version=1.0.0").GET().build());

        assertThat(get.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/openmetrics-text"));
        assertThat(get.body()).endsWith("# EOF\n");
    }

    @Test
    void shouldSayWhichAddressCannotBeBoundWhenThePortIsTaken() {
        server = MetricsServer.start(metrics, SidecarHealth::healthy, "127.0.0.1", 0);

        assertThatThrownBy(() -> MetricsServer.start(metrics, SidecarHealth::healthy, "127.0.0.1", server.port()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot serve the sidecar's metrics on 127.0.0.1:" + server.port());
    }

    private String scrape() {
        return new String(metrics.scrape(null).body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    static double value(String scrape, String series) {
        return scrape.lines().filter(line -> line.startsWith(series + " "))
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .findFirst().orElseThrow(() -> new AssertionError("no sample " + series + " in:\n" + scrape));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static SnapshotRequest request(long checkpointId) {
        return new SnapshotRequest(checkpointId, 1_000L, CheckpointType.CHECKPOINT, "file:///s/chk-" + checkpointId,
                "orders", "map", 0);
    }

    /** A worker that answers snapshots as told and ignores notifications. */
    private record Worker(LongFunction<CompletionStage<SnapshotResult>> answers) implements SnapshotHook {

        @Override
        public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
            return answers.apply(request.checkpointId());
        }

        @Override
        public void notifyComplete(long checkpointId, long lastSubsumedId) {
        }

        @Override
        public void notifyAborted(long checkpointId, long latestCompletedId) {
        }

        @Override
        public void restore(Optional<RestorePoint> from) {
        }
    }
}
