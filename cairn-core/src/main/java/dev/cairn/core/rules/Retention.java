package dev.cairn.core.rules;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RetainedCheckpoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The completed checkpoint store: keeps the {@code retained} newest checkpoints, newest last. */
public final class Retention {

    private Retention() {
    }

    /** The retained list after adding {@code completed}, keeping at most {@code retained} entries. */
    public static RetainedCheckpoints retain(Optional<RetainedCheckpoints> current, CheckpointCompleted completed,
            int retained) {
        List<CheckpointCompleted> checkpoints = new ArrayList<>(
                current.map(RetainedCheckpoints::getCheckpoints).orElse(List.of()));
        checkpoints.add(completed);
        while (checkpoints.size() > retained) {
            checkpoints.remove(0);
        }
        return RetainedCheckpoints.newBuilder()
                .setJobId(completed.getJobId())
                .setCheckpoints(checkpoints)
                .build();
    }

    /** The newest checkpoint id that adding one more checkpoint would subsume, -1 when none. */
    public static long lastSubsumedId(Optional<RetainedCheckpoints> current, int retained) {
        List<CheckpointCompleted> checkpoints = current.map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
        int subsumed = checkpoints.size() + 1 - retained;
        return subsumed > 0 ? checkpoints.get(subsumed - 1).getCheckpointId() : -1;
    }

}
