package dev.cairn.core.state;

import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.KeptSavepoints;
import dev.cairn.coordinator.state.RemovedJob;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.coordinator.state.SharedStateEntry;
import dev.cairn.core.state.StateKeys.AckKey;
import dev.cairn.core.state.StateKeys.AttemptKey;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateKeys.RequestKey;
import dev.cairn.core.state.StateKeys.SharedKey;
import dev.cairn.core.state.StateKeys.VertexKey;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The coordinator's state: the tables of {@link StateTable} over a {@link Storage}, read and written by the
 * decider, the evolver, the REST views and the audit alike. Values are immutable: writers put new values. The
 * named readers say which table and key, and so do the writers with more than one caller; the evolvers write the
 * other tables with {@link #put} and {@link #remove}. The tables, their keys and what each holds are described
 * in {@link StateTable}.
 *
 * <p>An ordinary ack reads the job, one vertex, one attempt, one ack key and its checkpoint's progress, and writes
 * one ack: nothing it touches grows with the job. A checkpoint's {@link #progress} is derived from its acks: found
 * by one scan of them when first read, then kept up to date as acks are put, so reading it after an ack is a
 * lookup. The only scans are over one group: one checkpoint's acks, or one job's finished subtasks, vertices or
 * requests. A job's removal ({@link #removeJob}) removes its groups and its keys, never scanning another job's.
 */
public final class CoordinatorState {

    private static final Comparator<CheckpointAcknowledged> ACKS_BY_SUBTASK = Comparator
            .comparing(CheckpointAcknowledged::getTaskId).thenComparingInt(CheckpointAcknowledged::getSubtaskIndex);
    private static final Comparator<TaskFinished> FINISHED_BY_SUBTASK = Comparator
            .comparing(TaskFinished::getTaskId).thenComparingInt(TaskFinished::getSubtaskIndex);

    private final Storage storage;
    /** For a state over an overlay: the state it lies over, whose progress it adds its own acks to. */
    private final CoordinatorState base;
    private final OverlayStorage changes;
    /** Each checkpoint's progress once read (a state over an overlay keeps none: it adds to its base's). */
    private final Map<CheckpointKey, CheckpointProgress> progress;

    private CoordinatorState(Storage storage, CoordinatorState base, OverlayStorage changes) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.base = base;
        this.changes = changes;
        this.progress = base == null ? new HashMap<>() : null;
    }

    /** A state over {@code storage}. */
    public static CoordinatorState over(Storage storage) {
        return new CoordinatorState(storage, null, null);
    }

    /** An empty state in hash maps ({@link MapStorage}). */
    public static CoordinatorState inMemory() {
        return over(new MapStorage());
    }

    /**
     * A state whose reads fall through to {@code base} and whose writes stay in {@code changes} (an overlay over
     * {@code base}'s storage) until {@link OverlayStorage#applyTo} writes them to {@code base}.
     */
    public static CoordinatorState layered(CoordinatorState base, OverlayStorage changes) {
        return new CoordinatorState(changes, Objects.requireNonNull(base, "base"), changes);
    }

    /**
     * A copy of a state in memory, whose maps are independent of this one's.
     *
     * @throws IllegalStateException for a state over another storage
     */
    public CoordinatorState copy() {
        if (!(storage instanceof MapStorage maps)) {
            throw new IllegalStateException("only a state in memory is copied, not one over " + storage);
        }
        return over(maps.copy());
    }

    public Storage storage() {
        return storage;
    }

    /** The value under {@code key} in {@code table}, empty when there is none. */
    public <K, V extends SpecificRecord> Optional<V> get(StateTable<K, V> table, K key) {
        return Optional.ofNullable(storage.get(table, key));
    }

    /**
     * Puts a value. An ack is put only for a subtask that has none accepted in its checkpoint (the decider's rule),
     * so adding it to its checkpoint's progress is exact.
     */
    public <K, V extends SpecificRecord> void put(StateTable<K, V> table, K key, V value) {
        if (table == StateTable.ACKS && base == null) {
            CheckpointKey checkpoint = ((AckKey) key).checkpoint();
            CheckpointProgress before = progress(checkpoint);
            storage.put(table, key, value);
            progress.put(checkpoint, before.plus((CheckpointAcknowledged) value));
        } else {
            storage.put(table, key, value);
        }
    }

    /** Removes the value under {@code key}; see {@link StateTable#removable} for the tables that never do. */
    public <K, V extends SpecificRecord> void remove(StateTable<K, V> table, K key) {
        storage.delete(table, table.removable(key));
    }

    /** Removes every value of one group of keys ({@link KeyCodec#group}) of a table removed by group. */
    public <K, V extends SpecificRecord> void removeGroup(StateTable<K, V> table, Object group) {
        deleteGroup(table, table.removableGroup(group));
    }

    /**
     * Removes every entry of the job from every table but those that outlive it ({@link StateTable.JobEntries#KEPT}),
     * whatever the tables' {@link StateTable.Removal}: a job's removal. The entries of the tables kept per checkpoint
     * are those of {@code checkpointIds}, which must name every checkpoint the job keeps anything of (pending, in its
     * history, retained, its savepoints).
     */
    public void removeJob(String jobId, Collection<Long> checkpointIds) {
        for (StateTable<?, ?> table : StateTable.ALL) {
            removeJobEntries(table, jobId, checkpointIds);
        }
    }

    @SuppressWarnings("unchecked")
    private <K, V extends SpecificRecord> void removeJobEntries(StateTable<K, V> table, String jobId,
            Collection<Long> checkpointIds) {
        switch (table.jobEntries()) {
            case KEY -> delete(table, (K) jobId);
            case GROUP -> deleteGroup(table, jobId);
            case CHECKPOINTS -> {
                for (long id : checkpointIds) {
                    CheckpointKey checkpoint = new CheckpointKey(jobId, id);
                    if (table.grouped()) {
                        deleteGroup(table, checkpoint);
                    } else {
                        delete(table, (K) checkpoint);
                    }
                }
            }
            case KEPT -> {
                // outlives the job
            }
        }
    }

    /** Removes the value under {@code key} whatever the table's removal: an overlay's changes, a job's removal. */
    <K, V extends SpecificRecord> void delete(StateTable<K, V> table, K key) {
        storage.delete(table, key);
    }

    /** Removes a group whatever the table's removal: an overlay's changes, a job's removal. */
    <K, V extends SpecificRecord> void deleteGroup(StateTable<K, V> table, Object group) {
        storage.deleteGroup(table, group);
        if (table == StateTable.ACKS && base == null) {
            progress.remove(group);
        }
    }

    /** One group of a grouped table takes no more writes: see {@link Storage#settled}. */
    public <K, V extends SpecificRecord> void settled(StateTable<K, V> table, Object group) {
        storage.settled(table, group);
    }

    /** Every value of one group of a grouped table (every value of the table for {@code null}), in no order. */
    public <K, V extends SpecificRecord> List<V> values(StateTable<K, V> table, Object group) {
        return new ArrayList<>(storage.scan(table, group).values());
    }

    /** Puts every entry of this state into {@code target}, table by table; returns how many. */
    public long copyTo(CoordinatorState target) {
        long copied = 0;
        for (StateTable<?, ?> table : StateTable.ALL) {
            copied += copyTable(table, target);
        }
        return copied;
    }

    /** Every entry of one table, by key: a scan of the whole table. */
    public <K, V extends SpecificRecord> Map<K, V> entries(StateTable<K, V> table) {
        return storage.scan(table, null);
    }

    private <K, V extends SpecificRecord> int copyTable(StateTable<K, V> table, CoordinatorState target) {
        Map<K, V> entries = entries(table);
        entries.forEach((key, value) -> target.put(table, key, value));
        return entries.size();
    }

    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return get(StateTable.ACKS, new AckKey(jobId, checkpointId, taskId, subtaskIndex));
    }

    /** Stores an accepted ack under its (jobId, checkpointId, taskId, subtaskIndex) key. */
    public void putAck(CheckpointAcknowledged ack) {
        put(StateTable.ACKS, new AckKey(ack.getJobId(), ack.getCheckpointId(), ack.getTaskId(),
                ack.getSubtaskIndex()), ack);
    }

    /** The accepted acks of one checkpoint, ordered by (taskId, subtaskIndex). */
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        List<CheckpointAcknowledged> acks = values(StateTable.ACKS, new CheckpointKey(jobId, checkpointId));
        acks.sort(ACKS_BY_SUBTASK);
        return acks;
    }

    /** The checkpoint ended and takes no more acks: its acks stay stored, and a backing may let go of its copies. */
    public void acksSettled(String jobId, long checkpointId) {
        settled(StateTable.ACKS, new CheckpointKey(jobId, checkpointId));
    }

    /** Removes every accepted ack of one checkpoint. */
    public void removeAcks(String jobId, long checkpointId) {
        removeGroup(StateTable.ACKS, new CheckpointKey(jobId, checkpointId));
    }

    /** What the accepted acks of one checkpoint add up to: derived from the acks, never written. */
    public CheckpointProgress progress(String jobId, long checkpointId) {
        return progress(new CheckpointKey(jobId, checkpointId));
    }

    CheckpointProgress progress(CheckpointKey checkpoint) {
        if (base != null) {
            return changes.progressOver(checkpoint, base);
        }
        CheckpointProgress known = progress.get(checkpoint);
        if (known == null) {
            known = CheckpointProgress.of(storage.scan(StateTable.ACKS, checkpoint).values());
            progress.put(checkpoint, known);
        }
        return known;
    }

    public Optional<JobState> job(String jobId) {
        return get(StateTable.JOBS, jobId);
    }

    public void putJob(JobState job) {
        put(StateTable.JOBS, job.getJobId(), job);
    }

    /** Every job, ordered by job id: one scan of the jobs table. */
    public List<JobState> jobs() {
        List<JobState> jobs = values(StateTable.JOBS, null);
        jobs.sort(Comparator.comparing(JobState::getJobId));
        return jobs;
    }

    /** The id of every job, sorted. */
    public List<String> jobIds() {
        return jobs().stream().map(JobState::getJobId).toList();
    }

    /** The registered spec of the job, empty for a job that was never registered. */
    public Optional<JobSpec> spec(String jobId) {
        return get(StateTable.SPECS, jobId);
    }

    /** One task vertex of the job's current spec, empty when the spec has no such task. */
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        return get(StateTable.VERTICES, new VertexKey(jobId, taskId));
    }

    /** The id of the subtask's current attempt, empty when none started. */
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return currentAttempt(jobId, taskId, subtaskIndex).map(CurrentAttempt::getAttemptId);
    }

    /** The subtask's current attempt with its start time, empty when none started. */
    public Optional<CurrentAttempt> currentAttempt(String jobId, String taskId, int subtaskIndex) {
        return get(StateTable.ATTEMPTS, new AttemptKey(jobId, taskId, subtaskIndex));
    }

    /** Makes {@code attemptId}, started at {@code startedAtMs}, the subtask's current attempt, on no known host. */
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId, long startedAtMs) {
        putAttempt(jobId, taskId, subtaskIndex, attemptId, startedAtMs, null);
    }

    /**
     * Makes {@code attemptId}, started at {@code startedAtMs} on {@code host} ({@code null}: not named), the
     * subtask's current attempt.
     */
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId, long startedAtMs,
            String host) {
        put(StateTable.ATTEMPTS, new AttemptKey(jobId, taskId, subtaskIndex),
                new CurrentAttempt(Objects.requireNonNull(attemptId), startedAtMs, host));
    }

    /** How the subtask finished, empty while it has not. */
    public Optional<TaskFinished> finished(String jobId, String taskId, int subtaskIndex) {
        return get(StateTable.FINISHED, new AttemptKey(jobId, taskId, subtaskIndex));
    }

    /** Every finished subtask of the job, ordered by (taskId, subtaskIndex): one scan of the job's group. */
    public List<TaskFinished> finished(String jobId) {
        List<TaskFinished> finished = values(StateTable.FINISHED, jobId);
        finished.sort(FINISHED_BY_SUBTASK);
        return finished;
    }

    public Optional<CheckpointSummary> summary(String jobId, long checkpointId) {
        return get(StateTable.SUMMARIES, new CheckpointKey(jobId, checkpointId));
    }

    /** The job's ended checkpoints in its history, oldest first (one summary per id the job lists). */
    public List<CheckpointSummary> history(JobState job) {
        return job.getHistoryIds().stream()
                .map(id -> summary(job.getJobId(), id))
                .flatMap(Optional::stream)
                .toList();
    }

    public Optional<RetainedCheckpoints> retained(String jobId) {
        return get(StateTable.RETAINED, jobId);
    }

    /** What became of one trigger request of the job, empty when it had no outcome or is no longer kept. */
    public Optional<RequestRecord> request(String jobId, String requestId) {
        return get(StateTable.REQUESTS, new RequestKey(jobId, requestId));
    }

    /** The job's requests whose records are kept, oldest first; empty before the first outcome. */
    public Optional<RequestIndex> requestIndex(String jobId) {
        return get(StateTable.REQUEST_INDEXES, jobId);
    }

    /** The job's savepoints that are points to restore from, oldest first; empty when it has none. */
    public List<CheckpointCompleted> savepoints(String jobId) {
        return get(StateTable.SAVEPOINTS, jobId).map(KeptSavepoints::getSavepoints).orElse(List.of());
    }

    /** What is kept of the job removed under {@code jobId}, empty when none was. */
    public Optional<RemovedJob> removed(String jobId) {
        return get(StateTable.REMOVED, jobId);
    }

    /** The job's shared state object at {@code location}, empty when no kept checkpoint refers to it. */
    public Optional<SharedStateEntry> sharedState(String jobId, String location) {
        return get(StateTable.SHARED_STATES, new SharedKey(jobId, location));
    }

    /** Two states are equal when their storages are (for {@link MapStorage}: equal values under equal keys). */
    @Override
    public boolean equals(Object o) {
        return o instanceof CoordinatorState other && storage.equals(other.storage);
    }

    @Override
    public int hashCode() {
        return storage.hashCode();
    }

    @Override
    public String toString() {
        return "CoordinatorState" + storage;
    }
}
