package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.domain.StateKeys.AttemptKey;
import dev.cairn.coordinator.domain.StateKeys.CheckpointKey;
import dev.cairn.coordinator.domain.StateKeys.RequestKey;
import dev.cairn.coordinator.domain.StateKeys.SubtaskKey;
import dev.cairn.coordinator.domain.StateKeys.VertexKey;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link CoordinatorState} in hash maps: for tests, property tests, benchmarks of the core and audit replay.
 * Point reads and writes are one hash lookup; one checkpoint's acks sit in a map of their own, so removing
 * them is one operation and listing them sorts only them. Two instances are equal when they hold equal values
 * under equal keys.
 */
public final class InMemoryCoordinatorState implements CoordinatorState {

    private final Map<String, JobState> jobs = new HashMap<>();
    private final Map<String, JobSpec> specs = new HashMap<>();
    private final Map<VertexKey, TaskVertex> vertices = new HashMap<>();
    private final Map<AttemptKey, String> attempts = new HashMap<>();
    private final Map<AttemptKey, TaskFinished> finished = new HashMap<>();
    /** Never holds an empty inner map. */
    private final Map<CheckpointKey, Map<SubtaskKey, CheckpointAcknowledged>> acks = new HashMap<>();
    /** Derived from the acks, kept up to date by putAck and removeAcks; not part of equality. */
    private final Map<CheckpointKey, CheckpointProgress> progress = new HashMap<>();
    private final Map<CheckpointKey, CheckpointSummary> summaries = new HashMap<>();
    private final Map<String, RetainedCheckpoints> retained = new HashMap<>();
    private final Map<RequestKey, RequestRecord> requests = new HashMap<>();
    private final Map<String, RequestIndex> requestIndexes = new HashMap<>();

    /** A copy whose maps are independent of this one (values are immutable and shared). */
    public InMemoryCoordinatorState copy() {
        InMemoryCoordinatorState copy = new InMemoryCoordinatorState();
        copy.jobs.putAll(jobs);
        copy.specs.putAll(specs);
        copy.vertices.putAll(vertices);
        copy.attempts.putAll(attempts);
        copy.finished.putAll(finished);
        acks.forEach((key, value) -> copy.acks.put(key, new HashMap<>(value)));
        copy.progress.putAll(progress);
        copy.summaries.putAll(summaries);
        copy.retained.putAll(retained);
        copy.requests.putAll(requests);
        copy.requestIndexes.putAll(requestIndexes);
        return copy;
    }

    /** Ids of every job, sorted. */
    public List<String> jobIds() {
        return jobs.keySet().stream().sorted().toList();
    }

    /** Ids of the stored vertices of one job, sorted. */
    public List<String> vertexIds(String jobId) {
        return vertices.keySet().stream().filter(k -> k.jobId().equals(jobId)).map(VertexKey::taskId).sorted()
                .toList();
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
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks.get(new CheckpointKey(jobId, checkpointId));
        return ofCheckpoint == null ? Optional.empty()
                : Optional.ofNullable(ofCheckpoint.get(new SubtaskKey(taskId, subtaskIndex)));
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        CheckpointKey checkpoint = new CheckpointKey(ack.getJobId(), ack.getCheckpointId());
        CheckpointAcknowledged replaced = acks.computeIfAbsent(checkpoint, k -> new HashMap<>())
                .put(new SubtaskKey(ack.getTaskId(), ack.getSubtaskIndex()), ack);
        if (replaced == null) {
            progress.put(checkpoint, progress.getOrDefault(checkpoint, CheckpointProgress.NONE).plus(ack));
        } else {
            progress.put(checkpoint, CheckpointProgress.of(acks.get(checkpoint).values()));
        }
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks.get(new CheckpointKey(jobId, checkpointId));
        return ofCheckpoint == null ? List.of() : new ArrayList<>(new TreeMap<>(ofCheckpoint).values());
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        acks.remove(new CheckpointKey(jobId, checkpointId));
        progress.remove(new CheckpointKey(jobId, checkpointId));
    }

    @Override
    public CheckpointProgress progress(String jobId, long checkpointId) {
        return progress.getOrDefault(new CheckpointKey(jobId, checkpointId), CheckpointProgress.NONE);
    }

    @Override
    public Optional<CheckpointSummary> summary(String jobId, long checkpointId) {
        return Optional.ofNullable(summaries.get(new CheckpointKey(jobId, checkpointId)));
    }

    @Override
    public void putSummary(String jobId, CheckpointSummary summary) {
        summaries.put(new CheckpointKey(jobId, summary.getCheckpointId()), summary);
    }

    @Override
    public void removeSummary(String jobId, long checkpointId) {
        summaries.remove(new CheckpointKey(jobId, checkpointId));
    }

    @Override
    public Optional<TaskFinished> finished(String jobId, String taskId, int subtaskIndex) {
        return Optional.ofNullable(finished.get(new AttemptKey(jobId, taskId, subtaskIndex)));
    }

    @Override
    public void putFinished(TaskFinished value) {
        finished.put(new AttemptKey(value.getJobId(), value.getTaskId(), value.getSubtaskIndex()), value);
    }

    @Override
    public void removeFinished(String jobId, String taskId, int subtaskIndex) {
        finished.remove(new AttemptKey(jobId, taskId, subtaskIndex));
    }

    @Override
    public Optional<RetainedCheckpoints> retained(String jobId) {
        return Optional.ofNullable(retained.get(jobId));
    }

    @Override
    public void putRetained(RetainedCheckpoints value) {
        retained.put(value.getJobId(), value);
    }

    @Override
    public Optional<RequestRecord> request(String jobId, String requestId) {
        return Optional.ofNullable(requests.get(new RequestKey(jobId, requestId)));
    }

    @Override
    public void putRequest(String jobId, RequestRecord request) {
        requests.put(new RequestKey(jobId, request.getRequestId()), request);
    }

    @Override
    public void removeRequest(String jobId, String requestId) {
        requests.remove(new RequestKey(jobId, requestId));
    }

    @Override
    public Optional<RequestIndex> requestIndex(String jobId) {
        return Optional.ofNullable(requestIndexes.get(jobId));
    }

    @Override
    public void putRequestIndex(RequestIndex index) {
        requestIndexes.put(index.getJobId(), index);
    }

    /** Ids of the job's stored request records, sorted. */
    public List<String> requestIds(String jobId) {
        return requests.keySet().stream().filter(k -> k.jobId().equals(jobId)).map(RequestKey::requestId).sorted()
                .toList();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InMemoryCoordinatorState other
                && jobs.equals(other.jobs)
                && specs.equals(other.specs)
                && vertices.equals(other.vertices)
                && attempts.equals(other.attempts)
                && finished.equals(other.finished)
                && acks.equals(other.acks)
                && summaries.equals(other.summaries)
                && retained.equals(other.retained)
                && requests.equals(other.requests)
                && requestIndexes.equals(other.requestIndexes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobs, specs, vertices, attempts, finished, acks, summaries, retained, requests,
                requestIndexes);
    }

    @Override
    public String toString() {
        return "InMemoryCoordinatorState{jobs=" + jobs + ", specs=" + specs + ", vertices=" + vertices
                + ", attempts=" + attempts + ", finished=" + finished + ", acks=" + acks + ", summaries="
                + summaries + ", retained=" + retained + ", requests=" + requests + ", requestIndexes="
                + requestIndexes + "}";
    }
}
