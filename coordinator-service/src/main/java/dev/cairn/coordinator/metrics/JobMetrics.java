package dev.cairn.coordinator.metrics;

import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.events.JobStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-job metrics read from the stores of the jobs this instance owns, at scrape time ({@link #refresh}):
 * exact after a restart, a rebalance or a move, because they are the coordinator's own state. A job's series
 * appear on the instance that owns it and disappear from it when the job moves away. All labelled by
 * {@code job}:
 *
 * <ul>
 *   <li>{@code cairn_checkpoints_triggered_total}, {@code cairn_checkpoints_completed_total},
 *       {@code cairn_checkpoints_failed_total}: Flink's checkpoint counts, over the job's life;</li>
 *   <li>{@code cairn_checkpoints_completed_duration_seconds_total},
 *   {@code cairn_checkpoints_completed_size_bytes_total}:
 *       sums over every completed checkpoint (their ratio to the completed count is the mean);</li>
 *   <li>{@code cairn_checkpoints_in_progress}, {@code cairn_checkpoint_requests_queued},
 *       {@code cairn_checkpoint_consecutive_failures}: now;</li>
 *   <li>{@code cairn_checkpoint_last_completed_duration_seconds}, {@code cairn_checkpoint_last_completed_size_bytes},
 *       {@code cairn_checkpoint_last_completion_timestamp_seconds}: the latest completed checkpoint or savepoint
 *       (NaN before the first), and {@code cairn_checkpoint_last_completed_id} its id (-1 before the first, as
 *       Flink's {@code lastCompletedCheckpointId});</li>
 *   <li>{@code cairn_checkpoint_interval_seconds}: the job's periodic checkpoint interval (what an alert on
 *       missing completions compares the time since the last one with);</li>
 *   <li>{@code cairn_job_status{job, status}}: 1 for the job's status now, 0 for each other {@link JobStatus}.</li>
 * </ul>
 *
 * Plus {@code cairn_coordinator_jobs} (jobs owned here) and {@code cairn_coordinator_unreadable_partitions}
 * (partitions owned here whose stores could not be read at the last scrape: their jobs are missing from it).
 * Thread-safe; a refresh and the scrape that follows it should hold the same lock (see {@link CoordinatorMetrics}).
 */
public final class JobMetrics {

    private static final Logger LOG = LoggerFactory.getLogger(JobMetrics.class);

    private final MeterRegistry registry;
    private final StateSource source;
    private final Map<String, List<Meter>> meters = new HashMap<>();
    private volatile Map<String, JobFigures> figures = Map.of();
    private volatile int unreadable;

    /**
     * @param registry where the series are registered
     * @param source the stores of the jobs this instance owns
     */
    public JobMetrics(MeterRegistry registry, StateSource source) {
        this.registry = registry;
        this.source = source;
        Gauge.builder("cairn.coordinator.jobs", this, m -> m.figures.size())
                .description("Jobs whose state this coordinator instance owns")
                .register(registry);
        Gauge.builder("cairn.coordinator.unreadable.partitions", this, m -> m.unreadable)
                .description("Partitions owned here whose stores could not be read at the last scrape")
                .register(registry);
    }

    /** Reads every local job's figures, registers the series of jobs new here and removes those of jobs gone. */
    public synchronized void refresh() {
        int[] failed = {0};
        Map<String, JobFigures> read = new HashMap<>();
        source.localJobs((stores, job) -> Map.entry(job.getJobId(), JobFigures.of(job, stores)),
                (reason, partition) -> {
                    failed[0]++;
                    LOG.debug("Metrics skip partition {}: its stores are not readable now ({})", partition, reason);
                }).forEach(entry -> read.put(entry.getKey(), entry.getValue()));
        figures = Map.copyOf(read);
        unreadable = failed[0];
        meters.keySet().removeIf(jobId -> {
            if (read.containsKey(jobId)) {
                return false;
            }
            meters.get(jobId).forEach(registry::remove);
            return true;
        });
        read.keySet().forEach(jobId -> meters.computeIfAbsent(jobId, this::register));
    }

    private List<Meter> register(String jobId) {
        List<Meter> registered = new ArrayList<>();
        registered.add(counter("cairn.checkpoints.triggered", null, "Checkpoints triggered", jobId,
                JobFigures::triggered));
        registered.add(counter("cairn.checkpoints.completed", null, "Checkpoints completed", jobId,
                JobFigures::completed));
        registered.add(counter("cairn.checkpoints.failed", null, "Checkpoints failed or not triggered", jobId,
                JobFigures::failed));
        registered.add(counter("cairn.checkpoints.completed.duration", "seconds",
                "Sum of the end-to-end durations of completed checkpoints", jobId,
                JobFigures::completedDurationSeconds));
        registered.add(counter("cairn.checkpoints.completed.size", "bytes",
                "Sum of the state sizes of completed checkpoints", jobId, JobFigures::completedSizeBytes));
        registered.add(gauge("cairn.checkpoints.in.progress", null, "Checkpoints pending now", jobId,
                JobFigures::inProgress));
        registered.add(gauge("cairn.checkpoint.requests.queued", null, "Trigger requests waiting in the queue",
                jobId, JobFigures::queued));
        registered.add(gauge("cairn.checkpoint.consecutive.failures", null,
                "Checkpoint failures counted since the last success", jobId, JobFigures::consecutiveFailures));
        registered.add(gauge("cairn.checkpoint.last.completed.duration", "seconds",
                "End-to-end duration of the latest completed checkpoint or savepoint", jobId,
                JobFigures::lastDurationSeconds));
        registered.add(gauge("cairn.checkpoint.last.completed.size", "bytes",
                "State size of the latest completed checkpoint or savepoint", jobId, JobFigures::lastSizeBytes));
        registered.add(gauge("cairn.checkpoint.last.completion.timestamp", "seconds",
                "When the latest checkpoint or savepoint completed, seconds since the epoch", jobId,
                JobFigures::lastCompletionSeconds));
        registered.add(gauge("cairn.checkpoint.last.completed.id", null,
                "Id of the latest completed checkpoint or savepoint, -1 before the first", jobId,
                JobFigures::lastCompletedId));
        registered.add(gauge("cairn.checkpoint.interval", "seconds", "The job's periodic checkpoint interval", jobId,
                JobFigures::intervalSeconds));
        for (JobStatus status : JobStatus.values()) {
            registered.add(Gauge.builder("cairn.job.status", this,
                            m -> m.value(jobId, job -> job.status() == status ? 1 : 0))
                    .description("1 for the job's status now, 0 for the others (from the job's state)")
                    .tag("job", jobId).tag("status", status.name())
                    .register(registry));
        }
        return registered;
    }

    private Meter counter(String name, String unit, String description, String jobId,
            ToDoubleFunction<JobFigures> value) {
        return FunctionCounter.builder(name, this, m -> m.value(jobId, value))
                .baseUnit(unit).description(description + " (from the job's state)").tag("job", jobId)
                .register(registry);
    }

    private Meter gauge(String name, String unit, String description, String jobId,
            ToDoubleFunction<JobFigures> value) {
        return Gauge.builder(name, this, m -> m.value(jobId, value))
                .baseUnit(unit).description(description + " (from the job's state)").tag("job", jobId)
                .register(registry);
    }

    private double value(String jobId, ToDoubleFunction<JobFigures> value) {
        JobFigures job = figures.get(jobId);
        return job == null ? Double.NaN : value.applyAsDouble(job);
    }
}
