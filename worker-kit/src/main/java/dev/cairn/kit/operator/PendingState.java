package dev.cairn.kit.operator;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An operator subtask's state as taken at a checkpoint's barriers, until its snapshot is written: the state file's
 * header (positions, generation; no entries) and the plan of its key groups ({@link IncrementalSnapshots}): the groups
 * to write, encoded then, and the objects of the confirmed checkpoint it refers to for the others.
 */
record PendingState(OperatorState header, IncrementalSnapshots.Plan plan) {

    PendingState {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(plan, "plan");
    }

    /** A state with no keyed state at all (tests). */
    static PendingState empty(OperatorState header) {
        return new PendingState(header, new IncrementalSnapshots.Plan(header.checkpointId(),
                new long[KeyGroups.COUNT], Map.of(), List.of()));
    }
}
