package dev.cairn.coordinator.streams;

import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Told of every decision the {@link CoordinatorProcessor} has applied and forwarded: the job, its events in
 * order, and the processor's wall-clock time. Used for metrics; it must not throw, block or keep the list.
 * Called on the stream threads (several at once when there are several), and again for the same events when
 * an aborted transaction is reprocessed.
 */
@FunctionalInterface
public interface DecisionListener {

    /** Listens to nothing: the default of every topology built without a listener. */
    DecisionListener NONE = (jobId, events, nowMs) -> { };

    /**
     * @param jobId the job the command was for
     * @param events the decided events, in order; never empty
     * @param nowMs the wall-clock time the decision was made at, epoch milliseconds
     */
    void decided(String jobId, List<SpecificRecord> events, long nowMs);

    /**
     * A rebuild of one partition's stores from the journal is under way ({@link StoreRebuild}).
     *
     * @param folded journal records folded so far
     * @param remaining records left to read, about
     */
    default void rebuilding(int partition, long folded, long remaining) {
    }

    /** A rebuild of one partition's stores from the journal has ended: {@code records} folded in {@code millis}. */
    default void rebuilt(int partition, long records, long millis) {
    }

    /**
     * A snapshot of one partition's fold was written ({@link SnapshotMaker}).
     *
     * @param journalOffset it reflects the journal below this offset
     * @param createdAtMs the time it was made for, epoch milliseconds
     * @param millis how long folding and writing it took
     */
    default void snapshotWritten(int partition, long journalOffset, long createdAtMs, long millis) {
    }

    /** A snapshot of one partition could not be made or written (the next interval tries again). */
    default void snapshotFailed(int partition) {
    }
}
