package dev.cairn.sidecar.core;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.sidecar.core.SidecarAction.DiscardState;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishDecline;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantAck;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantDecline;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** What a sidecar answers, by who it stands for: a task attempt's ack and decline, or a participant's. Pure. */
final class Answers {

    private static final Set<AckDiscardStatus> TO_DELETE =
            EnumSet.of(AckDiscardStatus.UNKNOWN, AckDiscardStatus.DISCARDED, AckDiscardStatus.LATE);

    private Answers() {
    }

    /** The acknowledgement of a snapshot; the start delay and elapsed time count for tasks only. */
    static SidecarAction ack(SidecarIdentity identity, long checkpointId, SnapshotResult result, long startDelayMs,
            long elapsedMs, long nowMs) {
        if (identity instanceof Participant participant) {
            return new PublishParticipantAck(AckEvents.participantAck(participant, checkpointId, result, nowMs));
        }
        return new PublishAck(AckEvents.ack((TaskAttempt) identity, checkpointId, result, startDelayMs, elapsedMs,
                nowMs));
    }

    /** The decline of a checkpoint. */
    static SidecarAction decline(SidecarIdentity identity, long checkpointId, AckEvents.Failure failure, long nowMs) {
        if (identity instanceof Participant participant) {
            return new PublishParticipantDecline(AckEvents.participantDecline(participant, checkpointId, failure,
                    nowMs));
        }
        return new PublishDecline(AckEvents.decline((TaskAttempt) identity, checkpointId, failure, nowMs));
    }

    /** Why a snapshot failed, as the identity's decline says it. */
    static AckEvents.Failure failureOf(SidecarIdentity identity, Throwable error) {
        return identity instanceof Participant ? AckEvents.participantFailureOf(error) : AckEvents.failureOf(error);
    }

    /**
     * The state to delete for a discarded ack: present when it names this attempt (job, task, subtask, attempt),
     * its status is UNKNOWN, DISCARDED or LATE, and it carries a handle.
     */
    static Optional<DiscardState> discard(SidecarIdentity identity, AckDiscarded discard) {
        if (!isAddressedTo(identity, discard) || !TO_DELETE.contains(discard.getStatus())
                || discard.getStateHandle() == null) {
            return Optional.empty();
        }
        StateHandle handle = discard.getStateHandle();
        return Optional.of(new DiscardState(new DiscardedState(discard.getCheckpointId(), handle.getLocation(),
                handle.getSizeBytes(), discard.getStatus(), discard.getMessage())));
    }

    /**
     * Whether a discard names this sidecar: a task's attempt by job, task, subtask and attempt; a participant by
     * job and its name as task and attempt, with subtask index {@value CairnTopics#PARTICIPANT_SUBTASK_INDEX} (a
     * participant has neither subtask nor attempt).
     */
    private static boolean isAddressedTo(SidecarIdentity identity, AckDiscarded discard) {
        if (identity instanceof TaskAttempt attempt) {
            return attempt.jobId().equals(discard.getJobId()) && attempt.taskId().equals(discard.getTaskId())
                    && attempt.subtaskIndex() == discard.getSubtaskIndex()
                    && attempt.attemptId().equals(discard.getAttemptId());
        }
        Participant participant = (Participant) identity;
        return participant.jobId().equals(discard.getJobId()) && participant.name().equals(discard.getTaskId())
                && discard.getSubtaskIndex() == CairnTopics.PARTICIPANT_SUBTASK_INDEX
                && participant.name().equals(discard.getAttemptId());
    }
}
