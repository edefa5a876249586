package dev.cairn.sidecar.hook;

import java.util.List;
import java.util.Objects;

/**
 * One state a restoring subtask reads: its own state of the restore point, or, after a rescale, one of the states of
 * the restore point's subtasks that the coordinator handed to it.
 *
 * @param fromSubtask the subtask of the restore point that wrote it; -1 when the coordinator did not say (one written
 *     before rescaling existed, whose point holds only the subtask's own state)
 * @param location the state's location
 * @param sizeBytes its size
 * @param shared the shared objects it is made of besides its own object (an incremental snapshot)
 * @param keyGroups the key groups it holds, as its snapshot declared them; {@code null}: not keyed
 * @param operatorStateMode how it is handed out when not keyed, as its snapshot declared it; {@code null}: not declared
 */
public record RestoredState(int fromSubtask, String location, long sizeBytes, List<SharedObject> shared,
        KeyGroupRange keyGroups, OperatorStateMode operatorStateMode) {

    /** Keeps an unmodifiable copy of {@code shared} ({@code null} reads as empty). */
    public RestoredState {
        Objects.requireNonNull(location, "location");
        shared = shared == null ? List.of() : List.copyOf(shared);
    }

    /** A state that declares neither key groups nor a mode. */
    public RestoredState(int fromSubtask, String location, long sizeBytes, List<SharedObject> shared) {
        this(fromSubtask, location, sizeBytes, shared, null, null);
    }
}
