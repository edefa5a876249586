package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each sidecar's {@code GET /metrics}, scraped while a real coordinator checkpoints its job. */
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
