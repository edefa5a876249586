package dev.cairn.core.state;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import java.util.Optional;

/** Questions about a job's pending checkpoints; the decider, the evolver and the views ask them. */
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

    /**
     * Whether the checkpoint's tasks are triggered: at once for a job without participants, else in the decision
     * that records the last participant's answer (or the checkpoint is aborted there).
     */
    public static boolean tasksTriggered(PendingCheckpoint pending) {
        return pending.getParticipantStates().size() >= pending.getParticipants().size();
    }
}
