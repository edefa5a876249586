package dev.cairn.coordinator.streams;

import dev.cairn.core.rules.SidecarNotifications;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Encodes a decision's journal and control records and refuses the decision when one of them cannot be encoded or
 * would not fit in a Kafka record, before anything of it is applied: Kafka would refuse them, and under
 * exactly-once a refused send aborts the transaction, so the same input would fail again and again. Each record is
 * encoded once, here, and sent as these bytes, so measuring every record costs nothing extra. The completed topic's
 * records are made to fit: the restore parts by their number of states, the retained checkpoints by
 * {@link #fitting}.
 */
final class OutputSizeGuard {

    private static final Logger LOG = LoggerFactory.getLogger(OutputSizeGuard.class);

    private final int maxRecordBytes;
    private final AvroEventSerde<JournalEnvelope> journal = CairnSerdes.journal();
    private final AvroEventSerde<ControlEnvelope> control = CairnSerdes.control();
    private final AvroEventSerde<RetainedCheckpoints> retained = CairnSerdes.retained();

    /** @param maxRecordBytes the largest value the coordinator sends (below the topics' max.message.bytes) */
    OutputSizeGuard(int maxRecordBytes) {
        this.maxRecordBytes = requireValidLimit(maxRecordBytes);
    }

    /** @throws IllegalArgumentException when the limit is too small for any real record */
    static int requireValidLimit(int maxRecordBytes) {
        if (maxRecordBytes < 1024) {
            throw new IllegalArgumentException("the record size limit must be at least 1024 bytes, was "
                    + maxRecordBytes);
        }
        return maxRecordBytes;
    }

    /** One event with the bytes of its journal record, and of its control record when sidecars are told of it. */
    record Encoded(SpecificRecord event, byte[] journal, byte[] control) {
    }

    /**
     * The journal and control records of {@code events}, in order.
     *
     * @throws CommandFailedException naming the first event that cannot be encoded or is too large
     */
    List<Encoded> encode(String jobId, List<SpecificRecord> events) {
        List<Encoded> encoded = new ArrayList<>(events.size());
        for (SpecificRecord event : events) {
            byte[] journalBytes = encode(jobId, event, journal, new JournalEnvelope(event));
            byte[] controlBytes = SidecarNotifications.isForSidecars(event)
                    ? encode(jobId, event, control, new ControlEnvelope(event)) : null;
            encoded.add(new Encoded(event, journalBytes, controlBytes));
        }
        return encoded;
    }

    private <T extends SpecificRecord> byte[] encode(String jobId, SpecificRecord event, AvroEventSerde<T> serde,
            T envelope) {
        byte[] bytes;
        try {
            bytes = serde.serialize(null, envelope);
        } catch (RuntimeException e) {
            throw new CommandFailedException("OUTPUT_NOT_ENCODABLE", "the " + event.getSchema().getName() + " of job "
                    + jobId + " cannot be encoded: " + e.getMessage() + "; nothing was applied", e);
        }
        if (bytes.length > maxRecordBytes) {
            throw new CommandFailedException("OUTPUT_TOO_LARGE", "the " + event.getSchema().getName()
                    + " of job " + jobId + " would be " + bytes.length + " bytes, more than the limit of "
                    + maxRecordBytes + "; nothing was applied (fewer subtasks, shorter ids or locations "
                    + "keep it smaller)", null);
        }
        return bytes;
    }

    /**
     * The retained checkpoints as they fit in one record: all of them, or the newest that fit (the newest
     * alone always does, since its completion passed {@link #encode}). Restoring needs the newest.
     */
    RetainedCheckpoints fitting(RetainedCheckpoints retained) {
        List<CheckpointCompleted> checkpoints = retained.getCheckpoints();
        int from = 0;
        while (from < checkpoints.size() - 1 && this.retained.serialize("size-check",
                withCheckpoints(retained, checkpoints.subList(from, checkpoints.size()))).length
                > maxRecordBytes) {
            from++;
        }
        if (from > 0) {
            LOG.warn("The {} retained checkpoints of job {} exceed {} bytes together; sending the newest {} only",
                    checkpoints.size(), retained.getJobId(), maxRecordBytes, checkpoints.size() - from);
            return withCheckpoints(retained, List.copyOf(checkpoints.subList(from, checkpoints.size())));
        }
        return retained;
    }

    private static RetainedCheckpoints withCheckpoints(RetainedCheckpoints retained, List<CheckpointCompleted> kept) {
        return RetainedCheckpoints.newBuilder(retained).setCheckpoints(kept).build();
    }
}
