package dev.cairn.coordinator.streams;

import dev.cairn.core.events.SidecarNotifications;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Encodes a decision's journal and control records and refuses the decision when one of them cannot be encoded or
 * would not fit in a Kafka record, before anything of it is applied: Kafka would refuse them, and under
 * exactly-once a refused send aborts the transaction, so the same input would fail again and again. Each record is
 * encoded once, here, and sent as these bytes, so measuring every record costs nothing extra. The completed topic's
 * records are made to fit where they are decided, in the core.
 */
final class OutputSizeGuard {

    private final int maxRecordBytes;
    private final AvroEventSerde<JournalEnvelope> journal = CairnSerdes.journal();
    private final AvroEventSerde<ControlEnvelope> control = CairnSerdes.control();

    /** @param maxRecordBytes the largest value the coordinator sends (below the topics' max.message.bytes) */
    OutputSizeGuard(int maxRecordBytes) {
        this.maxRecordBytes = maxRecordBytes;
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
}
