package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RetainedCheckpoints;
import java.util.List;
import java.util.Optional;

/**
 * Key-value view of the coordinator's stores. Values are immutable: writers put new values.
 *
 * <ul>
 *   <li>job: {@code jobId -> JobState} (small, no per-subtask data)
 *   <li>attempt: {@code (jobId, taskId, subtaskIndex) -> attemptId}, the current attempt
 *   <li>ack: {@code (jobId, checkpointId, taskId, subtaskIndex) -> CheckpointAcknowledged}, the
 *       accepted acks; they double as per-subtask stats while their checkpoint is pending or in the
 *       job's history, and are removed when it leaves the history
 *   <li>retained: {@code jobId -> RetainedCheckpoints}, written only at completion
 * </ul>
 *
 * The only scan is {@link #acks(String, long)}: a range over the (jobId, checkpointId) prefix.
 */
public interface CoordinatorState {

    Optional<JobState> job(String jobId);

    void putJob(JobState job);

    Optional<String> attempt(String jobId, String taskId, int subtaskIndex);

    void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId);

    Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex);

    /** Stores an accepted ack under its (jobId, checkpointId, taskId, subtaskIndex) key. */
    void putAck(CheckpointAcknowledged ack);

    /** The accepted acks of one checkpoint, ordered by (taskId, subtaskIndex). */
    List<CheckpointAcknowledged> acks(String jobId, long checkpointId);

    void removeAcks(String jobId, long checkpointId);

    Optional<RetainedCheckpoints> retained(String jobId);

    void putRetained(RetainedCheckpoints retained);
}
