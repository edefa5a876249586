package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskVertex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Delegating state that counts every read and write per kind of key, and the Avro-encoded bytes of the
 * values read and written: what a store-backed state would decode and encode.
 */
final class CountingState implements CoordinatorState {

    static {
        // measuring sizes writes the state classes with Avro, which trusts Cairn's classes once a serde exists
        dev.cairn.events.serde.AvroEventSerde.currentOnly(JobState.class);
    }


    private final CoordinatorState delegate;
    int jobReads;
    int specReads;
    int vertexReads;
    int attemptReads;
    int ackReads;
    int retainedReads;
    int progressReads;
    int summaryReads;
    int requestReads;
    /** Prefix scans: {@link #acks} and {@link #removeAcks}. */
    int scans;
    int jobWrites;
    int specWrites;
    int vertexWrites;
    int vertexRemovals;
    int attemptWrites;
    int ackWrites;
    int retainedWrites;
    int summaryWrites;
    int requestWrites;
    long bytesRead;
    long bytesWritten;

    CountingState(CoordinatorState delegate) {
        this.delegate = delegate;
    }

    /** Point reads of every kind. */
    int reads() {
        return jobReads + specReads + vertexReads + attemptReads + ackReads + retainedReads + progressReads
                + summaryReads + requestReads;
    }

    /** Writes and removals of every kind. */
    int writes() {
        return jobWrites + specWrites + vertexWrites + vertexRemovals + attemptWrites + ackWrites + retainedWrites
                + summaryWrites + requestWrites;
    }

    @Override
    public Optional<JobState> job(String jobId) {
        jobReads++;
        return read(delegate.job(jobId));
    }

    @Override
    public void putJob(JobState job) {
        jobWrites++;
        bytesWritten += size(job);
        delegate.putJob(job);
    }

    @Override
    public Optional<JobSpec> spec(String jobId) {
        specReads++;
        return read(delegate.spec(jobId));
    }

    @Override
    public void putSpec(JobSpec spec) {
        specWrites++;
        bytesWritten += size(spec);
        delegate.putSpec(spec);
    }

    @Override
    public Optional<TaskVertex> vertex(String jobId, String taskId) {
        vertexReads++;
        return read(delegate.vertex(jobId, taskId));
    }

    @Override
    public void putVertex(String jobId, TaskVertex vertex) {
        vertexWrites++;
        bytesWritten += size(vertex);
        delegate.putVertex(jobId, vertex);
    }

    @Override
    public void removeVertex(String jobId, String taskId) {
        vertexRemovals++;
        delegate.removeVertex(jobId, taskId);
    }

    @Override
    public Optional<dev.cairn.events.TaskFinished> finished(String jobId, String taskId, int subtaskIndex) {
        attemptReads++;
        return read(delegate.finished(jobId, taskId, subtaskIndex));
    }

    @Override
    public void putFinished(dev.cairn.events.TaskFinished finished) {
        attemptWrites++;
        delegate.putFinished(finished);
    }

    @Override
    public void removeFinished(String jobId, String taskId, int subtaskIndex) {
        attemptWrites++;
        delegate.removeFinished(jobId, taskId, subtaskIndex);
    }

    @Override
    public Optional<String> attempt(String jobId, String taskId, int subtaskIndex) {
        attemptReads++;
        return read(delegate.attempt(jobId, taskId, subtaskIndex));
    }

    @Override
    public void putAttempt(String jobId, String taskId, int subtaskIndex, String attemptId) {
        attemptWrites++;
        bytesWritten += size(attemptId);
        delegate.putAttempt(jobId, taskId, subtaskIndex, attemptId);
    }

    @Override
    public Optional<CheckpointAcknowledged> ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        ackReads++;
        return read(delegate.ack(jobId, checkpointId, taskId, subtaskIndex));
    }

    @Override
    public void putAck(CheckpointAcknowledged ack) {
        ackWrites++;
        bytesWritten += size(ack);
        delegate.putAck(ack);
    }

    @Override
    public List<CheckpointAcknowledged> acks(String jobId, long checkpointId) {
        scans++;
        List<CheckpointAcknowledged> acks = delegate.acks(jobId, checkpointId);
        acks.forEach(ack -> bytesRead += size(ack));
        return acks;
    }

    @Override
    public void removeAcks(String jobId, long checkpointId) {
        scans++;
        delegate.removeAcks(jobId, checkpointId);
    }

    @Override
    public Optional<RetainedCheckpoints> retained(String jobId) {
        retainedReads++;
        return read(delegate.retained(jobId));
    }

    @Override
    public void putRetained(RetainedCheckpoints retained) {
        retainedWrites++;
        bytesWritten += size(retained);
        delegate.putRetained(retained);
    }

    @Override
    public CheckpointProgress progress(String jobId, long checkpointId) {
        progressReads++;
        return delegate.progress(jobId, checkpointId);
    }

    @Override
    public Optional<CheckpointSummary> summary(String jobId, long checkpointId) {
        summaryReads++;
        return read(delegate.summary(jobId, checkpointId));
    }

    @Override
    public void putSummary(String jobId, CheckpointSummary summary) {
        summaryWrites++;
        bytesWritten += size(summary);
        delegate.putSummary(jobId, summary);
    }

    @Override
    public void removeSummary(String jobId, long checkpointId) {
        summaryWrites++;
        delegate.removeSummary(jobId, checkpointId);
    }

    @Override
    public Optional<RequestRecord> request(String jobId, String requestId) {
        requestReads++;
        return read(delegate.request(jobId, requestId));
    }

    @Override
    public void putRequest(String jobId, RequestRecord request) {
        requestWrites++;
        bytesWritten += size(request);
        delegate.putRequest(jobId, request);
    }

    @Override
    public void removeRequest(String jobId, String requestId) {
        requestWrites++;
        delegate.removeRequest(jobId, requestId);
    }

    @Override
    public Optional<RequestIndex> requestIndex(String jobId) {
        requestReads++;
        return read(delegate.requestIndex(jobId));
    }

    @Override
    public void putRequestIndex(RequestIndex index) {
        requestWrites++;
        bytesWritten += size(index);
        delegate.putRequestIndex(index);
    }

    private <T> Optional<T> read(Optional<T> value) {
        value.ifPresent(v -> bytesRead += size(v));
        return value;
    }

    /** The Avro binary size of a record, the UTF-8 size of a string. */
    private static long size(Object value) {
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8).length;
        }
        SpecificRecord record = (SpecificRecord) value;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        try {
            new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.size();
    }
}
