package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.domain.CoordinatorState;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RetainedCheckpoints;
import java.util.ArrayList;
import java.util.List;
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
 */
final class StoreBackedCoordinatorState implements CoordinatorState {

    private final KeyValueStore<String, JobState> jobs;
    private final KeyValueStore<Bytes, String> attempts;
    private final KeyValueStore<Bytes, CheckpointAcknowledged> acks;
    private final KeyValueStore<String, RetainedCheckpoints> retained;
    private final StoreReader reader;

    StoreBackedCoordinatorState(KeyValueStore<String, JobState> jobs, KeyValueStore<Bytes, String> attempts,
            KeyValueStore<Bytes, CheckpointAcknowledged> acks, KeyValueStore<String, RetainedCheckpoints> retained) {
        this.jobs = jobs;
        this.attempts = attempts;
        this.acks = acks;
        this.retained = retained;
        this.reader = new StoreReader(jobs, attempts, acks, retained);
    }

    @Override
    public Optional<JobState> job(String jobId) {
        return reader.job(jobId);
    }

    @Override
    public void putJob(JobState job) {
        jobs.put(job.getJobId(), job);
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
