package dev.cairn.kit.sink;

import java.util.List;
import java.util.OptionalLong;

/**
 * What a sink subtask writes when it starts, decided from its restored snapshot, its commit marker (the newest
 * checkpoint whose epochs it committed, read back from the commits topic) and whether a user chose the restore
 * point. Pure.
 *
 * <p>After the plan is carried out the marker equals the restored checkpoint (or -1 on a fresh start), so that a
 * later restore compares the marker with checkpoints of this run only:
 * <ul>
 *   <li>{@link Verdict#COMMIT_PENDING}: the marker M is older than the restored checkpoint N (the crash came after
 *       snapshot N but before its commit, or the commit failed): the snapshot's epochs after M are committed now,
 *       with marker N. Epochs up to M are in the output already (a completion of an earlier checkpoint may have
 *       committed some of them after snapshot N was taken), so they are left out;</li>
 *   <li>{@link Verdict#ALREADY_COMMITTED}: the marker is N: nothing is written;</li>
 *   <li>{@link Verdict#OUTPUT_AHEAD_OF_CHOSEN_POINT}: the marker is newer than N and a user chose N on purpose (a
 *       restore from an older checkpoint or savepoint): the output already holds the epochs after N, which upstream
 *       replays, so they will appear twice; nothing can be taken back from a Kafka topic. The marker is set back
 *       to N;</li>
 *   <li>{@link Verdict#REFUSED_OUTPUT_AHEAD}: the marker is newer than N and nobody chose N: the job's restore
 *       point is behind what this sink already committed, so it is stale (read during a leader change, say).
 *       Restoring would write the epochs after N twice; the sink refuses, and nothing is written. The plan is
 *       never carried out;</li>
 *   <li>{@link Verdict#FRESH}: no snapshot: nothing is committed, and a marker of an earlier run is reset to
 *       -1.</li>
 * </ul>
 *
 * @param verdict how the marker compared
 * @param markerBefore the marker read back, -1 when there was none
 * @param restored the checkpoint restored, -1 on a fresh start
 * @param toCommit the epochs to write now, oldest first
 * @param markerAfter the marker once the plan is carried out
 */
public record RestorePlan(Verdict verdict, long markerBefore, long restored, List<Epoch> toCommit,
        long markerAfter) {

    /** How the commit marker compared with the restored checkpoint. */
    public enum Verdict {
        /** Nothing restored. */
        FRESH,
        /** The marker is older: the snapshot's later epochs are committed now. */
        COMMIT_PENDING,
        /** The marker is the restored checkpoint: nothing to do. */
        ALREADY_COMMITTED,
        /** The marker is newer, and the point was chosen: the marker goes back, replayed epochs appear twice. */
        OUTPUT_AHEAD_OF_CHOSEN_POINT,
        /** The marker is newer, and nobody chose the point: the sink refuses to restore. */
        REFUSED_OUTPUT_AHEAD
    }

    public RestorePlan {
        toCommit = List.copyOf(toCommit);
    }

    /** The plan of a fresh start, given the marker read back. */
    public static RestorePlan fresh(OptionalLong marker) {
        return new RestorePlan(Verdict.FRESH, marker.orElse(-1), -1, List.of(), -1);
    }

    /**
     * The plan of a restore from {@code state}, given the marker read back and whether a user chose the restore
     * point ({@link dev.cairn.sidecar.hook.RestorePoint#chosen()}).
     */
    public static RestorePlan restore(SinkState state, OptionalLong marker, boolean chosen) {
        long before = marker.orElse(-1);
        long restored = state.checkpointId();
        if (before == restored) {
            return new RestorePlan(Verdict.ALREADY_COMMITTED, before, restored, List.of(), restored);
        }
        if (before > restored) {
            return chosen
                    ? new RestorePlan(Verdict.OUTPUT_AHEAD_OF_CHOSEN_POINT, before, restored, List.of(), restored)
                    : new RestorePlan(Verdict.REFUSED_OUTPUT_AHEAD, before, restored, List.of(), before);
        }
        List<Epoch> missing = state.pending().stream().filter(epoch -> epoch.checkpointId() > before).toList();
        return new RestorePlan(Verdict.COMMIT_PENDING, before, restored, missing, restored);
    }

    /** Whether the sink refuses to restore: nothing may be written, and the sink stops. */
    public boolean refused() {
        return verdict == Verdict.REFUSED_OUTPUT_AHEAD;
    }

    /** Whether carrying out the plan writes anything (records or a new marker); never when it is refused. */
    public boolean writes() {
        return !refused() && (markerAfter != markerBefore || !toCommit.isEmpty());
    }
}
