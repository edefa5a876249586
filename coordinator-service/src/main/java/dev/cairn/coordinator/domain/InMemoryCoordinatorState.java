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
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link CoordinatorState} in sorted in-memory maps: for tests, property tests and audit replay.
 * Two instances are equal when they hold equal values under equal keys.
 */
public final class InMemoryCoordinatorState implements CoordinatorState {

    private final TreeMap<String, JobState> jobs = new TreeMap<>();
    private final TreeMap<String, JobSpec> specs = new TreeMap<>();
    private final TreeMap<VertexKey, TaskVertex> vertices = new TreeMap<>();
    private final TreeMap<AttemptKey, String> attempts = new TreeMap<>();
    private final TreeMap<AckKey, CheckpointAcknowledged> acks = new TreeMap<>();
    private final TreeMap<String, RetainedCheckpoints> retained = new TreeMap<>();

    /** A copy whose maps are independent of this one (values are immutable and shared). */
    public InMemoryCoordinatorState copy() {
        InMemoryCoordinatorState copy = new InMemoryCoordinatorState();
        copy.jobs.putAll(jobs);
        copy.specs.putAll(specs);
        copy.vertices.putAll(vertices);
        copy.attempts.putAll(attempts);
        copy.acks.putAll(acks);
        copy.retained.putAll(retained);
        return copy;
    }

    /** Ids of every job, sorted. */
    public List<String> jobIds() {
        return new ArrayList<>(jobs.keySet());
    }

    /** Number of stored acks over all jobs and checkpoints. */
    public int ackCount() {
        return acks.size();
    }

    /** Ids of the stored vertices of one job, sorted. */
    public List<String> vertexIds(String jobId) {
        return vertices.subMap(new VertexKey(jobId, ""), true, new VertexKey(jobId + '\u0000', ""), false)
                .keySet().stream().map(VertexKey::taskId).toList();
    }

    @Override
    public Optional<JobState> job(String jobId) {
        return Optional.ofNullable(jobs.get(jobId));
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), job);
    }

    @Override
    public Optional<JobSpec> spec(String jobId) {
        return Optional.ofNullable(specs.get(jobId));
    }

    @Override
    public void putSpec(JobSpec spec) {
        specs.put(spec.getJobId(), spec);
    }

    @Override
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        return Optional.ofNullable(vertices.get(new VertexKey(jobId, taskId)));
    }

    @Override
    public void putVertex(String jobId, TaskVertex vertex) {
        vertices.put(new VertexKey(jobId, vertex.getTaskId()), vertex);
    }

    @Override
    public void removeVertex(String jobId, String taskId) {
        vertices.remove(new VertexKey(jobId, taskId));
    }

    @Override
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return Optional.ofNullable(attempts.get(new AttemptKey(jobId, taskId, subtaskIndex)));
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        attempts.put(new AttemptKey(jobId, taskId, subtaskIndex), Objects.requireNonNull(attemptId));
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return Optional.ofNullable(acks.get(new AckKey(jobId, checkpointId, taskId, subtaskIndex)));
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        acks.put(keyOf(ack), ack);
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        return new ArrayList<>(prefix(jobId, checkpointId).values());
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        prefix(jobId, checkpointId).clear();
    }

    @Override
    public Optional<RetainedCheckpoints> retained(String jobId) {
        return Optional.ofNullable(retained.get(jobId));
    }

    @Override
    public void putRetained(RetainedCheckpoints value) {
        retained.put(value.getJobId(), value);
    }

    static AckKey keyOf(CheckpointAcknowledged ack) {
        return new AckKey(ack.getJobId(), ack.getCheckpointId(), ack.getTaskId(), ack.getSubtaskIndex());
    }

    private java.util.SortedMap<AckKey, CheckpointAcknowledged> prefix(String jobId, long checkpointId) {
        return acks.subMap(AckKey.first(jobId, checkpointId), AckKey.first(jobId, checkpointId + 1));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InMemoryCoordinatorState other
                && jobs.equals(other.jobs)
                && specs.equals(other.specs)
                && vertices.equals(other.vertices)
                && attempts.equals(other.attempts)
                && acks.equals(other.acks)
                && retained.equals(other.retained);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobs, specs, vertices, attempts, acks, retained);
    }

    @Override
    public String toString() {
        return "InMemoryCoordinatorState{jobs=" + jobs + ", specs=" + specs + ", vertices=" + vertices
                + ", attempts=" + attempts + ", acks=" + acks.keySet() + ", retained=" + retained + "}";
    }
}
