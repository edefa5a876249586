package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.domain.StateKeys.AckKey;
import dev.cairn.coordinator.domain.StateKeys.AttemptKey;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RetainedCheckpoints;
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
    private final TreeMap<AttemptKey, String> attempts = new TreeMap<>();
    private final TreeMap<AckKey, CheckpointAcknowledged> acks = new TreeMap<>();
    private final TreeMap<String, RetainedCheckpoints> retained = new TreeMap<>();

    /** A copy whose maps are independent of this one (values are immutable and shared). */
    public InMemoryCoordinatorState copy() {
        InMemoryCoordinatorState copy = new InMemoryCoordinatorState();
        copy.jobs.putAll(jobs);
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

    @Override
    public Optional<JobState> job(String jobId) {
        return Optional.ofNullable(jobs.get(jobId));
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), job);
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
                && attempts.equals(other.attempts)
                && acks.equals(other.acks)
                && retained.equals(other.retained);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobs, attempts, acks, retained);
    }

    @Override
    public String toString() {
        return "InMemoryCoordinatorState{jobs=" + jobs + ", attempts=" + attempts + ", acks=" + acks.keySet()
                + ", retained=" + retained + "}";
    }
}
