package dev.cairn.coordinator.metrics;

import dev.cairn.coordinator.streams.DecisionListener;
import dev.cairn.core.events.EventKind;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.TriggerFailed;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;

/**
 * The coordinator's event-driven metrics, counted from the events the processor decided (a
 * {@link DecisionListener}), all labelled by {@code job}:
 *
 * <ul>
 *   <li>{@code cairn_checkpoint_failures_total{job, reason}}: checkpoints that failed (aborted, or could not be
 *       triggered), by Flink's {@link CheckpointFailureReason};</li>
 *   <li>{@code cairn_checkpoint_duration_seconds{job, type}}: a histogram of the end-to-end duration (trigger to
 *       completion) of completed checkpoints ({@code type} CHECKPOINT or SAVEPOINT), buckets from 50 ms to
 *       10 min;</li>
 *   <li>{@code cairn_checkpoint_acks_total{job}}: accepted subtask acknowledgements, for {@code rate()};</li>
 *   <li>{@code cairn_checkpoint_acks_discarded_total{job, status}}: acknowledgements not accepted (DUPLICATE,
 *       UNKNOWN, DISCARDED, LATE);</li>
 *   <li>{@code cairn_restores_total{job}}: restores of the job from a point a user chose ({@code JobRestored});</li>
 *   <li>{@code cairn_task_starts_rejected_total{job}}: {@code TaskStarted} records not taken because their attempt
 *       did not start after the subtask's current one (a replayed or reordered old announcement, or a restart
 *       whose clock is behind, which then announces itself again);</li>
 *   <li>{@code cairn_store_rebuilds_total{partition}} and {@code cairn_store_rebuild_records_total{partition}}:
 *       rebuilds of a partition's stores from the journal (after an upgrade to another store layout, with a new
 *       application id, or after lost changelogs) and the journal records they folded;
 *       {@code cairn_store_rebuild_duration_seconds{partition}}: how long they took;
 *       {@code cairn_store_rebuild_remaining_records{partition}}: the records a rebuild under way has left to read
 *       (0 once it ended);</li>
 *   <li>{@code cairn_snapshots_total{partition}}, {@code cairn_snapshot_failures_total{partition}} and
 *       {@code cairn_snapshot_duration_seconds{partition}}: snapshots of a partition's fold written, failed, and how
 *       long they took; {@code cairn_snapshot_created_timestamp_seconds{partition}} and
 *       {@code cairn_snapshot_journal_offset{partition}}: when the newest one this instance wrote was made and the
 *       journal offset it reflects ({@code time() - cairn_snapshot_created_timestamp_seconds} is its age: alert when
 *       it nears the journal's retention).</li>
 * </ul>
 *
 * Every label takes values from a closed set, or is the job id; none names a task or a subtask.
 *
 * <p>These are counted per coordinator instance, in memory: they start at zero when the instance starts,
 * count only the decisions made on this instance (a job that moves here starts counting here; its series
 * stay, unchanging, on the instance it left), and may count the events of a transaction that Kafka Streams
 * aborted and reprocessed twice. A job's removal ({@code JobRemoved}) removes its series from this instance. Use
 * {@code rate()}/{@code increase()} on them, and the figures of {@link JobMetrics}, read from the stores, for exact
 * totals.
 */
public final class DecisionMetrics implements DecisionListener {

