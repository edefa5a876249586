package dev.cairn.sidecar.hook;

import java.util.List;

/**
 * The job's restore point's state for this sidecar's subtask, read from {@code cairn.completed}: the job's latest
 * completed checkpoint, the savepoint that stopped it, or a point a user chose to restore the job from.
 *
 * @param checkpointId the completed checkpoint (or savepoint)
 * @param location the subtask's state handle location
 * @param sizeBytes the state's size
 * @param chosen whether a user chose this point on purpose (a restore from a savepoint or an older checkpoint):
 *     a worker whose output is ahead of it goes back to it, saying what it drops; a worker whose output is ahead
 *     of a point nobody chose refuses to restore, since restoring would repeat or lose results
 * @param shared the shared objects the subtask's state is made of besides its own object, as its snapshot named
 *     them (an incremental snapshot); empty for a self-contained state and for a participant's
 */
public record RestorePoint(long checkpointId, String location, long sizeBytes, boolean chosen,
        List<SharedObject> shared) {

    /** Keeps an unmodifiable copy of {@code shared} ({@code null} reads as empty). */
    public RestorePoint {
        shared = shared == null ? List.of() : List.copyOf(shared);
    }

    /** A restore point without shared objects. */
    public RestorePoint(long checkpointId, String location, long sizeBytes, boolean chosen) {
        this(checkpointId, location, sizeBytes, chosen, List.of());
    }

    /** A restore point nobody chose, without shared objects: the job's own latest completion. */
    public RestorePoint(long checkpointId, String location, long sizeBytes) {
        this(checkpointId, location, sizeBytes, false);
    }
}
