package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RetainedCheckpoints;
import java.util.List;
import java.util.Optional;

/** Delegating state that counts the accesses whose cost grows with the number of tasks. */
final class CountingState implements CoordinatorState {

    private final CoordinatorState delegate;
    int scans;
    int retainedReads;
    int jobWrites;
    int ackWrites;

    CountingState(CoordinatorState delegate) {
        this.delegate = delegate;
    }

    @Override
    public Optional<JobState> job(String jobId) {
        return delegate.job(jobId);
    }

    @Override
    public void putJob(JobState job) {
        jobWrites++;
        delegate.putJob(job);
    }

    @Override
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return delegate.attempt(jobId, taskId, subtaskIndex);
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        delegate.putAttempt(jobId, taskId, subtaskIndex, attemptId);
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return delegate.ack(jobId, checkpointId, taskId, subtaskIndex);
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        ackWrites++;
        delegate.putAck(ack);
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        scans++;
        return delegate.acks(jobId, checkpointId);
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        scans++;
        delegate.removeAcks(jobId, checkpointId);
    }

    @Override
    public Optional<RetainedCheckpoints> retained(String jobId) {
        retainedReads++;
        return delegate.retained(jobId);
    }

    @Override
    public void putRetained(RetainedCheckpoints retained) {
        delegate.putRetained(retained);
    }
}
