package dev.cairn.coordinator.streams;

import java.util.Map;
import org.apache.avro.message.SchemaStore;
import org.apache.kafka.common.header.Headers;

/**
 * Where a stream task reads its journal partition from when it rebuilds its stores ({@link StoreRebuild}): the
 * committed records of one partition of {@code cairn.journal}, from the first (or a snapshot's position) to the end at
 * the time of reading, in offset order. {@link KafkaJournalSource} reads them from Kafka; topology tests hand in
 * their own.
 */
@FunctionalInterface
public interface JournalSource {

    /** A journal with no records: every rebuild finds nothing to fold (topology tests without a journal). */
    JournalSource EMPTY = (appConfigs, topic, partition, fromOffset, sink) -> { };

    /**
     * Where a fingerprint of no shipped schema version is looked up ({@code null}: nowhere): the schemas topic, so
     * that a release rolled back to rebuilds from records a newer release wrote with fields it does not know.
     */
    default SchemaStore schemas() {
        return null;
    }

    /** One record of the journal partition. */
    @FunctionalInterface
    interface RecordSink {
        /**
         * @param offset the record's offset
         * @param headers its headers (the input it was decided on, when there was one)
         * @param value its value, the encoded {@code JournalEnvelope}
         */
        void accept(long offset, Headers headers, byte[] value);

        /**
         * Told, before the first record, the first offset the partition still holds (its log start offset): above 0
         * when records were deleted from its head. Sources that cannot tell do not call it.
         */
        default void start(long firstOffset) {
        }

        /** Told, before the first record, the offset reading stops at (the partition's end when it began). */
        default void end(long endOffset) {
        }
    }

    /**
     * How many records {@link #read} would hand on, at most (the partition's end offset less its first); -1 when it
     * cannot tell. Decides whether a rebuild folds at once or in the background ({@link StoreRebuild#inline}).
     */
    default long records(Map<String, Object> appConfigs, String topic, int partition) {
        return 0;
    }

    /**
     * Hands every committed record of {@code topic}'s {@code partition} from {@code fromOffset} on to {@code sink},
     * oldest first, up to the partition's end when reading began.
     *
     * @param appConfigs the Kafka Streams configuration of the application (where Kafka is, how to reach it)
     * @param fromOffset the first offset to hand on (0: from the partition's first record; a snapshot's position)
     */
    void read(Map<String, Object> appConfigs, String topic, int partition, long fromOffset, RecordSink sink);
}
