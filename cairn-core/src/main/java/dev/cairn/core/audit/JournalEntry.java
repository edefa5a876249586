package dev.cairn.core.audit;

import org.apache.avro.specific.SpecificRecord;

/**
 * One record of the journal as the audit reads it: where it is ({@code partition}, {@code offset}), the record's
 * timestamp and key, and the decoded event, or, for a record that does not decode, why not.
 *
 * @param partition the journal partition
 * @param offset the record's offset in that partition
 * @param timestampMs the record's timestamp
 * @param key the record key (the job id), {@code null} when the record has none
 * @param event the decoded event, {@code null} when the record did not decode
 * @param decodeError why the record did not decode, {@code null} when it did
 */
public record JournalEntry(int partition, long offset, long timestampMs, String key, SpecificRecord event,
        String decodeError) {

    /** A record that decoded. */
    public static JournalEntry of(int partition, long offset, long timestampMs, String key, SpecificRecord event) {
        return new JournalEntry(partition, offset, timestampMs, key, event, null);
    }

    /** A record that did not decode. */
    public static JournalEntry undecodable(int partition, long offset, long timestampMs, String key, String error) {
        return new JournalEntry(partition, offset, timestampMs, key, null, error);
    }

    /** Whether the record decoded. */
    public boolean decoded() {
        return event != null;
    }

    /** {@code partition/offset}, as the audit names a record. */
    public String position() {
        return partition + "/" + offset;
    }
}
