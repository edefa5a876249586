package dev.cairn.core.rules;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import java.util.Optional;

/** Looks up one of a job's pending checkpoints; the decider and the evolver both ask. */
public final class PendingCheckpoints {

    private PendingCheckpoints() {
    }

    /** The job's pending checkpoint with that id, or empty when it is not (or no longer) pending. */
    public static Optional<PendingCheckpoint> find(JobState job, long checkpointId) {
        for (PendingCheckpoint pending : job.getPending()) {
            if (pending.getCheckpointId() == checkpointId) {
                return Optional.of(pending);
            }
        }
        return Optional.empty();
    }
}
