package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.KeptStates;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.core.state.SharedStates;
import dev.cairn.core.state.TaskVertices;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the sidecars report: acknowledgements and declines (task attempts: {@link TaskAttempts}) (Flink: the
 * receiveAcknowledgeMessage / receiveDeclineMessage / failUnacknowledgedPendingCheckpointsFor paths
 * of CheckpointCoordinator, and PendingCheckpoint.acknowledgeTask).
 */
final class TaskMessages {

    private TaskMessages() {
    }

    /**
     * An ack that cannot be accepted is discarded and its state handle reported for clean-up, whatever the reason
     * (Flink discards the subtask state of every ack it does not accept): a checkpoint never triggered or already
     * ended, a task the spec does not have, an attempt that is not the running one.
     */
    static void acknowledge(Decision d, Command command, CheckpointAcknowledged ack) {
        JobState job = d.job(ack.getJobId());
        Discard discard = discardOf(d.state, job, ack);
        if (discard != null) {
            discard(d, ack, discard.status(), discard.message());
            return;
        }
        PendingCheckpoint pending = PendingCheckpoints.find(job, ack.getCheckpointId()).orElseThrow();
        Optional<SharedState> missing = SharedStates.missingReused(d.state, ack);
        if (missing.isPresent()) {
            String message = "Could not acknowledge checkpoint " + ack.getCheckpointId() + who(ack)
                    + ": its state reuses the shared object " + missing.get().getLocation() + ", which no checkpoint"
                    + " refers to any more (it was discarded), so the state could not be restored";
            discard(d, ack, AckDiscardStatus.DISCARDED, message);
            Aborts.abortByTask(d, ack.getJobId(), pending, CheckpointFailureReason.CHECKPOINT_DECLINED, message);
            CheckpointRequestDecider.run(d, ack.getJobId());
            return;
        }
        accept(d, ack.getJobId(), pending, ack);
    }

    /**
     * Whether {@code ack}, within its bounds, is of a known job, accepted and leaves its checkpoint pending, so that
     * all it decides is itself: read on {@code state} alone, with no decision made (the decider's way for the
     * commonest message, with the rules of {@link #acknowledge}).
     */
    static boolean acceptedShortOfCompletion(CoordinatorState state, CheckpointAcknowledged ack) {
        JobState job = state.job(ack.getJobId()).orElse(null);
        if (job == null || discardOf(state, job, ack) != null || SharedStates.missingReused(state, ack).isPresent()) {
            return false;
        }
        PendingCheckpoint pending = PendingCheckpoints.find(job, ack.getCheckpointId()).orElseThrow();
        return state.progress(job.getJobId(), ack.getCheckpointId()).acksReceived() + 1 < pending.getAcksExpected();
    }

    /** Why an ack is discarded, and what its discard says; made only for an ack that is. */
    private record Discard(AckDiscardStatus status, String message) {
    }

    /** Why {@code ack} of {@code job} cannot be accepted, or {@code null} when it is accepted. */
    private static Discard discardOf(CoordinatorState state, JobState job, CheckpointAcknowledged ack) {
        long id = ack.getCheckpointId();
        if (id < 0 || id >= job.getNextCheckpointId()) {
            return new Discard(AckDiscardStatus.DISCARDED, "Received message for checkpoint " + id + who(ack)
                    + ", which was never triggered (next id " + job.getNextCheckpointId() + ")");
        }
        Optional<TaskVertex> vertex = state.vertex(job.getJobId(), ack.getTaskId());
        if (!TaskVertices.hasSubtask(vertex, ack.getSubtaskIndex())) {
            return new Discard(AckDiscardStatus.UNKNOWN, "Could not acknowledge checkpoint " + id + who(ack)
                    + ": the job has no such task or subtask; discarding its state handle");
        }
        Optional<PendingCheckpoint> pending = PendingCheckpoints.find(job, id);
        if (pending.isEmpty()) {
            boolean late = job.getRecentlyEndedIds().contains(id);
            return new Discard(late ? AckDiscardStatus.LATE : AckDiscardStatus.DISCARDED, late
                    ? "Received late message for now expired checkpoint attempt " + id + who(ack)
                    : "Received message for an unknown or ended checkpoint " + id + who(ack));
        }
        return discardOfPending(state, job, vertex.orElseThrow(), pending.get(), ack);
    }

    /** An ack of a pending checkpoint: accepted once, from the running attempt of a subtask the plan waits for. */
    private static Discard discardOfPending(CoordinatorState state, JobState job, TaskVertex vertex,
            PendingCheckpoint pending, CheckpointAcknowledged ack) {
        String jobId = ack.getJobId();
        long id = ack.getCheckpointId();
        Optional<CheckpointAcknowledged> existing = state.ack(jobId, id, ack.getTaskId(), ack.getSubtaskIndex());
        Optional<String> current = state.attempt(jobId, ack.getTaskId(), ack.getSubtaskIndex());
        if (existing.isPresent() && existing.get().getAttemptId().equals(ack.getAttemptId())) {
            return new Discard(AckDiscardStatus.DUPLICATE, "Duplicate acknowledgement of checkpoint " + id + who(ack));
        } else if (!vertex.getAcknowledges() || !PendingCheckpoints.tasksTriggered(pending)
                || existing.isPresent() || current.isEmpty() || !current.get().equals(ack.getAttemptId())) {
            return new Discard(AckDiscardStatus.UNKNOWN, "Could not acknowledge checkpoint " + id + who(ack)
                    + ": the attempt is not in the plan; discarding its state handle");
        } else if (job.getFinishedSubtasks() > 0
                && state.finished(jobId, ack.getTaskId(), ack.getSubtaskIndex()).isPresent()) {
            // a checkpoint that waited for the subtask took its final state when it finished (an ack then exists):
            // this one was triggered after it finished and counts its final state instead of waiting for it
            return new Discard(AckDiscardStatus.UNKNOWN, "Could not acknowledge checkpoint " + id + who(ack)
                    + ": the subtask had finished, its final state counts instead; discarding its state handle");
        }
        return null;
    }

