package dev.cairn.kit.sink;

import java.util.List;
import java.util.Objects;

/**
 * What a sink subtask's snapshot holds: the epochs not yet committed when the snapshot of a checkpoint was taken,
 * oldest first, the newest being the epoch the snapshot closed (when it had records).
 *
 * @param sinkId the sink's id (part of its transactional id and of its commit marker's key)
 * @param subtask the sink subtask
 * @param checkpointId the checkpoint of the snapshot
 * @param pending the uncommitted epochs, ascending by checkpoint id, none after {@code checkpointId}
 */
public record SinkState(String sinkId, int subtask, long checkpointId, List<Epoch> pending) {

    public SinkState {
        Objects.requireNonNull(sinkId, "sinkId");
        pending = List.copyOf(Objects.requireNonNull(pending, "pending"));
        long previous = Long.MIN_VALUE;
        for (Epoch epoch : pending) {
            if (epoch.checkpointId() <= previous || epoch.checkpointId() > checkpointId) {
                throw new IllegalArgumentException("the pending epochs of a snapshot of checkpoint " + checkpointId
                        + " must ascend and not pass it, but epoch " + epoch.checkpointId() + " follows " + previous);
            }
            previous = epoch.checkpointId();
        }
    }

    /** The number of records in all pending epochs. */
    public long recordCount() {
        return pending.stream().mapToLong(epoch -> epoch.records().size()).sum();
    }
}
