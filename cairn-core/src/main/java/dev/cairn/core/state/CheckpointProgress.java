package dev.cairn.core.state;

import dev.cairn.events.CheckpointAcknowledged;

/**
 * What the accepted acks of one checkpoint add up to. It is derived from the acks, never stored: the acks are
 * the only record an ack writes (see {@link CoordinatorState#progress}).
 *
 * @param acksReceived accepted acks
 * @param stateSizeBytes the sum of their state sizes
 * @param latestAckTimestampMs the latest of their timestamps, {@code null} when there is none
 */
public record CheckpointProgress(int acksReceived, long stateSizeBytes, Long latestAckTimestampMs) {

    /** No ack yet. */
    public static final CheckpointProgress NONE = new CheckpointProgress(0, 0, null);

    /** This progress with one more accepted ack. */
    public CheckpointProgress plus(CheckpointAcknowledged ack) {
        long latest = latestAckTimestampMs == null ? ack.getTimestampMs()
                : Math.max(latestAckTimestampMs, ack.getTimestampMs());
        return new CheckpointProgress(acksReceived + 1, stateSizeBytes + ack.getStateHandle().getSizeBytes(), latest);
    }

    /** The progress of these acks. */
    public static CheckpointProgress of(Iterable<CheckpointAcknowledged> acks) {
        CheckpointProgress progress = NONE;
        for (CheckpointAcknowledged ack : acks) {
            progress = progress.plus(ack);
        }
        return progress;
    }
}
