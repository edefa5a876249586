package dev.cairn.core.audit;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.StateDiscarded;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit's check of a {@link StateDiscarded}, against the state its checkpoint's end left: no shared object it
 * lists is still counted, and no subtask state it lists is the state of that subtask in a pending or retained
 * checkpoint or a kept savepoint.
 */
final class DiscardCheck {

    private DiscardCheck() {
    }

    /** What is wrong with the discard, if anything. */
    static Optional<String> check(StateDiscarded discard, CoordinatorState state) {
        String jobId = discard.getJobId();
        List<Long> kept = keptIds(state, jobId);
        for (DiscardedObject object : discard.getObjects()) {
            if (object.getShared() && state.sharedState(jobId, object.getLocation()).isPresent()) {
                return Optional.of("checkpoint " + discard.getCheckpointId() + " discards shared object "
                        + object.getLocation() + ", which a kept checkpoint still refers to");
            }
            if (!object.getShared() && object.getTaskId() != null) {
                for (long id : kept) {
                    Optional<CheckpointAcknowledged> ack = state.ack(jobId, id, object.getTaskId(),
                            object.getSubtaskIndex());
                    if (ack.isPresent() && ack.get().getStateHandle() != null
                            && ack.get().getStateHandle().getLocation().equals(object.getLocation())) {
                        return Optional.of("checkpoint " + discard.getCheckpointId() + " discards "
                                + object.getLocation() + ", the state of task " + object.getTaskId() + " subtask "
                                + object.getSubtaskIndex() + " in kept checkpoint " + id);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static List<Long> keptIds(CoordinatorState state, String jobId) {
        List<Long> ids = new ArrayList<>();
        state.job(jobId).map(JobState::getPending).orElse(List.of())
                .forEach((PendingCheckpoint p) -> ids.add(p.getCheckpointId()));
        state.retained(jobId).map(RetainedCheckpoints::getCheckpoints).orElse(List.of())
                .forEach((CheckpointCompleted c) -> ids.add(c.getCheckpointId()));
        state.savepoints(jobId).forEach(s -> ids.add(s.getCheckpointId()));
        return ids;
    }
}