    /** Accepts an ack of a subtask that had none accepted; completes the checkpoint when it was the last one. */
    static void accept(Decision d, String jobId, PendingCheckpoint pending, CheckpointAcknowledged ack) {
        d.emit(ack);
        CheckpointProgress progress = d.state.progress(jobId, pending.getCheckpointId());
        if (progress.acksReceived() >= pending.getAcksExpected()) {
            Completions.complete(d, jobId, pending, progress);
            CheckpointRequestDecider.run(d, jobId);
        }
    }

    /** Who sent an ack, for the message of a discarded one: built only when an ack is discarded. */
    private static String who(CheckpointAcknowledged ack) {
        return " from task " + ack.getTaskId() + " subtask " + ack.getSubtaskIndex() + " (attempt "
                + ack.getAttemptId() + ") of job " + ack.getJobId();
    }

    static void decline(Decision d, Command command, CheckpointDeclined decline) {
        String jobId = decline.getJobId();
        JobState job = d.job(jobId);
        if (!validCheckpointId(d, command, job, decline.getCheckpointId())) {
            return;
        }
        if (!TaskVertices.hasSubtask(d.state.vertex(jobId, decline.getTaskId()), decline.getSubtaskIndex())) {
            d.reject(jobId, command, "unknown task " + decline.getTaskId() + " subtask " + decline.getSubtaskIndex());
            return;
        }
        Optional<PendingCheckpoint> pending = PendingCheckpoints.find(job, decline.getCheckpointId());
        if (pending.isEmpty()) {
            d.reject(jobId, command, "checkpoint " + decline.getCheckpointId() + " of job " + jobId
                    + " is not pending");
            return;
        }
        if (!PendingCheckpoints.tasksTriggered(pending.get())) {
            // no task was told of it yet (its participants are snapshotting), as for an ack at that point
            d.reject(jobId, command, "checkpoint " + decline.getCheckpointId() + " of job " + jobId
                    + " has not triggered its tasks yet");
            return;
        }
        d.emit(decline);
        CheckpointFailureReason reason = decline.getReason() != null ? decline.getReason()
                : CheckpointFailureReason.CHECKPOINT_DECLINED;
        String message = "Decline checkpoint " + decline.getCheckpointId() + " by task " + decline.getTaskId()
                + " of job " + jobId + ": " + decline.getMessage();
        Aborts.abortByTask(d, jobId, pending.get(), reason, message);
        CheckpointRequestDecider.run(d, jobId);
    }

    private static boolean validCheckpointId(Decision d, Command command, JobState job, long checkpointId) {
        if (checkpointId < 0 || checkpointId >= job.getNextCheckpointId()) {
            d.reject(job.getJobId(), command, "checkpoint id " + checkpointId + " of job " + job.getJobId()
                    + " was never triggered (next id " + job.getNextCheckpointId() + ")");
            return false;
        }
        return true;
    }

    /**
     * The part of a discarded ack's handle its subtask may delete: its own object and the shared objects it wrote,
     * but none that it reuses or that a kept checkpoint refers to (a replayed ack's objects may be referred to by
     * later checkpoints).
     */
    private static StateHandle deletable(CoordinatorState state, String jobId, StateHandle handle) {
        if (handle == null || handle.getShared().isEmpty()) {
            return handle;
        }
        List<SharedState> shared = new ArrayList<>();
        for (SharedState object : handle.getShared()) {
            if (!object.getReused() && !SharedStates.isReferenced(state, jobId, object.getLocation())) {
                shared.add(object);
            }
        }
        return StateHandle.newBuilder(handle).setShared(shared).build();
    }

    /**
     * Discards an ack, handing its state handle out for clean-up unless a kept checkpoint refers to it
     * ({@link KeptStates}): an ack equal to an accepted one is a duplicate whenever it arrives, also after its
     * checkpoint ended, and is never answered with its handle.
     */
    private static void discard(Decision d, CheckpointAcknowledged ack, AckDiscardStatus status, String message) {
        AckDiscardStatus decided = status;
        String why = message;
        StateHandle handle = ack.getStateHandle();
        if (status != AckDiscardStatus.DUPLICATE && KeptStates.repeatsAccepted(d.state, ack)) {
            decided = AckDiscardStatus.DUPLICATE;
            why = "Duplicate acknowledgement of checkpoint " + ack.getCheckpointId() + who(ack)
                    + ", accepted before; its state is kept";
        } else if (status != AckDiscardStatus.DUPLICATE) {
            Optional<String> kept = KeptStates.whyKept(d.state, d.job(ack.getJobId()), ack);
            if (kept.isPresent()) {
                why = message + "; its state handle is kept: " + kept.get();
                handle = null;
            }
        }
        d.emit(AckDiscarded.newBuilder()
                .setJobId(ack.getJobId())
                .setCheckpointId(ack.getCheckpointId())
                .setTaskId(ack.getTaskId())
                .setSubtaskIndex(ack.getSubtaskIndex())
                .setAttemptId(ack.getAttemptId())
                .setStatus(decided)
                .setStateHandle(decided == AckDiscardStatus.DUPLICATE ? null
                        : deletable(d.state, ack.getJobId(), handle))
                .setMessage(why)
                .setTimestampMs(d.now)
                .build());
    }
}