    /** Bucket bounds of the duration histogram. */
    static final List<Duration> DURATION_BUCKETS = List.of(Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1),
            Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(10));

    /** The names of the series labelled by job that this class registers. */
    private static final Set<String> JOB_SERIES = Set.of("cairn.checkpoint.acks", "cairn.checkpoint.acks.discarded",
            "cairn.state.discarded.objects", "cairn.state.discarded.bytes", "cairn.restore.points.rejected",
            "cairn.task.starts.rejected", "cairn.checkpoint.failures", "cairn.checkpoint.duration", "cairn.restores");

    private final MeterRegistry registry;
    private final Map<Integer, AtomicLong> rebuildRemaining = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicLong> newestSnapshotAt = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicLong> newestSnapshotOffset = new ConcurrentHashMap<>();
    /**
     * Each job's ack counter, found by its job id alone: an ack is the commonest event, and the registry's own lookup
     * builds and compares an id of name and tags.
     */
    private final Map<String, Counter> acksByJob = new ConcurrentHashMap<>();

    /** Registers its meters in {@code registry} as the jobs' events arrive. */
    public DecisionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void decided(String jobId, List<SpecificRecord> events, long nowMs) {
        for (SpecificRecord event : events) {
            switch (EventKind.of(event)) {
                case CHECKPOINT_ACKNOWLEDGED -> acks(jobId).increment();
                case CHECKPOINT_COMPLETED -> completed(jobId, (CheckpointCompleted) event);
                case CHECKPOINT_ABORTED -> failures(jobId, ((CheckpointAborted) event).getReason()).increment();
                case TRIGGER_FAILED -> failures(jobId, ((TriggerFailed) event).getReason()).increment();
                case ACK_DISCARDED -> discardedAcks(jobId, ((AckDiscarded) event).getStatus().name()).increment();
                case TASK_START_REJECTED -> rejectedStarts(jobId).increment();
                case STATE_DISCARDED -> discardedState(jobId, (StateDiscarded) event);
                case RESTORE_POINT_REJECTED -> rejectedRestorePoints(jobId).increment();
                case JOB_RESTORED -> restores(jobId).increment();
                case JOB_REMOVED -> removeSeriesOf(jobId);
                default -> {
                    // the other kinds count towards no metric
                }
            }
        }
    }

    @Override
    public void rebuilding(int partition, long folded, long remaining) {
        remaining(partition).set(remaining);
    }

    @Override
    public void rebuilt(int partition, long records, long millis) {
        remaining(partition).set(0);
        Counter.builder("cairn.store.rebuilds")
                .description("Rebuilds of a partition's stores from the journal (per instance, since it started)")
                .tag("partition", Integer.toString(partition))
                .register(registry).increment();
        Timer.builder("cairn.store.rebuild.duration")
                .description("How long rebuilds of a partition's stores from the journal took (per instance, since "
                        + "it started)")
                .tag("partition", Integer.toString(partition))
                .register(registry).record(Duration.ofMillis(millis));
        Counter.builder("cairn.store.rebuild.records")
                .description("Journal records folded by rebuilds of a partition's stores (per instance, since it "
                        + "started)")
                .tag("partition", Integer.toString(partition))
                .register(registry).increment(records);
    }

    @Override
    public void snapshotWritten(int partition, long journalOffset, long createdAtMs, long millis) {
        Counter.builder("cairn.snapshots").description("Snapshots of a partition's fold written to the snapshots "
                        + "topic (per instance, since it started)")
                .tag("partition", Integer.toString(partition)).register(registry).increment();
        Timer.builder("cairn.snapshot.duration").description("How long folding and writing a partition's snapshots "
                        + "took (per instance, since it started)")
                .tag("partition", Integer.toString(partition)).register(registry).record(Duration.ofMillis(millis));
        snapshotGauge(newestSnapshotAt, "cairn.snapshot.created.timestamp.seconds", partition).set(createdAtMs / 1000);
        snapshotGauge(newestSnapshotOffset, "cairn.snapshot.journal.offset", partition).set(journalOffset);
    }

    @Override
    public void snapshotFailed(int partition) {
        Counter.builder("cairn.snapshot.failures").description("Snapshots of a partition that could not be made or "
                        + "written (per instance, since it started); the next interval tries again")
                .tag("partition", Integer.toString(partition)).register(registry).increment();
    }

    private AtomicLong snapshotGauge(Map<Integer, AtomicLong> gauges, String name, int partition) {
        return gauges.computeIfAbsent(partition, p -> registry.gauge(name,
                List.of(Tag.of("partition", Integer.toString(p))), new AtomicLong()));
    }

    private AtomicLong remaining(int partition) {
        return rebuildRemaining.computeIfAbsent(partition, p -> registry.gauge("cairn.store.rebuild.remaining.records",
                List.of(Tag.of("partition", Integer.toString(p))), new AtomicLong()));
    }

    /** Removes the job's series: a removed job counts nothing more, and a job registered again starts at zero. */
    private void removeSeriesOf(String jobId) {
        acksByJob.remove(jobId);
        registry.getMeters().stream()
                .filter(meter -> JOB_SERIES.contains(meter.getId().getName())
                        && jobId.equals(meter.getId().getTag("job")))
                .toList().forEach(registry::remove);
    }

    private void completed(String jobId, CheckpointCompleted completed) {
        duration(jobId, completed.getType().name()).record(Duration.ofMillis(
                Math.max(0, completed.getCompletionTimestampMs() - completed.getTriggerTimestampMs())));
    }

    private Counter acks(String jobId) {
        Counter known = acksByJob.get(jobId);
        return known != null ? known : acksByJob.computeIfAbsent(jobId, id -> Counter.builder("cairn.checkpoint.acks")
                .description("Subtask acknowledgements accepted (per instance, since it started)")
                .tag("job", id)
                .register(registry));
    }

    private Counter discardedAcks(String jobId, String status) {
        return Counter.builder("cairn.checkpoint.acks.discarded")
                .description("Subtask acknowledgements not accepted, by why (per instance, since it started)")
                .tag("job", jobId)
                .tag("status", status)
                .register(registry);
    }

    /** Objects and bytes handed out for deletion, by why their checkpoint's state was discarded. */
    private void discardedState(String jobId, StateDiscarded discarded) {
        String reason = discarded.getReason().name();
        Counter.builder("cairn.state.discarded.objects")
                .description("State objects the coordinator discarded: nothing kept refers to them any more (per "
                        + "instance, since it started)")
                .tag("job", jobId)
                .tag("reason", reason)
                .register(registry).increment(discarded.getObjects().size());
        Counter.builder("cairn.state.discarded.bytes")
                .description("Bytes of the state objects the coordinator discarded (per instance, since it started)")
                .tag("job", jobId)
                .tag("reason", reason)
                .register(registry).increment(discarded.getObjects().stream()
                        .mapToLong(DiscardedObject::getSizeBytes).sum());
    }

    private Counter rejectedRestorePoints(String jobId) {
        return Counter.builder("cairn.restore.points.rejected")
                .description("Restore points a subtask could not read, from which the job fell back to an older "
                        + "retained checkpoint (per instance, since it started)")
                .tag("job", jobId)
                .register(registry);
    }

    private Counter restores(String jobId) {
        return Counter.builder("cairn.restores")
                .description("Restores of the job from a point a user chose, a savepoint or a retained checkpoint "
                        + "(per instance, since it started)")
                .tag("job", jobId)
                .register(registry);
    }

    private Counter rejectedStarts(String jobId) {
        return Counter.builder("cairn.task.starts.rejected")
                .description("TaskStarted records not taken: their attempt did not start after the subtask's "
                        + "current one (per instance, since it started)")
                .tag("job", jobId)
                .register(registry);
    }

    private Counter failures(String jobId, CheckpointFailureReason reason) {
        return Counter.builder("cairn.checkpoint.failures")
                .description("Checkpoints that failed or could not be triggered, by Flink's failure reason "
                        + "(per instance, since it started)")
                .tag("job", jobId)
                .tag("reason", reason.name())
                .register(registry);
    }

    private Timer duration(String jobId, String type) {
        return Timer.builder("cairn.checkpoint.duration")
                .description("End-to-end duration of completed checkpoints, trigger to completion "
                        + "(per instance, since it started)")
                .tag("job", jobId)
                .tag("type", type)
                .serviceLevelObjectives(DURATION_BUCKETS.toArray(Duration[]::new))
                .register(registry);
    }
}
