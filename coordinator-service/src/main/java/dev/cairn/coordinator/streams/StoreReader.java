package dev.cairn.coordinator.streams;

import dev.cairn.core.state.CheckpointProgress;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Read-only access to the coordinator's stores of one stream task (see {@link CoordinatorStores}): point
 * reads, and one prefix scan for the acks of one checkpoint. Reads may throw Kafka Streams'
 * {@code InvalidStateStoreException} when the task moves away meanwhile; the API answers 503 then.
 */
public final class StoreReader {

    private static final Comparator<CheckpointAcknowledged> BY_SUBTASK = Comparator
            .comparing(CheckpointAcknowledged::getTaskId)
            .thenComparingInt(CheckpointAcknowledged::getSubtaskIndex);

    /** Finds one of the task's stores by its name ({@link CoordinatorStores}). */
    @FunctionalInterface
    public interface Stores {
        <K, V> ReadOnlyKeyValueStore<K, V> store(String name);
    }

    private final ReadOnlyKeyValueStore<String, JobState> jobs;
    private final ReadOnlyKeyValueStore<String, JobSpec> specs;
    private final ReadOnlyKeyValueStore<Bytes, TaskVertex> vertices;
    private final ReadOnlyKeyValueStore<Bytes, CurrentAttempt> attempts;
    private final ReadOnlyKeyValueStore<Bytes, TaskFinished> finished;
    /** Encoded values ({@link CoordinatorStores#ACK_VALUES}), decoded here as they are read. */
    private final ReadOnlyKeyValueStore<Bytes, byte[]> acks;
    private final ReadOnlyKeyValueStore<Bytes, CheckpointSummary> summaries;
    private final ReadOnlyKeyValueStore<String, RetainedCheckpoints> retained;
    private final ReadOnlyKeyValueStore<Bytes, RequestRecord> requests;
    private final ReadOnlyKeyValueStore<String, RequestIndex> requestIndex;

    /** Over the stores of one stream task. */
    public StoreReader(Stores stores) {
        this.jobs = stores.store(CoordinatorStores.JOBS);
        this.specs = stores.store(CoordinatorStores.SPECS);
        this.vertices = stores.store(CoordinatorStores.VERTICES);
        this.attempts = stores.store(CoordinatorStores.ATTEMPTS);
        this.finished = stores.store(CoordinatorStores.FINISHED);
        this.acks = stores.store(CoordinatorStores.ACKS);
        this.summaries = stores.store(CoordinatorStores.SUMMARIES);
        this.retained = stores.store(CoordinatorStores.RETAINED);
        this.requests = stores.store(CoordinatorStores.REQUESTS);
        this.requestIndex = stores.store(CoordinatorStores.REQUEST_INDEX);
    }

    /** The job's state, empty for a job that was never registered. */
    public Optional<JobState> job(String jobId) {
        return Optional.ofNullable(jobs.get(jobId));
    }

    /** Every job of this stream task, ordered by job id: one scan of the jobs store. */
    public List<JobState> jobs() {
        List<JobState> found = new ArrayList<>();
        try (KeyValueIterator<String, JobState> it = jobs.all()) {
            it.forEachRemaining(entry -> found.add(entry.value));
        }
        found.sort(Comparator.comparing(JobState::getJobId));
        return found;
    }

    /** The job's registered spec (every vertex, in spec order), empty for a job that was never registered. */
    public Optional<JobSpec> spec(String jobId) {
        return Optional.ofNullable(specs.get(jobId));
    }

    /** One vertex of the job's current spec, empty when it has no such task. */
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        return Optional.ofNullable(vertices.get(StoreKeys.vertex(jobId, taskId)));
    }

    /** The current attempt of a subtask, empty when it never started. */
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return Optional.ofNullable(attempts.get(StoreKeys.attempt(jobId, taskId, subtaskIndex)))
                .map(CurrentAttempt::getAttemptId);
    }

    /** How a subtask finished, empty while it has not. */
    public Optional<TaskFinished> finished(String jobId, String taskId, int subtaskIndex) {
        return Optional.ofNullable(finished.get(StoreKeys.attempt(jobId, taskId, subtaskIndex)));
    }

    /** Every finished subtask of the job, ordered by (taskId, subtaskIndex): one scan of the job's key range. */
    public List<TaskFinished> finished(String jobId) {
        List<TaskFinished> found = new ArrayList<>();
        try (KeyValueIterator<Bytes, TaskFinished> it = finished.prefixScan(StoreKeys.job(jobId),
                new BytesSerializer())) {
            it.forEachRemaining(entry -> found.add(entry.value));
        }
        found.sort(java.util.Comparator.comparing(TaskFinished::getTaskId).thenComparingInt(TaskFinished::getSubtaskIndex));
        return found;
    }

    /** The accepted acks of a pending checkpoint or one in the history, ordered by (taskId, subtaskIndex). */
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        List<CheckpointAcknowledged> found = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it =
                     acks.prefixScan(StoreKeys.checkpoint(jobId, checkpointId), new BytesSerializer())) {
            it.forEachRemaining(entry -> found.add(decodeAck(entry.value)));
        }
        found.sort(BY_SUBTASK);
        return found;
    }

    /** One accepted ack, empty when that subtask has not acknowledged the checkpoint. */
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return Optional.ofNullable(acks.get(StoreKeys.ack(jobId, checkpointId, taskId, subtaskIndex)))
                .map(StoreReader::decodeAck);
    }

    private static CheckpointAcknowledged decodeAck(byte[] value) {
        return CoordinatorStores.ACK_VALUES.deserialize(CoordinatorStores.ACKS, value);
    }

    /** What the accepted acks of a checkpoint add up to: one scan of its acks. */
    public CheckpointProgress progress(String jobId, long checkpointId) {
        return CheckpointProgress.of(acks(jobId, checkpointId));
    }

    /** The summary of an ended checkpoint in the job's history, empty when it is not there. */
    public Optional<CheckpointSummary> summary(String jobId, long checkpointId) {
        return Optional.ofNullable(summaries.get(StoreKeys.checkpoint(jobId, checkpointId)));
    }

    /** The job's ended checkpoints in its history, oldest first. */
    public List<CheckpointSummary> history(JobState job) {
        return job.getHistoryIds().stream()
                .map(id -> summary(job.getJobId(), id))
                .flatMap(Optional::stream)
                .toList();
    }

    /** The retained completed checkpoints of the job, newest last. */
    public Optional<RetainedCheckpoints> retained(String jobId) {
        return Optional.ofNullable(retained.get(jobId));
    }

    /** What became of one trigger request of the job, empty when it had no outcome or is no longer kept. */
    public Optional<RequestRecord> request(String jobId, String requestId) {
        return Optional.ofNullable(requests.get(StoreKeys.request(jobId, requestId)));
    }

    /** The job's requests whose records are kept, oldest first. */
    public Optional<RequestIndex> requestIndex(String jobId) {
        return Optional.ofNullable(requestIndex.get(jobId));
    }
}
