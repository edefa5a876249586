package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Each sidecar's {@code GET /metrics}, scraped while a real coordinator checkpoints its job, and its
 * {@code GET /health}, down while it starts and up once it runs.
 */
class SidecarMetricsIT extends SidecarTestBase {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldCountTakenAndDeclinedSnapshotsNotificationsAndTheRestoreOfEachSidecar() throws Exception {
        String job = CoordinatorTestBed.uniqueJobId("metrics");
        bed.register(Events.job(job, 150, 60_000, "source", "sink"));
        Sidecar source = sidecars.start(SidecarConfigCopies.withMetrics(sidecars.config(job, "source", 0), 0,
                "127.0.0.1"), RecordingHook.acking());
        Sidecar sink = sidecars.start(SidecarConfigCopies.withMetrics(sidecars.config(job, "sink", 0), 0, "127.0.0.1"),
                RecordingHook.declining(id -> id == 2, "not now"));
        CheckpointCompleted completed = bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));
        bed.awaitJournal(CheckpointDeclined.class, d -> d.getJobId().equals(job) && d.getCheckpointId() == 2);

        String sourceScrape = awaitScrape(source, "cairn_sidecar_notifications_total{kind=\"complete\"}");
        String sinkScrape = awaitScrape(sink, "cairn_sidecar_snapshots_total{outcome=\"declined\"}");

        assertThat(completed.getCheckpointId()).isEqualTo(1);
        assertThat(value(sourceScrape, "cairn_sidecar_snapshots_total{outcome=\"taken\"}")).isGreaterThanOrEqualTo(2.0);
        assertThat(value(sourceScrape, "cairn_sidecar_restores_total{from=\"none\"}")).isEqualTo(1.0);
        assertThat(value(sinkScrape, "cairn_sidecar_snapshots_total{outcome=\"declined\"}")).isEqualTo(1.0);
        assertThat(value(sinkScrape,
                "cairn_sidecar_hook_duration_seconds_count{call=\"snapshot\",outcome=\"declined\"}"))
                .isEqualTo(1.0);
        assertThat(sinkScrape).contains("jvm_memory_used_bytes");
    }

    @Test
    void shouldAnswerHealthDownWhileTheWorkerRestoresAndUpOnceTheSidecarRuns() throws Exception {
        String job = CoordinatorTestBed.uniqueJobId("health");
        bed.register(Events.job(job, 60_000, 60_000, "source"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        CountDownLatch restoring = new CountDownLatch(1);
        CountDownLatch restore = new CountDownLatch(1);
        RecordingHook worker = RecordingHook.acking();
        SnapshotHook slowRestore = new SnapshotHook() {
            @Override
            public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
                return worker.snapshot(request);
            }

            @Override
            public void notifyComplete(long checkpointId, long lastSubsumedId) {
                worker.notifyComplete(checkpointId, lastSubsumedId);
            }

            @Override
            public void notifyAborted(long checkpointId, long latestCompletedId) {
                worker.notifyAborted(checkpointId, latestCompletedId);
            }

            @Override
            public void restore(Optional<RestorePoint> from) throws InterruptedException {
                restoring.countDown();
                restore.await();
            }
        };
        SidecarConfig config = SidecarConfigCopies.withMetrics(sidecars.config(job, "source", 0), port, "127.0.0.1");
        CompletableFuture<Sidecar> started = CompletableFuture.supplyAsync(() -> sidecars.start(config, slowRestore));
        assertThat(restoring.await(CoordinatorTestBed.WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

        HttpResponse<String> starting = health(port);
        restore.countDown();
        Sidecar sidecar = started.get(CoordinatorTestBed.WAIT.toSeconds(), TimeUnit.SECONDS);
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        await().atMost(CoordinatorTestBed.WAIT).until(() -> {
            last.set(health(port));
            return last.get().statusCode() == 200;
        });

        assertThat(starting.statusCode()).isEqualTo(503);
        assertThat(starting.body()).contains("\"status\":\"DOWN\"", "starting: ");
        assertThat(last.get().body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(sidecar.metricsPort()).hasValue(port);
    }

    private HttpResponse<String> health(int port) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String awaitScrape(Sidecar sidecar, String series) {
        int port = sidecar.metricsPort().orElseThrow();
        String[] last = new String[1];
        await().atMost(CoordinatorTestBed.WAIT).until(() -> {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/metrics")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            last[0] = response.body();
            return response.statusCode() == 200 && find(response.body(), series).isPresent();
        });
        return last[0];
    }

    private static double value(String scrape, String series) {
        return find(scrape, series).orElseThrow(() -> new AssertionError("no sample " + series + " in:\n" + scrape));
    }

    private static Optional<Double> find(String scrape, String series) {
        return scrape.lines().filter(line -> line.startsWith(series + " "))
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .findFirst();
    }
}
