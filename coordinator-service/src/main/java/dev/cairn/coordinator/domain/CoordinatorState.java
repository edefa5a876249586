package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskVertex;
import java.util.List;
import java.util.Optional;

/**
 * Key-value view of the coordinator's stores. Values are immutable: writers put new values.
 *
 * <ul>
 *   <li>job: {@code jobId -> JobState} (small: status, schedule, queue, pending summaries, counters, the
 *       checkpoint config; no per-task or per-subtask data)
 *   <li>spec: {@code jobId -> JobSpec}, the registered spec with every task vertex in spec order; its size grows
 *       with the number of vertices, so it is read only where the work is O(vertices) anyway: registration
 *       (comparing and replacing specs), triggering (planning every subtask) and the REST views
 *   <li>vertex: {@code (jobId, taskId) -> TaskVertex}, the same vertices one key each, for the per-message
 *       lookups (task started, ack, decline); written and removed together with the spec
 *   <li>attempt: {@code (jobId, taskId, subtaskIndex) -> attemptId}, the current attempt
 *   <li>ack: {@code (jobId, checkpointId, taskId, subtaskIndex) -> CheckpointAcknowledged}, the
 *       accepted acks; they double as per-subtask stats while their checkpoint is pending or in the
 *       job's history, and are removed when it leaves the history
 *   <li>retained: {@code jobId -> RetainedCheckpoints}, written only at completion
 * </ul>
 *
 * The only scan is {@link #acks(String, long)}: a range over the (jobId, checkpointId) prefix. An ack reads
 * the job, one vertex, one attempt and one ack key, and writes the job and one ack key.
 */
public interface CoordinatorState {

    Optional<JobState> job(String jobId);

    void putJob(JobState job);

    /** The registered spec of the job, empty for a job that was never registered. */
    Optional<JobSpec> spec(String jobId);

    void putSpec(JobSpec spec);

    /** One task vertex of the job's current spec, empty when the spec has no such task. */
    Optional<TaskVertex> vertex(String jobId, String taskId);

    void putVertex(String jobId, TaskVertex vertex);

    void removeVertex(String jobId, String taskId);

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
