package dev.cairn.coordinator.streams;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a decision whose records would not fit in a Kafka record, before anything of it is applied:
 * Kafka would refuse them, and under exactly-once a refused send aborts the transaction, so the same input
 * would fail again and again. Only the events whose size grows with the job (a trigger's plan, a
 * completion's subtask states) are measured, once, so an ordinary ack costs nothing here.
 */
final class OutputSizeGuard {

    private static final Logger LOG = LoggerFactory.getLogger(OutputSizeGuard.class);

    /**
     * The control envelope carries the same event under another union index: a varint a byte or two longer
     * at most, so measuring the journal's encoding with this slack covers both.
     */
    private static final int ENVELOPE_SLACK_BYTES = 16;

    private final int maxRecordBytes;
    private final AvroEventSerde<JournalEnvelope> journal = CairnSerdes.journal();
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

    /** @throws CommandFailedException naming the first event that is too large */
    void check(String jobId, List<SpecificRecord> events) {
        for (SpecificRecord event : events) {
            if (event instanceof CheckpointTriggered || event instanceof CheckpointCompleted) {
                int size = journal.serialize("size-check", new JournalEnvelope(event)).length;
                if (size + ENVELOPE_SLACK_BYTES > maxRecordBytes) {
                    throw new CommandFailedException("OUTPUT_TOO_LARGE", "the " + event.getSchema().getName()
                            + " of job " + jobId + " would be " + size + " bytes, more than the limit of "
                            + maxRecordBytes + "; nothing was applied (fewer subtasks, shorter ids or locations "
                            + "keep it smaller)", null);
                }
            }
        }
    }

    /**
     * The retained checkpoints as they fit in one record: all of them, or the newest that fit (the newest
     * alone always does, since its completion passed {@link #check}). Restoring needs the newest.
     */
    RetainedCheckpoints fitting(RetainedCheckpoints retained) {
        List<CheckpointCompleted> checkpoints = retained.getCheckpoints();
        int from = 0;
        while (from < checkpoints.size() - 1 && this.retained.serialize("size-check",
                new RetainedCheckpoints(retained.getJobId(), checkpoints.subList(from, checkpoints.size()))).length
                > maxRecordBytes) {
            from++;
        }
        if (from > 0) {
            LOG.warn("The {} retained checkpoints of job {} exceed {} bytes together; sending the newest {} only",
                    checkpoints.size(), retained.getJobId(), maxRecordBytes, checkpoints.size() - from);
            return new RetainedCheckpoints(retained.getJobId(), List.copyOf(checkpoints.subList(from, checkpoints.size())));
        }
        return retained;
    }
}
