package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.events.SnapshotKinds;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.Retention;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobStatus;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.StateDiscarded;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pending checkpoint whose every expected ack is in (Flink: CheckpointCoordinator.completePendingCheckpoint):
 * it completes, the retained checkpoints it pushes out are discarded ({@link Discards}), older pending checkpoints
 * are subsumed (not by a savepoint), and a stop-with-savepoint ends the job (FINISHED). The completion carries the
 * count and total size of the subtask states (the accepted acks and the final states of subtasks that had finished),
 * not the states, and the participants' states in spec order.
 */
final class Completions {

    private Completions() {
    }

    static void complete(Decision d, String jobId, PendingCheckpoint pending, CheckpointProgress progress) {
        JobState job = d.job(jobId);
        boolean savepoint = pending.getType() == CheckpointType.SAVEPOINT;
        Optional<RetainedCheckpoints> retained = d.state.retained(jobId);
        long lastSubsumed = savepoint ? -1
                : Retention.lastSubsumedId(retained, job.getConfig().getRetained());
        CheckpointCompleted completed = CheckpointCompleted.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(pending.getCheckpointId())
                .setType(pending.getType())
                .setTriggerTimestampMs(pending.getTriggerTimestampMs())
                .setCompletionTimestampMs(d.now)
                .setStorageLocation(pending.getStorageLocation())
                .setSubtaskStates(List.of())
                .setSubtaskCount(progress.acksReceived() + pending.getFinishedSubtasks())
                .setTotalSizeBytes(progress.stateSizeBytes() + pending.getFinishedStateBytes())
                .setLastSubsumedId(lastSubsumed)
                .setParticipantStates(inSpecOrder(pending))
                .setOptions(pending.getOptions())
                .setParallelism(d.state.spec(jobId).map(StateAssignment::parallelismOf).orElse(List.of()))
                .build();
        List<StateDiscarded> discards = Discards.ofCompletion(d, completed, SnapshotKinds.isRestorePoint(completed));
        d.emit(completed);
        Discards.emit(d, discards);
        boolean rescaling = Rescales.waitsFor(job, pending);
        if (pending.getRequestId() != null && !rescaling) {
            d.outcome(jobId, pending.getRequestId(), RequestStatus.COMPLETED, null, null, pending.getCheckpointId());
        }
        if (SnapshotKinds.isSynchronous(pending.getOptions())) {
            JobStatuses.change(d, jobId, JobStatus.FINISHED, 0, "job " + jobId + " stopped with savepoint "
                    + pending.getCheckpointId());
            if (rescaling) {
                Rescales.afterStop(d, jobId, completed);
            }
            return;
        }
        if (savepoint) {
            return;
        }
        for (PendingCheckpoint older : new ArrayList<>(d.job(jobId).getPending())) {
            if (older.getCheckpointId() < pending.getCheckpointId() && older.getType() != CheckpointType.SAVEPOINT) {
                Aborts.abort(d, jobId, older, CheckpointFailureReason.CHECKPOINT_SUBSUMED, "Checkpoint "
                        + older.getCheckpointId() + " of job " + jobId + " subsumed by checkpoint "
                        + pending.getCheckpointId());
            }
        }
    }

    /**
     * The states the participants returned, in the spec's order; a participant that returned none is left out
     * (Flink: CheckpointCoordinator#snapshotMasterState keeps only the hooks' non-null states).
     */
    private static List<ParticipantState> inSpecOrder(PendingCheckpoint pending) {
        List<ParticipantState> ordered = new ArrayList<>(pending.getParticipantStates().size());
        for (String participant : pending.getParticipants()) {
            for (ParticipantState state : pending.getParticipantStates()) {
                if (state.getParticipant().equals(participant) && state.getState() != null) {
                    ordered.add(state);
                }
            }
        }
        return ordered;
    }
}
