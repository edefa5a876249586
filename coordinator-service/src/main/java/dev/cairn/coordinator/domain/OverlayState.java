package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.domain.StateKeys.AckKey;
import dev.cairn.coordinator.domain.StateKeys.AttemptKey;
import dev.cairn.coordinator.domain.StateKeys.VertexKey;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A copy-on-write {@link CoordinatorState}: reads fall through to a base that is never written,
 * writes are buffered here. The decider works on one so that later steps of a decision see the
 * effects of earlier ones while the real state stays untouched.
 *
 * <p>It also remembers what it read: every key is read from the base at most once per overlay (an
 * absent value is remembered as absent), so one decision decodes each stored value at most once however
 * often its steps look at it. Only {@link #acks(String, long)}, a scan, always goes to the base.
 */
public final class OverlayState implements CoordinatorState {

    private final CoordinatorState base;
    /** Per key: the value as of now in this overlay, read from the base or written here; empty: absent. */
    private final Map<String, Optional<JobState>> jobs = new HashMap<>();
    private final Map<String, Optional<JobSpec>> specs = new HashMap<>();
    private final Map<VertexKey, Optional<TaskVertex>> vertices = new HashMap<>();
    private final Map<AttemptKey, Optional<String>> attempts = new HashMap<>();
    /** Empty value: absent, or removed from the base. */
    private final TreeMap<AckKey, Optional<CheckpointAcknowledged>> acks = new TreeMap<>();
    private final Map<String, Optional<RetainedCheckpoints>> retained = new HashMap<>();

    public OverlayState(CoordinatorState base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    @Override
    public Optional<JobState> job(String jobId) {
        return cached(jobs, jobId, () -> base.job(jobId));
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), Optional.of(job));
    }

    @Override
    public Optional<JobSpec> spec(String jobId) {
        return cached(specs, jobId, () -> base.spec(jobId));
    }

    @Override
    public void putSpec(JobSpec spec) {
        specs.put(spec.getJobId(), Optional.of(spec));
    }

    @Override
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        return cached(vertices, new VertexKey(jobId, taskId), () -> base.vertex(jobId, taskId));
    }

    @Override
    public void putVertex(String jobId, TaskVertex vertex) {
        vertices.put(new VertexKey(jobId, vertex.getTaskId()), Optional.of(vertex));
    }

    @Override
    public void removeVertex(String jobId, String taskId) {
        vertices.put(new VertexKey(jobId, taskId), Optional.empty());
    }

    @Override
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return cached(attempts, new AttemptKey(jobId, taskId, subtaskIndex),
                () -> base.attempt(jobId, taskId, subtaskIndex));
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        attempts.put(new AttemptKey(jobId, taskId, subtaskIndex), Optional.of(Objects.requireNonNull(attemptId)));
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return cached(acks, new AckKey(jobId, checkpointId, taskId, subtaskIndex),
                () -> base.ack(jobId, checkpointId, taskId, subtaskIndex));
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        acks.put(InMemoryCoordinatorState.keyOf(ack), Optional.of(ack));
    }

    /** The base's acks of the checkpoint with this overlay's entries applied over them (remembered reads agree). */
    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        TreeMap<AckKey, CheckpointAcknowledged> merged = new TreeMap<>();
        for (CheckpointAcknowledged ack : base.acks(jobId, checkpointId)) {
            merged.put(InMemoryCoordinatorState.keyOf(ack), ack);
        }
        prefix(jobId, checkpointId).forEach((key, value) -> {
            if (value.isPresent()) {
                merged.put(key, value.get());
            } else {
                merged.remove(key);
            }
        });
        return new ArrayList<>(merged.values());
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        prefix(jobId, checkpointId).clear();
        for (CheckpointAcknowledged ack : base.acks(jobId, checkpointId)) {
            acks.put(InMemoryCoordinatorState.keyOf(ack), Optional.empty());
        }
    }

    @Override
    public Optional<RetainedCheckpoints> retained(String jobId) {
        return cached(retained, jobId, () -> base.retained(jobId));
    }

    @Override
    public void putRetained(RetainedCheckpoints value) {
        retained.put(value.getJobId(), Optional.of(value));
    }

    private java.util.SortedMap<AckKey, Optional<CheckpointAcknowledged>> prefix(String jobId, long checkpointId) {
        return acks.subMap(AckKey.first(jobId, checkpointId), AckKey.first(jobId, checkpointId + 1));
    }

    /** The remembered value of the key, else the base's, remembered (computeIfAbsent would not allow reentry). */
    private static <K, V> Optional<V> cached(Map<K, Optional<V>> values, K key, Supplier<Optional<V>> read) {
        Optional<V> known = values.get(key);
        if (known != null) {
            return known;
        }
        Optional<V> fromBase = read.get();
        values.put(key, fromBase);
        return fromBase;
    }
}
