package dev.cairn.sidecar.hook;

import java.util.List;

/**
 * The job's restore point's state for this sidecar's subtask, read from {@code cairn.completed}: the job's latest
 * completed checkpoint, the savepoint that stopped it, or a point a user chose to restore the job from.
 *
 * <p>With the parallelism the point was taken with, a subtask reads its own state: {@link #location}, or the one entry
 * of {@link #states}. After a rescale ({@link #rescaled()}) it reads every entry of {@link #states}, the states the
 * coordinator handed to it, and keeps of their keyed state the key groups of {@link #keyGroups} only; its own
 * {@link #location} is then {@code null}, and {@link #states} may be empty (a new subtask with nothing to read).
 * Of a state that is not keyed it takes what it needs: a {@link OperatorStateMode#UNION} state comes to every new
 * subtask, a {@link OperatorStateMode#SPLIT_DISTRIBUTE} state to one.
 *
 * <p>A point of a coordinator written before rescaling existed says nothing of the task's parallelism (0 for all
 * three, {@code null} key groups, never {@link #rescaled()}); its {@link #states} is the own state alone, its
 * {@link RestoredState#fromSubtask} -1.
 *
 * @param checkpointId the completed checkpoint (or savepoint)
 * @param location the subtask's own state handle location; {@code null} after a rescale
 * @param sizeBytes the own state's size (0 after a rescale)
 * @param chosen whether a user chose this point on purpose (a restore from a savepoint or an older checkpoint):
 *     a worker whose output is ahead of it goes back to it, saying what it drops; a worker whose output is ahead
 *     of a point nobody chose refuses to restore, since restoring would repeat or lose results
 * @param shared the shared objects the own state is made of besides its own object, as its snapshot named them (an
 *     incremental snapshot); empty for a self-contained state, for a participant's, and after a rescale
 * @param parallelism the task's parallelism now; 0 when the coordinator did not say (a release before rescaling)
 * @param previousParallelism the task's parallelism when the point was taken; equal to {@code parallelism} unless
 *     rescaled
 * @param maxParallelism the task's max parallelism (its number of key groups); 0 when the coordinator did not say
 * @param keyGroups the key groups this subtask owns now; {@code null} when the coordinator did not say
 * @param states every state this subtask reads: its own, or after a rescale those handed to it
 */
public record RestorePoint(long checkpointId, String location, long sizeBytes, boolean chosen,
        List<SharedObject> shared, int parallelism, int previousParallelism, int maxParallelism,
        KeyGroupRange keyGroups, List<RestoredState> states) {

    /** Keeps unmodifiable copies of the lists ({@code null} reads as empty). */
    public RestorePoint {
        shared = shared == null ? List.of() : List.copyOf(shared);
        states = states == null ? List.of() : List.copyOf(states);
    }

    /** A restore point of the subtask's own state, its task's parallelism unknown (as before rescaling existed). */
    public RestorePoint(long checkpointId, String location, long sizeBytes, boolean chosen,
            List<SharedObject> shared) {
        this(checkpointId, location, sizeBytes, chosen, shared, 0, 0, 0, null,
                location == null ? List.of() : List.of(new RestoredState(-1, location, sizeBytes, shared)));
    }

    /** A restore point without shared objects. */
    public RestorePoint(long checkpointId, String location, long sizeBytes, boolean chosen) {
        this(checkpointId, location, sizeBytes, chosen, List.of());
    }

    /** A restore point nobody chose, without shared objects: the job's own latest completion. */
    public RestorePoint(long checkpointId, String location, long sizeBytes) {
        this(checkpointId, location, sizeBytes, false);
    }

    /** Whether the task's parallelism changed since the point was taken: the subtask reads {@link #states}. */
    public boolean rescaled() {
        return parallelism != previousParallelism;
    }
}
