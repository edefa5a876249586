package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantState;
import java.util.Optional;

/**
 * Answers of the job's coordinator-side participants (Flink: master hooks and operator coordinators, which
 * snapshot before the tasks are triggered). A checkpoint of a job with participants starts with
 * {@code ParticipantsTriggered}; each named participant answers once; when the last one has acknowledged, the
 * tasks are triggered. A participant's decline aborts the checkpoint with the reason it gives: a job-level
 * failure, as Flink treats a master hook's or coordinator's failure. A participant that does not answer in time
 * lets the checkpoint expire. Answers for checkpoints that are not waiting for that participant are rejected.
 */
public final class Participants {

    private Participants() {
    }

    /**
     * Whether the checkpoint's tasks are triggered: at once for a job without participants, else in the decision
     * that records the last participant's answer (or the checkpoint is aborted there).
     */
    public static boolean tasksTriggered(PendingCheckpoint pending) {
        return pending.getParticipantStates().size() >= pending.getParticipants().size();
    }

    static void acknowledge(Decision d, Command command, ParticipantAcknowledged ack) {
        String jobId = ack.getJobId();
        Optional<PendingCheckpoint> pending = waiting(d, command, jobId, ack.getCheckpointId(), ack.getParticipant());
        if (pending.isEmpty()) {
            return;
        }
        if (answered(pending.get(), ack.getParticipant())) {
            return;
        }
        d.emit(ack);
        PendingCheckpoint now = CheckpointEvolver.pending(d.job(jobId), ack.getCheckpointId()).orElseThrow();
        if (tasksTriggered(now)) {
            Triggers.triggerTasks(d, jobId, now);
            // triggering the tasks may end the checkpoint at once (nothing to wait for, or a task not running)
            RequestQueue.run(d, jobId);
        }
    }

    static void decline(Decision d, Command command, ParticipantDeclined decline) {
        String jobId = decline.getJobId();
        Optional<PendingCheckpoint> pending =
                waiting(d, command, jobId, decline.getCheckpointId(), decline.getParticipant());
        if (pending.isEmpty()) {
            return;
        }
        if (answered(pending.get(), decline.getParticipant())) {
            d.reject(jobId, command, "participant " + decline.getParticipant() + " already acknowledged checkpoint "
                    + decline.getCheckpointId() + " of job " + jobId);
            return;
        }
        d.emit(decline);
        CheckpointFailureReason reason = decline.getReason() != null ? decline.getReason()
                : CheckpointFailureReason.CHECKPOINT_DECLINED;
        Aborts.abort(d, jobId, pending.get(), reason, "Participant " + decline.getParticipant() + " declined checkpoint "
                + decline.getCheckpointId() + " of job " + jobId + ": " + decline.getMessage());
        RequestQueue.run(d, jobId);
    }

    /** The pending checkpoint that asked this participant and has not triggered its tasks yet, else a rejection. */
    private static Optional<PendingCheckpoint> waiting(Decision d, Command command, String jobId, long checkpointId,
            String participant) {
        Optional<PendingCheckpoint> pending = CheckpointEvolver.pending(d.job(jobId), checkpointId);
        if (pending.isEmpty() || tasksTriggered(pending.get())) {
            d.reject(jobId, command, "checkpoint " + checkpointId + " of job " + jobId
                    + " is not waiting for its participants");
            return Optional.empty();
        }
        if (!pending.get().getParticipants().contains(participant)) {
            d.reject(jobId, command, participant + " is not a participant of checkpoint " + checkpointId
                    + " of job " + jobId);
            return Optional.empty();
        }
        return pending;
    }

    private static boolean answered(PendingCheckpoint pending, String participant) {
        for (ParticipantState state : pending.getParticipantStates()) {
            if (state.getParticipant().equals(participant)) {
                return true;
            }
        }
        return false;
    }
}
