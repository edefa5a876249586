package dev.cairn.sidecar.core;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.sidecar.core.SidecarAction.DiscardState;
import dev.cairn.sidecar.hook.DiscardedState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which of the states the coordinator discarded are this sidecar's to hand to its worker for deletion, each once:
 * <ul>
 *   <li>of an {@link AckDiscarded} naming this attempt (job, task, subtask, attempt), or this participant (its name
 *       as task and attempt, subtask -1), with status UNKNOWN, DISCARDED or LATE and a state handle: the handle's
 *       location and each shared object it still lists. Everyone ignores a DUPLICATE (its handle is the one
 *       accepted). At start-up, a discarded ack of any attempt of this subtask counts: the worker of an attempt
 *       that ended may not have deleted its states;</li>
 *   <li>of a {@link StateDiscarded}: every object naming this subtask (job, task, subtask; any attempt's, the
 *       state belongs to the subtask) or this participant, with the reason (SUBSUMED, ABORTED, DISPOSED); after a
 *       rescale down, also the objects of the subtasks the task no longer has whose index modulo the task's
 *       parallelism is this subtask's, so that every object keeps exactly one subtask to delete it; other objects
 *       are ignored.</li>
 * </ul>
 * It remembers the newest {@value #REMEMBERED} states it handed out, by checkpoint and location, and hands none of
 * them out again, whether the subtask finished or the job is stopping or not. No Kafka, no clock; not thread-safe.
 */
final class DiscardedStates {

    /** How many discarded states are remembered, to hand each to the worker once. */
    static final int REMEMBERED = 1024;

    private static final Set<AckDiscardStatus> TO_DELETE =
            EnumSet.of(AckDiscardStatus.UNKNOWN, AckDiscardStatus.DISCARDED, AckDiscardStatus.LATE);

    private final SidecarIdentity identity;
    private final int parallelism;
    private final RecentKeys<String> handedOut = new RecentKeys<>(REMEMBERED);

    /**
     * @param parallelism the task's parallelism as the restore point gave it; 0 when unknown (then only this
     *     subtask's own objects are its to delete)
     */
    DiscardedStates(SidecarIdentity identity, int parallelism) {
        this.identity = identity;
        this.parallelism = parallelism;
    }


    /** What to hand the worker for a discarded ack ({@link #ofAck}), but not what it was handed already. */
    List<SidecarAction> onAck(AckDiscarded discard, boolean anyAttempt) {
        return handOut(ofAck(identity, discard, anyAttempt));
    }

    /** What to hand the worker of a checkpoint's discarded state ({@link #ofCheckpoint}), but not twice. */
    List<SidecarAction> onCheckpoint(StateDiscarded discarded) {
        return handOut(ofCheckpoint(identity, discarded));
    }

    private List<SidecarAction> handOut(List<DiscardedState> states) {
        List<SidecarAction> actions = new ArrayList<>(states.size());
        for (DiscardedState state : states) {
            if (handedOut.add(state.checkpointId() + "\u0000" + state.location())) {
                actions.add(new DiscardState(state));
            }
        }
        return actions;
    }

    /**
     * The states to delete for a discarded ack: its handle's own object and each shared object the handle still
     * lists (the coordinator leaves only those the subtask wrote and nothing refers to). None unless the ack is
     * addressed to this sidecar, its status is UNKNOWN, DISCARDED or LATE (a DUPLICATE's handle is the one accepted)
     * and it carries a handle.
     *
     * @param anyAttempt whether an ack of any attempt of this sidecar's subtask counts, not only this attempt's: at
     *     start-up, for the acks of attempts that ended before this one
     */
    private static List<DiscardedState> ofAck(SidecarIdentity identity, AckDiscarded discard, boolean anyAttempt) {
        if (!isAddressedTo(identity, discard, anyAttempt) || !TO_DELETE.contains(discard.getStatus())
                || discard.getStateHandle() == null) {
            return List.of();
        }
        StateHandle handle = discard.getStateHandle();
        List<DiscardedState> states = new ArrayList<>(1 + handle.getShared().size());
        states.add(DiscardedState.ofAck(discard.getCheckpointId(), handle.getLocation(), handle.getSizeBytes(), false,
                discard.getStatus(), discard.getMessage()));
        for (SharedState shared : handle.getShared()) {
            states.add(DiscardedState.ofAck(discard.getCheckpointId(), shared.getLocation(), shared.getSizeBytes(),
                    true, discard.getStatus(), discard.getMessage()));
        }
        return states;
    }

    /**
     * The objects of a checkpoint's discarded state that name this sidecar: for a task, its job, task and subtask
     * (any attempt: the state belongs to the subtask); for a participant, its job and name.
     */
    private List<DiscardedState> ofCheckpoint(SidecarIdentity identity, StateDiscarded discarded) {
        if (!identity.jobId().equals(discarded.getJobId())) {
            return List.of();
        }
        List<DiscardedState> states = new ArrayList<>();
        for (DiscardedObject object : discarded.getObjects()) {
            if (names(identity, object)) {
                states.add(DiscardedState.ofCheckpoint(discarded.getCheckpointId(), object.getLocation(),
                        object.getSizeBytes(), object.getShared(), discarded.getReason(), discarded.getMessage()));
            }
        }
        return states;
    }

    private boolean names(SidecarIdentity identity, DiscardedObject object) {
        if (identity instanceof TaskAttempt attempt) {
            int subtask = object.getSubtaskIndex();
            boolean gone = parallelism > 0 && subtask >= parallelism;
            return object.getParticipant() == null && attempt.taskId().equals(object.getTaskId())
                    && (attempt.subtaskIndex() == subtask || gone && subtask % parallelism == attempt.subtaskIndex());
        }
        return ((Participant) identity).name().equals(object.getParticipant());
    }

    /**
     * Whether a discarded ack names this sidecar: a task's attempt by job, task, subtask and attempt (any attempt of
     * the subtask with {@code anyAttempt}); a participant by job and its name as task and attempt, with subtask index
     * {@value CairnTopics#PARTICIPANT_SUBTASK_INDEX} (a participant has neither subtask nor attempt).
     */
    private static boolean isAddressedTo(SidecarIdentity identity, AckDiscarded discard, boolean anyAttempt) {
        if (identity instanceof TaskAttempt attempt) {
            return attempt.jobId().equals(discard.getJobId()) && attempt.taskId().equals(discard.getTaskId())
                    && attempt.subtaskIndex() == discard.getSubtaskIndex()
                    && (anyAttempt || attempt.attemptId().equals(discard.getAttemptId()));
        }
        Participant participant = (Participant) identity;
        return participant.jobId().equals(discard.getJobId()) && participant.name().equals(discard.getTaskId())
                && discard.getSubtaskIndex() == CairnTopics.PARTICIPANT_SUBTASK_INDEX
                && participant.name().equals(discard.getAttemptId());
    }
}
