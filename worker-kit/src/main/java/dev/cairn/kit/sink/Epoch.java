package dev.cairn.kit.sink;

import java.util.List;
import java.util.Objects;

/**
 * The records a sink subtask received between two snapshots: epoch N holds what arrived after the snapshot
 * before checkpoint N and up to the snapshot of checkpoint N, in arrival order. It is written to the output
 * when checkpoint N (or a later one) completes.
 *
 * @param checkpointId the checkpoint whose snapshot closed the epoch
 * @param records its records, in order (an unmodifiable copy)
 */
public record Epoch(long checkpointId, List<SinkRecord> records) {

    public Epoch {
        Objects.requireNonNull(records, "records");
        records = List.copyOf(records);
    }
}
