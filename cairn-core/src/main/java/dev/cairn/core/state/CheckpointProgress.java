package dev.cairn.core.state;

import dev.cairn.events.CheckpointAcknowledged;

/**
 * What the accepted acks of one checkpoint add up to. It is derived from the acks, never stored: the acks are
 * the only record an ack writes (see {@link CoordinatorState#progress}).
 *
 * @param acksReceived accepted acks
 * @param stateSizeBytes the sum of their state sizes
 * @param latestAckMs the latest of their timestamps, 0 when there is none (see {@link #latestAckTimestampMs})
 */
public record CheckpointProgress(int acksReceived, long stateSizeBytes, long latestAckMs) {

    /** No ack yet. */
    public static final CheckpointProgress NONE = new CheckpointProgress(0, 0, 0);

    /** The latest of the acks' timestamps, {@code null} when there is no ack. */
    public Long latestAckTimestampMs() {
        return acksReceived == 0 ? null : latestAckMs;
    }

    /** This progress with one more accepted ack. */
    public CheckpointProgress plus(CheckpointAcknowledged ack) {
        long latest = acksReceived == 0 ? ack.getTimestampMs() : Math.max(latestAckMs, ack.getTimestampMs());
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
