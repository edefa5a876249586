package dev.cairn.core.decide;

import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.StateDiscarded;
import java.util.ArrayList;
import java.util.List;

/**
 * Aborting pending checkpoints and dropping queued requests: each abort is a {@code CheckpointAborted}, the
 * discard of the states its subtasks had acknowledged ({@link Discards}), the requester's failed outcome, whose
 * failure {@link CheckpointFailureManager} then weighs; each drop is a {@code RequestDequeued} and the request's
 * failure.
 */
final class Aborts {

    private Aborts() {
    }

    /** A job-level failure: the coordinator's own decision, or a report that names no failing task. */
    static void abort(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message) {
        abort(d, jobId, pending, reason, message, false);
    }

    /** A task declined the checkpoint. */
    static void abortByTask(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message) {
        abort(d, jobId, pending, reason, message, true);
    }

    private static void abort(Decision d, String jobId, PendingCheckpoint pending, CheckpointFailureReason reason,
            String message, boolean byTask) {
        List<StateDiscarded> discards = Discards.ofAbort(d, jobId, pending, message);
        d.emit(CheckpointAborted.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(pending.getCheckpointId())
                .setType(pending.getType())
                .setReason(reason)
                .setMessage(message)
                .setLatestCompletedId(d.job(jobId).getLatestCompletedId())
                .setTimestampMs(d.now)
                .setOptions(pending.getOptions())
                .build());
        Discards.emit(d, discards);
        if (pending.getRequestId() != null) {
            d.outcome(jobId, pending.getRequestId(), RequestStatus.FAILED, reason, message, pending.getCheckpointId());
        }
        CheckpointFailureManager.handle(d, jobId, pending, reason, message, byTask);
    }

    static void abortAllPending(Decision d, String jobId, CheckpointFailureReason reason, String message) {
        for (PendingCheckpoint pending : new ArrayList<>(d.job(jobId).getPending())) {
            abort(d, jobId, pending, reason, message);
        }
    }

    static void drop(Decision d, String jobId, QueuedRequest request, CheckpointFailureReason reason,
            String message) {
        d.emit(RequestDequeued.newBuilder()
                .setJobId(jobId)
                .setSequence(request.getSequence())
                .setRequestId(request.getRequestId())
                .setPeriodic(request.getPeriodic())
                .setReason(reason)
                .setMessage(message)
                .setTimestampMs(d.now)
                .build());
        CheckpointRequestDecider.failed(d, jobId, request, reason, message);
    }

    static void dropAllQueued(Decision d, String jobId, CheckpointFailureReason reason, String message) {
        for (QueuedRequest request : new ArrayList<>(d.job(jobId).getQueue())) {
            drop(d, jobId, request, reason, message);
        }
    }
}
