package dev.cairn.coordinator.streams;

import java.util.Optional;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * A stream task's stores cannot be rebuilt ({@link StoreRebuild}): records were deleted from the head of its journal
 * partition (by retention, compaction or {@code kafka-delete-records.sh}) that no snapshot covers: its first offset is
 * above the newest snapshot's position (above 0 without a snapshot), and a fold of what is left would silently lose
 * the jobs whose history they held. Nothing is folded. No retry mends it (the
 * records do not come back), so the coordinator stops the instance instead of replacing the stream thread, and its
 * command exits with the message.
 */
public final class JournalHeadDeletedException extends StreamsException {

    private static final long serialVersionUID = 1L;

    private final String topic;
    private final int partition;
    private final long firstOffset;

    /**
     * @param topic       the journal topic
     * @param partition   the partition whose head was deleted
     * @param firstOffset the first offset it still holds, above {@code from}
     * @param from        where the fold had to start: the newest snapshot's journal position, 0 without one
     */
    JournalHeadDeletedException(String topic, int partition, long firstOffset, long from) {
        this(topic, partition, firstOffset, "Cannot rebuild the stores of partition " + partition + " from " + topic
                + ": the partition's first offset is " + firstOffset + ", so "
                + (firstOffset - from == 1 ? "its record at offset " + from + " was"
                        : "its records at offsets " + from + " to " + (firstOffset - 1) + " were")
                + " deleted (by retention, compaction or kafka-delete-records.sh)"
                + (from == 0 ? " and no snapshot holds them" : " after the newest snapshot (at offset " + from + ")")
                + ", and a fold of the rest would silently lose the jobs whose history they held. Nothing was "
                + "folded, and this instance stops: bring the deleted records back (from a backup or a mirror of "
                + topic + ") before starting it again (docs/operations.md, Start-up checks)");
    }

    private JournalHeadDeletedException(String topic, int partition, long firstOffset, String message) {
        super(message);
        this.topic = topic;
        this.partition = partition;
        this.firstOffset = firstOffset;
    }

    /**
     * The journal partition ends before the newest snapshot's position: it is not the journal the snapshot was
     * folded from (the topic was deleted and created again) or it lost records the snapshot reflects (an unclean
     * leader election), and neither a fold of it onto the snapshot nor one without it would give its jobs back.
     *
     * @param end the partition's end offset, below {@code snapshotOffset}
     */
    static JournalHeadDeletedException behindSnapshot(String topic, int partition, long end, long snapshotOffset) {
        return new JournalHeadDeletedException(topic, partition, end, "Cannot rebuild the stores of partition "
                + partition + " from " + topic + ": the partition ends at offset " + end + ", before the newest "
                + "snapshot of it (at offset " + snapshotOffset + "), so the journal was deleted and created again "
                + "after the snapshot, or lost records it reflects (an unclean leader election). Nothing was folded, "
                + "and this instance stops: bring the journal's records back, or, to start over on a new journal, "
                + "delete the snapshots topic as well (docs/operations.md, Snapshots and journal retention)");
    }

    /** The journal topic. */
    public String topic() {
        return topic;
    }

    /** The partition whose head was deleted. */
    public int partition() {
        return partition;
    }

    /** The first offset the partition still holds. */
    public long firstOffset() {
        return firstOffset;
    }

    /** This exception among {@code error} and its causes, e.g. as Kafka Streams wraps a failed processor's. */
    public static Optional<JournalHeadDeletedException> in(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof JournalHeadDeletedException deleted) {
                return Optional.of(deleted);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return Optional.empty();
    }
}
