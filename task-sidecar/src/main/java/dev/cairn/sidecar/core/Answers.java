package dev.cairn.sidecar.core;

import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishDecline;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantAck;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantDecline;
import dev.cairn.sidecar.hook.SnapshotResult;

/** What a sidecar answers, by who it stands for: a task attempt's ack and decline, or a participant's. Pure. */
final class Answers {

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
}
