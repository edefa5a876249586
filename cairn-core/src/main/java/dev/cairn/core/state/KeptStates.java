package dev.cairn.core.state;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The states that checkpoints the coordinator keeps refer to, which no worker may be told to delete. Kafka delivers
 * at least once, so an ack the coordinator accepted may arrive again at any time, also after its checkpoint
 * completed (Flink's RPC never delivers one twice): the state handle of a discarded ack is handed out for clean-up
 * only when no pending or retained checkpoint, no kept savepoint (a participant's state included), and no finished
 * subtask's final state, refers to its location. A retained checkpoint whose accepted acks are no longer stored
 * (they left the history) is taken to refer to every state of its own id: nothing is handed out that might be part of
 * it. A checkpoint of a job removed under the same id ({@link #ofRemovedJob}) keeps its states too: the removed
 * job's checkpoints and savepoints stay the user's.
 */
public final class KeptStates {

    private KeptStates() {
    }

    /** Why a subtask's handle must be kept, naming the checkpoint (or final state) that refers to it; else empty. */
    public static Optional<String> whyKept(CoordinatorState state, JobState job, CheckpointAcknowledged ack) {
        StateHandle handle = ack.getStateHandle();
        if (handle == null) {
            return Optional.empty();
        }
        String jobId = ack.getJobId();
        Optional<String> removed = ofRemovedJob(state, jobId, ack.getCheckpointId());
        if (removed.isPresent()) {
            return removed;
        }
        for (long id : keptIds(state, job)) {
            Optional<CheckpointAcknowledged> accepted = state.ack(jobId, id, ack.getTaskId(), ack.getSubtaskIndex());
            if (accepted.isPresent() && sameLocation(accepted.get().getStateHandle(), handle)) {
                return Optional.of("checkpoint " + id + " refers to it");
            }
            if (accepted.isEmpty() && id == ack.getCheckpointId() && isRetained(state, jobId, id)
                    && state.acks(jobId, id).isEmpty()) {
                return Optional.of("retained checkpoint " + id + " may refer to it");
            }
        }
        Optional<TaskFinished> finished = state.finished(jobId, ack.getTaskId(), ack.getSubtaskIndex());
        if (finished.isPresent() && sameLocation(finished.get().getFinalState(), handle)) {
            return Optional.of("the final state of the finished subtask is it");
        }
        return Optional.empty();
    }

    /**
     * Why a participant's handle must be kept, naming the retained checkpoint, kept savepoint or pending checkpoint
     * that holds it; else empty.
     */
    public static Optional<String> whyKept(CoordinatorState state, JobState job, String participant,
            StateHandle handle) {
        if (handle == null) {
            return Optional.empty();
        }
        for (CheckpointCompleted retained : retained(state, job.getJobId())) {
            if (holds(retained.getParticipantStates(), participant, handle)) {
                return Optional.of("retained checkpoint " + retained.getCheckpointId() + " refers to it");
            }
        }
        for (CheckpointCompleted savepoint : state.savepoints(job.getJobId())) {
            if (holds(savepoint.getParticipantStates(), participant, handle)) {
                return Optional.of("savepoint " + savepoint.getCheckpointId() + " refers to it");
            }
        }
        for (PendingCheckpoint pending : job.getPending()) {
            if (holds(pending.getParticipantStates(), participant, handle)) {
                return Optional.of("checkpoint " + pending.getCheckpointId() + " refers to it");
            }
        }
        return Optional.empty();
    }

    private static boolean holds(List<ParticipantState> states, String participant, StateHandle handle) {
        for (ParticipantState kept : states) {
            if (kept.getParticipant().equals(participant) && sameLocation(kept.getState(), handle)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why the states of checkpoint {@code checkpointId} must be kept when a job removed under {@code jobId} used its
     * id (a late ack of the removed job, arriving after the id was registered again); else empty. Cairn no longer
     * knows which of the removed job's checkpoints and savepoints refer to a state, so it hands none out.
     */
    public static Optional<String> ofRemovedJob(CoordinatorState state, String jobId, long checkpointId) {
        return state.removed(jobId).filter(removed -> checkpointId < removed.getNextCheckpointId())
                .map(removed -> "checkpoint " + checkpointId + " belongs to the job removed under this id (request "
                        + removed.getRequestId() + "), whose states stay the user's");
    }

    /** Whether {@code ack} equals an accepted one: same checkpoint, subtask, attempt and state handle. */
    public static boolean repeatsAccepted(CoordinatorState state, CheckpointAcknowledged ack) {
        return state.ack(ack.getJobId(), ack.getCheckpointId(), ack.getTaskId(), ack.getSubtaskIndex())
                .filter(accepted -> accepted.getAttemptId().equals(ack.getAttemptId())
                        && Objects.equals(accepted.getStateHandle(), ack.getStateHandle()))
                .isPresent();
    }

    /** The ids of the job's pending and retained checkpoints and of its kept savepoints. */
    private static List<Long> keptIds(CoordinatorState state, JobState job) {
        List<Long> ids = new ArrayList<>();
        job.getPending().forEach(p -> ids.add(p.getCheckpointId()));
        retained(state, job.getJobId()).forEach(c -> ids.add(c.getCheckpointId()));
        state.savepoints(job.getJobId()).forEach(s -> ids.add(s.getCheckpointId()));
        return ids;
    }

    private static boolean isRetained(CoordinatorState state, String jobId, long id) {
        return retained(state, jobId).stream().anyMatch(c -> c.getCheckpointId() == id);
    }

    private static List<CheckpointCompleted> retained(CoordinatorState state, String jobId) {
        return state.retained(jobId).map(RetainedCheckpoints::getCheckpoints).orElse(List.of());
    }

    private static boolean sameLocation(StateHandle kept, StateHandle handle) {
        return kept != null && kept.getLocation().equals(handle.getLocation());
    }
}
