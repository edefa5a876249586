package dev.cairn.coordinator.metrics;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real topology on a TopologyTestDriver, with the coordinator's metrics: a checkpoint completes, the next
 * one is declined, a record is dead-lettered, and the scrape shows it all, per job.
 */
class MetricsScrapeTest {

    private static final String JOB = "orders";

    @TempDir
    Path stateDir;

    private final CoordinatorMetrics metrics = new CoordinatorMetrics();
    private CoordinatorDriver cairn;
    private Source source;
    private long expectedDurationMs;

    @BeforeEach
    void completeOneCheckpointAndFailTheNext() {
        cairn = CoordinatorDriver.on(stateDir).metrics(metrics).start();
        source = new Source(cairn.localSource());
        metrics.watchJobs(source);
        cairn.register(spec(JOB, task("map", 2)));
        cairn.startTask(JOB, "map", 0);
        cairn.startTask(JOB, "map", 1);
        CheckpointTriggered first = cairn.nextTrigger();
        cairn.ack(JOB, first.getCheckpointId(), "map", 0, 100);
        cairn.advance(Duration.ofMillis(300));
        cairn.ack(JOB, first.getCheckpointId(), "map", 1, 250);
        expectedDurationMs = cairn.now() - first.getTimestampMs();
        CheckpointTriggered second = cairn.nextTrigger();
        cairn.decline(JOB, second.getCheckpointId(), "map", 1);
    }

    @AfterEach
    void stop() {
        cairn.close();
        metrics.close();
    }

    @Test
    void shouldReportTheJobsCountsAndLatestCheckpointFromItsStateWhenScraped() {
        String scrape = scrape();

        assertThat(Scrapes.value(scrape, "cairn_checkpoints_triggered_total{job=\"orders\"}")).isEqualTo(2.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoints_completed_total{job=\"orders\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoints_failed_total{job=\"orders\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoints_in_progress{job=\"orders\"}")).isEqualTo(0.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_consecutive_failures{job=\"orders\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_last_completed_size_bytes{job=\"orders\"}"))
                .isEqualTo(350.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_last_completed_duration_seconds{job=\"orders\"}"))
                .isEqualTo(expectedDurationMs / 1000.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoints_completed_size_bytes_total{job=\"orders\"}"))
                .isEqualTo(350.0);
        assertThat(Scrapes.value(scrape, "cairn_coordinator_jobs")).isEqualTo(1.0);
    }

    @Test
    void shouldReportTheJobsStatusLastCompletedIdAndIntervalFromItsState() {
        String scrape = scrape();

        assertThat(Scrapes.value(scrape, "cairn_job_status{job=\"orders\",status=\"RUNNING\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_job_status{job=\"orders\",status=\"FAILED\"}")).isEqualTo(0.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_last_completed_id{job=\"orders\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape, "cairn_checkpoint_interval_seconds{job=\"orders\"}")).isEqualTo(1.0);

        cairn.send(JOB, new RequestEnvelope(JobStatusChange.newBuilder().setJobId(JOB).setStatus(JobStatus.SUSPENDED)
                .setTimestampMs(cairn.now()).build()));
        String suspended = scrape();
        assertThat(Scrapes.value(suspended, "cairn_job_status{job=\"orders\",status=\"SUSPENDED\"}"))
                .isEqualTo(1.0);
        assertThat(Scrapes.value(suspended, "cairn_job_status{job=\"orders\",status=\"RUNNING\"}")).isEqualTo(0.0);
    }

    @Test
    void shouldDropEverySeriesOfTheJobWhenItIsRemoved() {
        assertThat(scrape()).contains("cairn_job_status{job=\"orders\"");
        cairn.send(JOB, new RequestEnvelope(JobStatusChange.newBuilder().setJobId(JOB).setStatus(JobStatus.CANCELED)
                .setTimestampMs(cairn.now()).build()));
        assertThat(Scrapes.value(scrape(), "cairn_job_status{job=\"orders\",status=\"CANCELED\"}")).isEqualTo(1.0);

        cairn.send(JOB, new RequestEnvelope(RemoveJob.newBuilder().setJobId(JOB).setRequestId("remove-1")
                .setRequester("test").setTimestampMs(cairn.now()).build()));

        assertThat(scrape().lines().filter(line -> line.contains("job=\"orders\""))).isEmpty();
    }

    @Test
    void shouldCountAcksFailuresAndDurationsFromTheDecidedEvents() {
        String scrape = scrape();

        assertThat(Scrapes.value(scrape, "cairn_checkpoint_acks_total{job=\"orders\"}")).isEqualTo(2.0);
        assertThat(Scrapes.value(scrape,
                "cairn_checkpoint_failures_total{job=\"orders\",reason=\"CHECKPOINT_DECLINED\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape,
                "cairn_checkpoint_duration_seconds_count{job=\"orders\",type=\"CHECKPOINT\"}")).isEqualTo(1.0);
        assertThat(Scrapes.value(scrape,
                "cairn_checkpoint_duration_seconds_sum{job=\"orders\",type=\"CHECKPOINT\"}"))
                .isEqualTo(expectedDurationMs / 1000.0);
    }

    @Test
    void shouldCountADeadLetterByStageAndReasonWhenARecordCannotBeRead() {
        cairn.pipeUnreadableRequest("job-x");

        assertThat(Scrapes.value(scrape(),
                "cairn_dead_letters_total{reason=\"NOT_SINGLE_OBJECT_ENCODED\",stage=\"deserialization\"}"))
                .isEqualTo(1.0);
    }

    @Test
    void shouldDropTheJobsSeriesWhenItsPartitionMovesAwayAndRestoreThemExactWhenItComesBack() {
        source.partitions = List.of();
        String moved = scrape();
        assertThat(Scrapes.find(moved, "cairn_checkpoints_triggered_total{job=\"orders\"}")).isEmpty();
        assertThat(Scrapes.value(moved, "cairn_coordinator_jobs")).isEqualTo(0.0);

        source.partitions = List.of(0);
        assertThat(Scrapes.value(scrape(), "cairn_checkpoints_triggered_total{job=\"orders\"}")).isEqualTo(2.0);
    }

    @Test
    void shouldLeaveOutAndCountAPartitionWhoseStoresCannotBeRead() {
        source.readable = false;

        String scrape = scrape();

        assertThat(Scrapes.find(scrape, "cairn_checkpoints_triggered_total{job=\"orders\"}")).isEmpty();
        assertThat(Scrapes.value(scrape, "cairn_coordinator_unreadable_partitions")).isEqualTo(1.0);
    }

    private String scrape() {
        return new String(metrics.scrape(null).body(), StandardCharsets.UTF_8);
    }

    /** The driver's stores, owned or not, readable or not, as the test says. */
    private static final class Source implements StateSource {

        private final StateSource stores;
        private volatile List<Integer> partitions = List.of(0);
        private volatile boolean readable = true;

        Source(StateSource stores) {
            this.stores = stores;
        }

        @Override
        public JobLocation locate(String jobId) {
            return stores.locate(jobId);
        }

        @Override
        public CoordinatorState reader(int partition) {
            if (!readable) {
                throw ApiException.unavailable("the stores of partition " + partition + " are restoring");
            }
            return stores.reader(partition);
        }

        @Override
        public List<Integer> localPartitions() {
            return partitions;
        }

        @Override
        public List<JobLocation.Remote> otherInstances() {
            return List.of();
        }
    }
}
