package dev.cairn.core.state;

import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.events.CheckpointType;
import java.util.Comparator;

/**
 * The order of a job's request queue, head first (Flink: CheckpointRequestDecider's comparator):
 * savepoints before checkpoints, forced before non-forced, manual before periodic, then older
 * (arrival time, then arrival sequence).
 */
public final class RequestOrder {

    /** Head first. */
    public static final Comparator<QueuedRequest> HEAD_FIRST = Comparator
            .comparing((QueuedRequest r) -> r.getType() != CheckpointType.SAVEPOINT)
            .thenComparing(r -> !r.getForce())
            .thenComparing(QueuedRequest::getPeriodic)
            .thenComparingLong(QueuedRequest::getTimestampMs)
            .thenComparingLong(QueuedRequest::getSequence);

    private RequestOrder() {
    }
}
