package dev.cairn.core.state;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.RetainedCheckpoints;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The completed checkpoint store: keeps the {@code retained} newest restore points, newest last. The newest is the
 * job's restore point. Besides its own checkpoints it holds the savepoint that stopped the job (as Flink keeps a
 * stop-with-savepoint's savepoint for recovery) and a point a user restored the job from; those the coordinator does
 * not own (a savepoint, a point restored in NO_CLAIM mode) are never reported subsumed, so no worker discards them.
 */
public final class Retention {

    private Retention() {
    }

    /** The retained list after adding {@code completed}, keeping at most {@code retained} entries. */
    public static RetainedCheckpoints retain(Optional<RetainedCheckpoints> current, CheckpointCompleted completed,
            int retained) {
        List<CheckpointCompleted> checkpoints = new ArrayList<>(entries(current));
        checkpoints.removeIf(c -> c.getCheckpointId() == completed.getCheckpointId());
        checkpoints.add(completed);
        return bounded(completed.getJobId(), checkpoints, retained, current.map(RetainedCheckpoints::getChosenRestoreId)
                .orElse(-1L), current.map(RetainedCheckpoints::getRestoreMode).orElse(null),
                current.map(RetainedCheckpoints::getChosenAfterId).orElse(-1L));
    }

    /**
     * The retained list once a user restored the job from {@code point}: the point is the newest entry.
     *
     * @param lastUsedId the newest checkpoint id the job had used by then
     */
    public static RetainedCheckpoints restoreFrom(Optional<RetainedCheckpoints> current, CheckpointCompleted point,
            RestoreMode mode, int retained, long lastUsedId) {
        List<CheckpointCompleted> checkpoints = new ArrayList<>(entries(current));
        checkpoints.removeIf(c -> c.getCheckpointId() == point.getCheckpointId());
        checkpoints.add(point);
        return bounded(point.getJobId(), checkpoints, retained, point.getCheckpointId(), mode, lastUsedId);
    }

    /** The newest owned checkpoint id that adding one more checkpoint would subsume, -1 when none. */
    public static long lastSubsumedId(Optional<RetainedCheckpoints> current, int retained) {
        List<CheckpointCompleted> checkpoints = entries(current);
        int subsumed = checkpoints.size() + 1 - Math.max(1, retained);
        for (int i = Math.min(subsumed, checkpoints.size()) - 1; i >= 0; i--) {
            if (owned(current.get(), checkpoints.get(i))) {
                return checkpoints.get(i).getCheckpointId();
            }
        }
        return -1;
    }

    /**
     * Whether the coordinator owns a retained entry: its own checkpoint, unless restored in NO_CLAIM mode, or any
     * point restored in CLAIM mode (Flink: RestoreMode). Savepoints otherwise belong to the user.
     */
    public static boolean owned(RetainedCheckpoints retained, CheckpointCompleted entry) {
        boolean chosen = entry.getCheckpointId() == retained.getChosenRestoreId();
        if (chosen && retained.getRestoreMode() == RestoreMode.CLAIM) {
            return true;
        }
        if (chosen && retained.getRestoreMode() == RestoreMode.NO_CLAIM) {
            return false;
        }
        return entry.getType() == CheckpointType.CHECKPOINT;
    }

    /**
     * How a job falls back to {@code fallback} when its restore point cannot be restored: a savepoint, and a point a
     * user restored in NO_CLAIM mode, stay the user's (NO_CLAIM); the coordinator's own checkpoints stay its own.
     */
    public static RestoreMode fallbackMode(Optional<RetainedCheckpoints> retained, CheckpointCompleted fallback) {
        if (retained.isPresent() && !owned(retained.get(), fallback)) {
            return RestoreMode.NO_CLAIM;
        }
        return fallback.getType() == CheckpointType.SAVEPOINT ? RestoreMode.NO_CLAIM : RestoreMode.CLAIM;
    }

    /** The newest entry: the job's restore point. */
    public static Optional<CheckpointCompleted> newest(Optional<RetainedCheckpoints> retained) {
        List<CheckpointCompleted> checkpoints = entries(retained);
        return checkpoints.isEmpty() ? Optional.empty() : Optional.of(checkpoints.get(checkpoints.size() - 1));
    }

    /** Whether the newest entry is a point a user chose to restore from (no checkpoint completed since). */
    public static boolean newestIsChosen(Optional<RetainedCheckpoints> retained) {
        return newest(retained).filter(c -> c.getCheckpointId() == retained.get().getChosenRestoreId()).isPresent();
    }

    /** Whether the job was restored in NO_CLAIM mode and no checkpoint completed since: the next one is full. */
    public static boolean fullCheckpointNext(Optional<RetainedCheckpoints> retained) {
        return newestIsChosen(retained) && retained.get().getRestoreMode() == RestoreMode.NO_CLAIM;
    }

    /** The ids {@code before} retained that {@code after} no longer does. */
    public static List<Long> dropped(Optional<RetainedCheckpoints> before, RetainedCheckpoints after) {
        Set<Long> kept = new HashSet<>();
        after.getCheckpoints().forEach(c -> kept.add(c.getCheckpointId()));
        List<Long> dropped = new ArrayList<>();
        for (CheckpointCompleted c : entries(before)) {
            if (!kept.contains(c.getCheckpointId())) {
                dropped.add(c.getCheckpointId());
            }
        }
        return dropped;
    }

    /** Whether {@code id} is one of the retained entries. */
    public static boolean contains(Optional<RetainedCheckpoints> retained, long id) {
        return entries(retained).stream().anyMatch(c -> c.getCheckpointId() == id);
    }

    private static RetainedCheckpoints bounded(String jobId, List<CheckpointCompleted> checkpoints, int retained,
            long chosenId, RestoreMode mode, long chosenAfterId) {
        while (checkpoints.size() > Math.max(1, retained)) {
            checkpoints.remove(0);
        }
        boolean chosenKept = checkpoints.stream().anyMatch(c -> c.getCheckpointId() == chosenId);
        return RetainedCheckpoints.newBuilder()
                .setJobId(jobId)
                .setCheckpoints(checkpoints)
                .setChosenRestoreId(chosenKept ? chosenId : -1)
                .setRestoreMode(chosenKept ? mode : null)
                .setChosenAfterId(chosenKept ? chosenAfterId : -1)
                .build();
    }

    private static List<CheckpointCompleted> entries(Optional<RetainedCheckpoints> retained) {
        return retained.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
    }
}
