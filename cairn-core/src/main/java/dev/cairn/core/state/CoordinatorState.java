package dev.cairn.core.state;

import dev.cairn.core.state.StateKeys.AttemptKey;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateKeys.RequestKey;
import dev.cairn.core.state.StateKeys.VertexKey;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Key-value view of the coordinator's stores. Values are immutable: writers put new values.
 *
 * <ul>
 *   <li>job: {@code jobId -> JobState} (small: status, schedule, queue, pending summaries, counters, the
 *       checkpoint config; nothing per task, per subtask or per ack)
 *   <li>spec: {@code jobId -> JobSpec}, the registered spec with every task vertex in spec order; its size grows
 *       with the number of vertices, so it is read only where the work is O(vertices) anyway: registration
 *       and triggering
 *   <li>vertex: {@code (jobId, taskId) -> TaskVertex}, the same vertices one key each, for the per-message
 *       lookups (task started, ack, decline); written and removed together with the spec
 *   <li>attempt: {@code (jobId, taskId, subtaskIndex) -> CurrentAttempt}, the current attempt and the start time
 *       its {@code TaskStarted} carried, which orders it against other attempts of the subtask
 *   <li>finished: {@code (jobId, taskId, subtaskIndex) -> TaskFinished}, a subtask that finished for good, with
 *       its final state; removed when a new attempt of it starts
 *   <li>ack: {@code (jobId, checkpointId, taskId, subtaskIndex) -> CheckpointAcknowledged}, the accepted acks;
 *       they double as per-subtask stats while their checkpoint is pending or in the job's history
 *   <li>summary: {@code (jobId, checkpointId) -> CheckpointSummary}, one ended checkpoint of the history
 *   <li>retained: {@code jobId -> RetainedCheckpoints}, written only at completion
 *   <li>request: {@code (jobId, requestId) -> RequestRecord}, what became of one trigger request (its latest
 *       outcome), written only by a request's outcome
 *   <li>request index: {@code jobId -> RequestIndex}, the requests whose records are kept, oldest first
 *       (bounded by {@link CoordinatorSettings#requestsKept()}); written only when a request gets its first
 *       outcome. Jobs are never removed; a replaced spec keeps the job's requests, as it keeps its history
 * </ul>
 *
 * Every table but the acks is a {@link StateTable}: implementations provide get, put and remove over any table,
 * and the named methods here say which table and key. An ordinary ack reads the job, one vertex, one attempt, one ack key and its checkpoint's progress, and
 * writes one ack: nothing it touches grows with the job. The only scans are over one checkpoint's
 * acks ({@link #acks}, {@link #removeAcks}), done once per checkpoint.
 */
public interface CoordinatorState {

    /** The value under {@code key} in {@code table}, empty when there is none. */
    <K, V> Optional<V> get(StateTable<K, V> table, K key);

    <K, V> void put(StateTable<K, V> table, K key, V value);

    /** Removes the value under {@code key}; see {@link StateTable#removable} for the tables that never do. */
    <K, V> void remove(StateTable<K, V> table, K key);

    Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex);

    /** Stores an accepted ack under its (jobId, checkpointId, taskId, subtaskIndex) key. */
    void putAck(CheckpointAcknowledged ack);

    /** The accepted acks of one checkpoint, ordered by (taskId, subtaskIndex). */
    List<CheckpointAcknowledged> acks(String jobId, long checkpointId);

    /** Removes every accepted ack of one checkpoint. */
    void removeAcks(String jobId, long checkpointId);

    /**
     * What the accepted acks of one checkpoint add up to: derived from the acks, never written. Implementations
     * keep it up to date as acks are put, so that reading it after an ack costs a lookup, not a scan.
     */
    CheckpointProgress progress(String jobId, long checkpointId);

    default Optional<JobState> job(String jobId) {
        return get(StateTable.JOBS, jobId);
    }

    default void putJob(JobState job) {
        put(StateTable.JOBS, job.getJobId(), job);
    }

    /** The registered spec of the job, empty for a job that was never registered. */
    default Optional<JobSpec> spec(String jobId) {
        return get(StateTable.SPECS, jobId);
    }

    default void putSpec(JobSpec spec) {
        put(StateTable.SPECS, spec.getJobId(), spec);
    }

    /** One task vertex of the job's current spec, empty when the spec has no such task. */
    default Optional<TaskVertex> vertex(String jobId, String taskId) {
        return get(StateTable.VERTICES, new VertexKey(jobId, taskId));
    }

    default void putVertex(String jobId, TaskVertex vertex) {
        put(StateTable.VERTICES, new VertexKey(jobId, vertex.getTaskId()), vertex);
    }

    default void removeVertex(String jobId, String taskId) {
        remove(StateTable.VERTICES, new VertexKey(jobId, taskId));
    }

    /** The id of the subtask's current attempt, empty when none started. */
    default Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return currentAttempt(jobId, taskId, subtaskIndex).map(CurrentAttempt::getAttemptId);
    }

    /** The subtask's current attempt with its start time, empty when none started. */
    default Optional<CurrentAttempt> currentAttempt(String jobId, String taskId, int subtaskIndex) {
        return get(StateTable.ATTEMPTS, new AttemptKey(jobId, taskId, subtaskIndex));
    }

    /** Makes {@code attemptId}, started at {@code startedAtMs}, the subtask's current attempt. */
    default void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId, long startedAtMs) {
        put(StateTable.ATTEMPTS, new AttemptKey(jobId, taskId, subtaskIndex),
                new CurrentAttempt(Objects.requireNonNull(attemptId), startedAtMs));
    }

    /** How the subtask finished, empty while it has not. */
    default Optional<TaskFinished> finished(String jobId, String taskId, int subtaskIndex) {
        return get(StateTable.FINISHED, new AttemptKey(jobId, taskId, subtaskIndex));
    }

    default void putFinished(TaskFinished finished) {
        put(StateTable.FINISHED, new AttemptKey(finished.getJobId(), finished.getTaskId(),
                finished.getSubtaskIndex()), finished);
    }

    default void removeFinished(String jobId, String taskId, int subtaskIndex) {
        remove(StateTable.FINISHED, new AttemptKey(jobId, taskId, subtaskIndex));
    }

    default Optional<CheckpointSummary> summary(String jobId, long checkpointId) {
        return get(StateTable.SUMMARIES, new CheckpointKey(jobId, checkpointId));
    }

    default void putSummary(String jobId, CheckpointSummary summary) {
        put(StateTable.SUMMARIES, new CheckpointKey(jobId, summary.getCheckpointId()), summary);
    }

    default void removeSummary(String jobId, long checkpointId) {
        remove(StateTable.SUMMARIES, new CheckpointKey(jobId, checkpointId));
    }

    default Optional<RetainedCheckpoints> retained(String jobId) {
        return get(StateTable.RETAINED, jobId);
    }

    default void putRetained(RetainedCheckpoints retained) {
        put(StateTable.RETAINED, retained.getJobId(), retained);
    }

    /** What became of one trigger request of the job, empty when it had no outcome or is no longer kept. */
    default Optional<RequestRecord> request(String jobId, String requestId) {
        return get(StateTable.REQUESTS, new RequestKey(jobId, requestId));
    }

    default void putRequest(String jobId, RequestRecord request) {
        put(StateTable.REQUESTS, new RequestKey(jobId, request.getRequestId()), request);
    }

    default void removeRequest(String jobId, String requestId) {
        remove(StateTable.REQUESTS, new RequestKey(jobId, requestId));
    }

    /** The job's requests whose records are kept, oldest first; empty before the first outcome. */
    default Optional<RequestIndex> requestIndex(String jobId) {
        return get(StateTable.REQUEST_INDEXES, jobId);
    }

    default void putRequestIndex(RequestIndex index) {
        put(StateTable.REQUEST_INDEXES, index.getJobId(), index);
    }

    /** The job's ended checkpoints in its history, oldest first (one summary per id the job lists). */
    default List<CheckpointSummary> history(JobState job) {
        return job.getHistoryIds().stream()
                .map(id -> summary(job.getJobId(), id))
                .flatMap(Optional::stream)
                .toList();
    }
}
