package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.domain.StateKeys.AckKey;
import dev.cairn.coordinator.domain.StateKeys.AttemptKey;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RetainedCheckpoints;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A copy-on-write {@link CoordinatorState}: reads fall through to a base that is never written,
 * writes are buffered here. The decider works on one so that later steps of a decision see the
 * effects of earlier ones while the real state stays untouched.
 */
public final class OverlayState implements CoordinatorState {

    private final CoordinatorState base;
    private final Map<String, JobState> jobs = new HashMap<>();
    private final Map<AttemptKey, String> attempts = new HashMap<>();
    /** Empty value: removed from the base. */
    private final TreeMap<AckKey, Optional<CheckpointAcknowledged>> acks = new TreeMap<>();
    private final Map<String, RetainedCheckpoints> retained = new HashMap<>();

    public OverlayState(CoordinatorState base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    @Override
    public Optional<JobState> job(String jobId) {
        JobState written = jobs.get(jobId);
        return written != null ? Optional.of(written) : base.job(jobId);
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), job);
    }

    @Override
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        String written = attempts.get(new AttemptKey(jobId, taskId, subtaskIndex));
        return written != null ? Optional.of(written) : base.attempt(jobId, taskId, subtaskIndex);
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        attempts.put(new AttemptKey(jobId, taskId, subtaskIndex), Objects.requireNonNull(attemptId));
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        Optional<CheckpointAcknowledged> written = acks.get(new AckKey(jobId, checkpointId, taskId, subtaskIndex));
        return written != null ? written : base.ack(jobId, checkpointId, taskId, subtaskIndex);
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        acks.put(InMemoryCoordinatorState.keyOf(ack), Optional.of(ack));
    }

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
        RetainedCheckpoints written = retained.get(jobId);
        return written != null ? Optional.of(written) : base.retained(jobId);
    }

    @Override
    public void putRetained(RetainedCheckpoints value) {
        retained.put(value.getJobId(), value);
    }

    private java.util.SortedMap<AckKey, Optional<CheckpointAcknowledged>> prefix(String jobId, long checkpointId) {
        return acks.subMap(AckKey.first(jobId, checkpointId), AckKey.first(jobId, checkpointId + 1));
    }
}
