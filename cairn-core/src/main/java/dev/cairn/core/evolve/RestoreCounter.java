package dev.cairn.core.evolve;

import dev.cairn.coordinator.state.CheckpointCounts;
import dev.cairn.coordinator.state.LatestRestore;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointCompleted;

/**
 * Counts a job's restores as Flink's checkpoint statistics count them ({@code counts.restored}, and
 * {@code latest.restored}): each point the job was restored from, whether a user chose it (a {@code JobRestored}:
 * a restore, or the resumption of a rescale) or the coordinator fell back to it (a {@code RestorePointRejected}).
 */
final class RestoreCounter {

    private RestoreCounter() {
    }

    /** The job (if it exists) was restored from {@code point} at {@code timestampMs}. */
    static void restored(CoordinatorState state, String jobId, CheckpointCompleted point, long timestampMs) {
        CheckpointEvolver.update(state, jobId, job -> {
            CheckpointCounts counts = job.getCounts();
            job.setCounts(CheckpointCounts.newBuilder(counts).setRestored(counts.getRestored() + 1).build());
            job.setLatestRestore(new LatestRestore(point.getCheckpointId(), timestampMs, point.getType(),
                    point.getStorageLocation()));
        });
    }
}
