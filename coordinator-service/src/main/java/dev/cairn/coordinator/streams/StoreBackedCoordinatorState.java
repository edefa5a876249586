package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.domain.CheckpointProgress;
import dev.cairn.coordinator.domain.CoordinatorState;
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
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * {@link CoordinatorState} over the Kafka Streams stores of one stream task. Every read and write is one key,
 * except {@link #acks} and {@link #removeAcks}, which scan one checkpoint's key prefix.
 *
 * <p>The processor is the only writer of these stores, so the values it reads often are kept decoded here
 * (jobs, specs, vertices, attempts) and a checkpoint's progress is derived from its acks once, then kept up to
 * date: an ack decodes none of them once they are known. Writes go
 * through to the stores (and their changelogs) at once. The cache lives as long as this object, which the
 * processor makes anew whenever Kafka Streams (re)initialises the task, after a restore included.
 */
final class StoreBackedCoordinatorState implements CoordinatorState {

    private record VertexRef(String jobId, String taskId) {
    }

    private record SubtaskRef(String jobId, String taskId, int subtaskIndex) {
    }

    private record CheckpointRef(String jobId, long checkpointId) {
    }

    private final KeyValueStore<String, JobState> jobs;
    private final KeyValueStore<String, JobSpec> specs;
    private final KeyValueStore<Bytes, TaskVertex> vertices;
    private final KeyValueStore<Bytes, String> attempts;
    private final KeyValueStore<Bytes, TaskFinished> finished;
    private final KeyValueStore<Bytes, byte[]> acks;
    private final KeyValueStore<Bytes, CheckpointSummary> summaries;
    private final KeyValueStore<String, RetainedCheckpoints> retained;
    private final KeyValueStore<Bytes, RequestRecord> requests;
    private final KeyValueStore<String, RequestIndex> requestIndex;
    private final StoreReader reader;

    /** Decoded values of the keys that exist; absent keys are not remembered, so bad input cannot grow these. */
    private final Map<String, JobState> knownJobs = new HashMap<>();
    private final Map<String, JobSpec> knownSpecs = new HashMap<>();
    private final Map<VertexRef, TaskVertex> knownVertices = new HashMap<>();
    private final Map<SubtaskRef, String> knownAttempts = new HashMap<>();
    /** Derived from the acks: computed by one scan when first needed, then kept up to date by putAck. */
    private final Map<CheckpointRef, CheckpointProgress> knownProgress = new HashMap<>();

    /** Over the stores of the task the processor runs in. */
    StoreBackedCoordinatorState(Function<String, KeyValueStore<?, ?>> stores) {
        this.jobs = cast(stores.apply(CoordinatorStores.JOBS));
        this.specs = cast(stores.apply(CoordinatorStores.SPECS));
        this.vertices = cast(stores.apply(CoordinatorStores.VERTICES));
        this.attempts = cast(stores.apply(CoordinatorStores.ATTEMPTS));
        this.finished = cast(stores.apply(CoordinatorStores.FINISHED));
        this.acks = cast(stores.apply(CoordinatorStores.ACKS));
        this.summaries = cast(stores.apply(CoordinatorStores.SUMMARIES));
        this.retained = cast(stores.apply(CoordinatorStores.RETAINED));
        this.requests = cast(stores.apply(CoordinatorStores.REQUESTS));
        this.requestIndex = cast(stores.apply(CoordinatorStores.REQUEST_INDEX));
        this.reader = new StoreReader(new StoreReader.Stores() {
            @Override
            public <K, V> org.apache.kafka.streams.state.ReadOnlyKeyValueStore<K, V> store(String name) {
                return cast(stores.apply(name));
            }
        });
    }

    /** The remembered value of an existing key, else the store's, remembered when present. */
    private static <K, V> Optional<V> known(Map<K, V> known, K key, Function<K, Optional<V>> read) {
        V value = known.get(key);
        if (value != null) {
            return Optional.of(value);
        }
        Optional<V> stored = read.apply(key);
        stored.ifPresent(v -> known.put(key, v));
        return stored;
    }

    @SuppressWarnings("unchecked")
    private static <K, V> KeyValueStore<K, V> cast(KeyValueStore<?, ?> store) {
        return (KeyValueStore<K, V>) store;
    }

    @Override
    public Optional<JobState> job(String jobId) {
        return known(knownJobs, jobId, reader::job);
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), job);
        knownJobs.put(job.getJobId(), job);
    }

    @Override
    public Optional<JobSpec> spec(String jobId) {
        return known(knownSpecs, jobId, reader::spec);
    }

    @Override
    public void putSpec(JobSpec spec) {
        specs.put(spec.getJobId(), spec);
        knownSpecs.put(spec.getJobId(), spec);
    }

    @Override
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        return known(knownVertices, new VertexRef(jobId, taskId), k -> reader.vertex(jobId, taskId));
    }

    @Override
    public void putVertex(String jobId, TaskVertex vertex) {
        vertices.put(StoreKeys.vertex(jobId, vertex.getTaskId()), vertex);
        knownVertices.put(new VertexRef(jobId, vertex.getTaskId()), vertex);
    }

    @Override
    public void removeVertex(String jobId, String taskId) {
        vertices.delete(StoreKeys.vertex(jobId, taskId));
        knownVertices.remove(new VertexRef(jobId, taskId));
    }

    @Override
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return known(knownAttempts, new SubtaskRef(jobId, taskId, subtaskIndex),
                k -> reader.attempt(jobId, taskId, subtaskIndex));
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        attempts.put(StoreKeys.attempt(jobId, taskId, subtaskIndex), attemptId);
        knownAttempts.put(new SubtaskRef(jobId, taskId, subtaskIndex), attemptId);
    }

    @Override
    public Optional<TaskFinished> finished(String jobId, String taskId, int subtaskIndex) {
        return reader.finished(jobId, taskId, subtaskIndex);
    }

    @Override
    public void putFinished(TaskFinished value) {
        finished.put(StoreKeys.attempt(value.getJobId(), value.getTaskId(), value.getSubtaskIndex()), value);
    }

    @Override
    public void removeFinished(String jobId, String taskId, int subtaskIndex) {
        finished.delete(StoreKeys.attempt(jobId, taskId, subtaskIndex));
    }

    /** Every finished subtask of the job (for the restore parts of a completion). */
    List<TaskFinished> finished(String jobId) {
        return reader.finished(jobId);
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return reader.ack(jobId, checkpointId, taskId, subtaskIndex);
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        acks.put(StoreKeys.ack(ack.getJobId(), ack.getCheckpointId(), ack.getTaskId(), ack.getSubtaskIndex()),
                CoordinatorStores.ACK_VALUES.serialize(CoordinatorStores.ACKS, ack));
        knownProgress.computeIfPresent(new CheckpointRef(ack.getJobId(), ack.getCheckpointId()),
                (k, progress) -> progress.plus(ack));
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        return reader.acks(jobId, checkpointId);
    }

    /** Deletes one checkpoint's acks: a scan of that checkpoint's key range, never of the whole store. */
    @Override
    public void removeAcks(String jobId, long checkpointId) {
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it =
                     acks.prefixScan(StoreKeys.checkpoint(jobId, checkpointId), new BytesSerializer())) {
            while (it.hasNext()) {
                keys.add(it.peekNextKey());
                it.next();
            }
        }
        keys.forEach(acks::delete);
        knownProgress.remove(new CheckpointRef(jobId, checkpointId));
    }

    /** The decider puts an ack only for a subtask that has none accepted, so putAck's increment is exact. */
    @Override
    public CheckpointProgress progress(String jobId, long checkpointId) {
        return knownProgress.computeIfAbsent(new CheckpointRef(jobId, checkpointId),
                k -> reader.progress(jobId, checkpointId));
    }

    @Override
    public Optional<CheckpointSummary> summary(String jobId, long checkpointId) {
        return reader.summary(jobId, checkpointId);
    }

    @Override
    public void putSummary(String jobId, CheckpointSummary summary) {
        summaries.put(StoreKeys.checkpoint(jobId, summary.getCheckpointId()), summary);
    }

    @Override
    public void removeSummary(String jobId, long checkpointId) {
        summaries.delete(StoreKeys.checkpoint(jobId, checkpointId));
    }

    @Override
    public Optional<RetainedCheckpoints> retained(String jobId) {
        return reader.retained(jobId);
    }

    @Override
    public void putRetained(RetainedCheckpoints checkpoints) {
        retained.put(checkpoints.getJobId(), checkpoints);
    }

    @Override
    public Optional<RequestRecord> request(String jobId, String requestId) {
        return reader.request(jobId, requestId);
    }

    @Override
    public void putRequest(String jobId, RequestRecord request) {
        requests.put(StoreKeys.request(jobId, request.getRequestId()), request);
    }

    @Override
    public void removeRequest(String jobId, String requestId) {
        requests.delete(StoreKeys.request(jobId, requestId));
    }

    @Override
    public Optional<RequestIndex> requestIndex(String jobId) {
        return reader.requestIndex(jobId);
    }

    @Override
    public void putRequestIndex(RequestIndex index) {
        requestIndex.put(index.getJobId(), index);
    }
}
