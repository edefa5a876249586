package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.metrics.Scrapes;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code GET /metrics} of a real coordinator on a real broker: a job completes a checkpoint, the next one is
 * declined, a broken record is dead-lettered, and the scrape shows the job's series, the dead letter and Kafka
 * Streams' own metrics; after a restart the series read from the stores are the same.
 */
@ExtendWith(KafkaClusterExtension.class)
class MetricsIT {

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldScrapePerJobSeriesDeadLettersAndKafkaStreamsMetricsAndKeepStoreFiguresAcrossARestart()
            throws Exception {
        String job = "metrics-" + UUID.randomUUID().toString().substring(0, 8);
        String attempt = job + "-source-a1";
        cairn.register(Events.job(job, 300, 60_000, "source"));
        cairn.startTask(job, "source", 0, attempt);
        CheckpointTriggered first = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));
        cairn.ack(job, first.getCheckpointId(), "source", 0, attempt);
        cairn.awaitNextControl(CheckpointCompleted.class, c -> c.getJobId().equals(job));
        CheckpointTriggered second = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && t.getCheckpointId() > first.getCheckpointId());
        cairn.decline(job, second.getCheckpointId(), "source", 0, attempt);
        cairn.awaitNextControl(CheckpointAborted.class, a -> a.getJobId().equals(job));
        cairn.sendRawRequest(job, "{not avro}".getBytes(StandardCharsets.UTF_8));

        String labels = "{job=\"" + job + "\"}";
        String scrape = awaitScrape(s -> Scrapes.find(s, "cairn_checkpoint_failures_total{job=\"" + job
                + "\",reason=\"CHECKPOINT_DECLINED\"}").isPresent()
                && Scrapes.find(s, "cairn_dead_letters_total{reason=\"NOT_SINGLE_OBJECT_ENCODED\","
                        + "stage=\"deserialization\"}").isPresent());
        Files.writeString(Path.of("target", "metrics-it-scrape.txt"), scrape);

        assertThat(Scrapes.value(scrape, "cairn_checkpoints_completed_total" + labels)).isEqualTo(1.0);
        double failed = Scrapes.value(scrape, "cairn_checkpoints_failed_total" + labels);
        assertThat(failed).as("the job's failed count equals its failures by reason (triggers that found the "
                + "task not yet running, and the decline)").isEqualTo(failuresByReason(scrape, job));
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_last_completed_size_bytes" + labels)).isEqualTo(1_000.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_acks_total" + labels)).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_duration_seconds_count{job=\"" + job
                + "\",type=\"CHECKPOINT\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_dead_letters_total{reason=\"NOT_SINGLE_OBJECT_ENCODED\","
                + "stage=\"deserialization\"}")).isEqualTo(1.0);
        assertThat(scrape).contains("kafka_stream_thread_process_total");
        assertThat(scrape).doesNotContain("subtask");

        cairn.restart();

        String restarted = awaitScrape(s -> Scrapes.find(s, "cairn_checkpoints_completed_total" + labels).isPresent());
        assertThat(Scrapes.value(restarted, "cairn_checkpoints_completed_total" + labels)).isEqualTo(1.0);
        assertThat(Scrapes.value(restarted, "cairn_checkpoints_failed_total" + labels)).isEqualTo(failed);
        assertThat(Scrapes.find(restarted, "cairn_checkpoint_acks_total" + labels)).isEmpty();
    }

    @Test
    void shouldAnswerReadyOnlyWithQueryableStoresAndRefuseToPostMetrics() throws Exception {
        HttpResponse<String> ready = cairn.rest().get("/ready");
        HttpResponse<String> post = cairn.rest().post("/metrics", "");

        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.body()).isEqualTo("{\"error\":\"POST is not allowed here; allowed: GET\"}");
    }

    /** The sum of the job's {@code cairn_checkpoint_failures_total} over every reason. */
    private static double failuresByReason(String scrape, String job) {
        return scrape.lines()
                .filter(line -> line.startsWith("cairn_checkpoint_failures_total{job=\"" + job + "\","))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static String awaitScrape(Predicate<String> until) {
        return cairn.rest().awaitBody("/metrics", r -> r.statusCode() == 200 && until.test(r.body()));
    }
}
