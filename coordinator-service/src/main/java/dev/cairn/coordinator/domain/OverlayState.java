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
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A copy-on-write {@link CoordinatorState}: reads fall through to a base that is never written, writes are
 * kept here. The decider works on one, so that later steps of a decision see the effects of earlier ones while
 * the real state stays untouched; once the decision has succeeded, {@link #applyTo} writes what changed to the
 * real state: all of it, each key once, with its final value. So every event is applied once, and a decision
 * that fails leaves nothing behind.
 *
 * <p>Reads of what was not written here go to the base each time: the base is a map in memory, or the
 * processor's cache of decoded store values, so a read is a lookup, and a decision allocates only for what it
 * writes.
 */
public final class OverlayState implements CoordinatorState {

    private final CoordinatorState base;
    private final Slots<String, JobState> jobs = new Slots<>();
    private final Slots<String, JobSpec> specs = new Slots<>();
    private final Slots<VertexKey, TaskVertex> vertices = new Slots<>();
    private final Slots<AttemptKey, String> attempts = new Slots<>();
    private final Slots<AttemptKey, TaskFinished> finished = new Slots<>();
    private final Slots<CheckpointKey, CheckpointSummary> summaries = new Slots<>();
    private final Slots<String, RetainedCheckpoints> retained = new Slots<>();
    private final Slots<RequestKey, RequestRecord> requests = new Slots<>();
    private final Slots<String, RequestIndex> requestIndexes = new Slots<>();
    /** Acks written here, per checkpoint; made on first use. */
    private Map<CheckpointKey, Map<SubtaskKey, CheckpointAcknowledged>> acks;
    /** Checkpoints whose acks were all removed here, in order; acks written after the removal are in acks. */
    private Set<CheckpointKey> removedAcks;

    public OverlayState(CoordinatorState base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    /** Writes every change made here to {@code target}, each key once with its final value. */
    public void applyTo(CoordinatorState target) {
        jobs.applyTo((id, job) -> target.putJob(job), id -> {
            throw new IllegalStateException("a job is never removed: " + id);
        });
        specs.applyTo((id, spec) -> target.putSpec(spec), id -> {
            throw new IllegalStateException("a spec is never removed: " + id);
        });
        vertices.applyTo((k, vertex) -> target.putVertex(k.jobId(), vertex), k -> target.removeVertex(k.jobId(), k.taskId()));
        attempts.applyTo((k, attempt) -> target.putAttempt(k.jobId(), k.taskId(), k.subtaskIndex(), attempt), k -> {
            throw new IllegalStateException("an attempt is never removed: " + k);
        });
        finished.applyTo((k, f) -> target.putFinished(f),
                k -> target.removeFinished(k.jobId(), k.taskId(), k.subtaskIndex()));
        if (removedAcks != null) {
            removedAcks.forEach(k -> target.removeAcks(k.jobId(), k.checkpointId()));
        }
        if (acks != null) {
            acks.values().forEach(ofCheckpoint -> ofCheckpoint.values().forEach(target::putAck));
        }
        summaries.applyTo((k, s) -> target.putSummary(k.jobId(), s), k -> target.removeSummary(k.jobId(), k.checkpointId()));
        retained.applyTo((id, r) -> target.putRetained(r), id -> {
            throw new IllegalStateException("retained checkpoints are never removed: " + id);
        });
        requests.applyTo((k, r) -> target.putRequest(k.jobId(), r), k -> target.removeRequest(k.jobId(), k.requestId()));
        requestIndexes.applyTo((id, index) -> target.putRequestIndex(index), id -> {
            throw new IllegalStateException("a request index is never removed: " + id);
        });
    }

    @Override
    public Optional<JobState> job(String jobId) {
        return jobs.isEmpty() ? base.job(jobId) : jobs.get(jobId, base::job);
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), job);
    }

    @Override
    public Optional<JobSpec> spec(String jobId) {
        return specs.isEmpty() ? base.spec(jobId) : specs.get(jobId, base::spec);
    }

    @Override
    public void putSpec(JobSpec spec) {
        specs.put(spec.getJobId(), spec);
    }

    @Override
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        return vertices.isEmpty() ? base.vertex(jobId, taskId)
                : vertices.get(new VertexKey(jobId, taskId), k -> base.vertex(jobId, taskId));
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
        return attempts.isEmpty() ? base.attempt(jobId, taskId, subtaskIndex)
                : attempts.get(new AttemptKey(jobId, taskId, subtaskIndex), k -> base.attempt(jobId, taskId, subtaskIndex));
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        attempts.put(new AttemptKey(jobId, taskId, subtaskIndex), Objects.requireNonNull(attemptId));
    }

    @Override
    public Optional<TaskFinished> finished(String jobId, String taskId, int subtaskIndex) {
        return finished.isEmpty() ? base.finished(jobId, taskId, subtaskIndex)
                : finished.get(new AttemptKey(jobId, taskId, subtaskIndex), k -> base.finished(jobId, taskId, subtaskIndex));
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
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        if (acks == null && removedAcks == null) {
            return base.ack(jobId, checkpointId, taskId, subtaskIndex);
        }
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks == null ? null : acks.get(checkpoint);
        if (ofCheckpoint != null) {
            CheckpointAcknowledged written = ofCheckpoint.get(new SubtaskKey(taskId, subtaskIndex));
            if (written != null) {
                return Optional.of(written);
            }
        }
        if (removedAcks != null && removedAcks.contains(checkpoint)) {
            return Optional.empty();
        }
        return base.ack(jobId, checkpointId, taskId, subtaskIndex);
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        if (acks == null) {
            acks = new HashMap<>();
        }
        acks.computeIfAbsent(new CheckpointKey(ack.getJobId(), ack.getCheckpointId()), k -> new HashMap<>())
                .put(new SubtaskKey(ack.getTaskId(), ack.getSubtaskIndex()), ack);
    }

    /** The base's acks of the checkpoint with this overlay's changes applied over them. */
    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        TreeMap<SubtaskKey, CheckpointAcknowledged> merged = new TreeMap<>();
        if (removedAcks == null || !removedAcks.contains(checkpoint)) {
            for (CheckpointAcknowledged ack : base.acks(jobId, checkpointId)) {
                merged.put(new SubtaskKey(ack.getTaskId(), ack.getSubtaskIndex()), ack);
            }
        }
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks == null ? null : acks.get(checkpoint);
        if (ofCheckpoint != null) {
            merged.putAll(ofCheckpoint);
        }
        return List.copyOf(merged.values());
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        if (acks != null) {
            acks.remove(checkpoint);
        }
        if (removedAcks == null) {
            removedAcks = new LinkedHashSet<>();
        }
        removedAcks.add(checkpoint);
    }

    /**
     * The base's progress (none when this overlay removed the checkpoint's acks) plus the acks written here. The
     * decider puts an ack only for a subtask that has none accepted, so a written ack is never counted twice.
     */
    @Override
    public CheckpointProgress progress(String jobId, long checkpointId) {
        if (acks == null && removedAcks == null) {
            return base.progress(jobId, checkpointId);
        }
        CheckpointKey checkpoint = new CheckpointKey(jobId, checkpointId);
        CheckpointProgress progress = removedAcks != null && removedAcks.contains(checkpoint) ? CheckpointProgress.NONE
                : base.progress(jobId, checkpointId);
        Map<SubtaskKey, CheckpointAcknowledged> ofCheckpoint = acks == null ? null : acks.get(checkpoint);
        if (ofCheckpoint != null) {
            for (CheckpointAcknowledged ack : ofCheckpoint.values()) {
                progress = progress.plus(ack);
            }
        }
        return progress;
    }

    @Override
    public Optional<CheckpointSummary> summary(String jobId, long checkpointId) {
        return summaries.isEmpty() ? base.summary(jobId, checkpointId)
                : summaries.get(new CheckpointKey(jobId, checkpointId), k -> base.summary(jobId, checkpointId));
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
    public Optional<RetainedCheckpoints> retained(String jobId) {
        return retained.isEmpty() ? base.retained(jobId) : retained.get(jobId, base::retained);
    }

    @Override
    public void putRetained(RetainedCheckpoints value) {
        retained.put(value.getJobId(), value);
    }

    @Override
    public Optional<RequestRecord> request(String jobId, String requestId) {
        return requests.isEmpty() ? base.request(jobId, requestId)
                : requests.get(new RequestKey(jobId, requestId), k -> base.request(jobId, requestId));
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
        return requestIndexes.isEmpty() ? base.requestIndex(jobId) : requestIndexes.get(jobId, base::requestIndex);
    }

    @Override
    public void putRequestIndex(RequestIndex index) {
        requestIndexes.put(index.getJobId(), index);
    }
}
