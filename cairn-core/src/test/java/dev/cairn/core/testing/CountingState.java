package dev.cairn.core.testing;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.events.CheckpointAcknowledged;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Delegating state that counts every read and write per table (and of acks), and the Avro-encoded bytes of the
 * values read and written: what a store-backed state would decode and encode.
 */
public final class CountingState implements CoordinatorState {

    static {
        // measuring sizes writes the state classes with Avro, which trusts Cairn's classes once a serde exists
        dev.cairn.events.serde.AvroEventSerde.currentOnly(dev.cairn.coordinator.state.JobState.class);
    }


    private final CoordinatorState delegate;
    private final Map<StateTable<?, ?>, Integer> reads = new HashMap<>();
    private final Map<StateTable<?, ?>, Integer> writes = new HashMap<>();
    private final Map<StateTable<?, ?>, Integer> removals = new HashMap<>();
    public int ackReads;
    public int ackWrites;
    public int progressReads;
    /** Prefix scans: {@link #acks} and {@link #removeAcks}. */
    public int scans;
    public long bytesRead;
    public long bytesWritten;

    public CountingState(CoordinatorState delegate) {
        this.delegate = delegate;
    }

    /** Point reads of one table. */
    public int reads(StateTable<?, ?> table) {
        return reads.getOrDefault(table, 0);
    }

    /** Writes to one table. */
    public int writes(StateTable<?, ?> table) {
        return writes.getOrDefault(table, 0);
    }

    /** Removals from one table. */
    public int removals(StateTable<?, ?> table) {
        return removals.getOrDefault(table, 0);
    }

    /** Point reads of every kind. */
    public int reads() {
        return sum(reads) + ackReads + progressReads;
    }

    /** Writes and removals of every kind. */
    public int writes() {
        return sum(writes) + sum(removals) + ackWrites;
    }

    private static int sum(Map<StateTable<?, ?>, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public <K, V> Optional<V> get(StateTable<K, V> table, K key) {
        reads.merge(table, 1, Integer::sum);
        return read(delegate.get(table, key));
    }

    @Override
    public <K, V> void put(StateTable<K, V> table, K key, V value) {
        writes.merge(table, 1, Integer::sum);
        bytesWritten += size(value);
        delegate.put(table, key, value);
    }

    @Override
    public <K, V> void remove(StateTable<K, V> table, K key) {
        removals.merge(table, 1, Integer::sum);
        delegate.remove(table, key);
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
    public CheckpointProgress progress(String jobId, long checkpointId) {
        progressReads++;
        return delegate.progress(jobId, checkpointId);
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
