package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.domain.CoordinatorState;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * {@link CoordinatorState} over the Kafka Streams stores of one stream task: reads go through the same
 * {@link StoreReader} that interactive queries use. Every read and write is one key, except {@link #acks}
 * and {@link #removeAcks}, which scan one checkpoint's key prefix.
 *
 * <p>Within one command ({@link #startCommand()}) the job records read or written are remembered, so that
 * deciding and then applying the events decode each job record once; everything is written through at once.
 */
final class StoreBackedCoordinatorState implements CoordinatorState {

    private final KeyValueStore<String, JobState> jobs;
    private final KeyValueStore<String, JobSpec> specs;
    private final KeyValueStore<Bytes, TaskVertex> vertices;
    private final KeyValueStore<Bytes, String> attempts;
    private final KeyValueStore<Bytes, CheckpointAcknowledged> acks;
    private final KeyValueStore<String, RetainedCheckpoints> retained;
    private final StoreReader reader;
    /** The job records of the current command, as stored; empty: absent. */
    private final Map<String, Optional<JobState>> commandJobs = new HashMap<>();

    StoreBackedCoordinatorState(KeyValueStore<String, JobState> jobs, KeyValueStore<String, JobSpec> specs,
            KeyValueStore<Bytes, TaskVertex> vertices, KeyValueStore<Bytes, String> attempts,
            KeyValueStore<Bytes, CheckpointAcknowledged> acks, KeyValueStore<String, RetainedCheckpoints> retained) {
        this.jobs = jobs;
        this.specs = specs;
        this.vertices = vertices;
        this.attempts = attempts;
        this.acks = acks;
        this.retained = retained;
        this.reader = new StoreReader(jobs, specs, vertices, attempts, acks, retained);
    }

    /** Forgets the job records remembered for the previous command. */
    void startCommand() {
        commandJobs.clear();
    }

    @Override
    public Optional<JobState> job(String jobId) {
        Optional<JobState> known = commandJobs.get(jobId);
        if (known == null) {
            known = reader.job(jobId);
            commandJobs.put(jobId, known);
        }
        return known;
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), job);
        commandJobs.put(job.getJobId(), Optional.of(job));
    }

    @Override
    public Optional<JobSpec> spec(String jobId) {
        return reader.spec(jobId);
    }

    @Override
    public void putSpec(JobSpec spec) {
        specs.put(spec.getJobId(), spec);
    }

    @Override
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        return reader.vertex(jobId, taskId);
    }

    @Override
    public void putVertex(String jobId, TaskVertex vertex) {
        vertices.put(StoreKeys.vertex(jobId, vertex.getTaskId()), vertex);
    }

    @Override
    public void removeVertex(String jobId, String taskId) {
        vertices.delete(StoreKeys.vertex(jobId, taskId));
    }

    @Override
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        return reader.attempt(jobId, taskId, subtaskIndex);
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        attempts.put(StoreKeys.attempt(jobId, taskId, subtaskIndex), attemptId);
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        return reader.ack(jobId, checkpointId, taskId, subtaskIndex);
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        acks.put(StoreKeys.ack(ack.getJobId(), ack.getCheckpointId(), ack.getTaskId(), ack.getSubtaskIndex()), ack);
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        return reader.acks(jobId, checkpointId);
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, CheckpointAcknowledged> it =
                     acks.prefixScan(StoreKeys.ackPrefix(jobId, checkpointId), new BytesSerializer())) {
            while (it.hasNext()) {
                KeyValue<Bytes, CheckpointAcknowledged> entry = it.next();
                keys.add(entry.key);
            }
        }
        keys.forEach(acks::delete);
    }

    @Override
    public Optional<RetainedCheckpoints> retained(String jobId) {
        return reader.retained(jobId);
    }

    @Override
    public void putRetained(RetainedCheckpoints checkpoints) {
        retained.put(checkpoints.getJobId(), checkpoints);
    }
}
