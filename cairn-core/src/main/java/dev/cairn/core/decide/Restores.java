package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.RestorePoints;
import dev.cairn.core.state.Retention;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.SavepointDisposed;
import dev.cairn.events.StateDiscarded;
import java.util.List;
import java.util.Optional;

/**
 * A user's restore of a job from a point it keeps (Flink: {@code flink run -s <path> --restoreMode}) and the
 * disposal of a savepoint (Flink: {@code flink savepoint -d}). A restore runs only while the job is not RUNNING
 * (after a stop, a suspension, a cancellation or a failure): the chosen savepoint or retained checkpoint becomes the
 * job's restore point, which every starting sidecar restores, and the job is RUNNING again; checkpoint ids go on
 * from the job's counter, above every id it has used. The requester is always told, by a {@code RequestOutcome}
 * under its request id; a request id already known changes nothing.
 */
final class Restores {

    private Restores() {
    }

    static void restore(Decision d, Command.Restore command) {
        RestoreJob request = command.event();
        String jobId = request.getJobId();
        if (!acceptable(d, command, jobId, request.getRequestId())) {
            return;
        }
        d.emit(request);
        JobState job = d.job(jobId);
        if (job.getStatus() == JobStatus.RUNNING) {
            fail(d, jobId, request.getRequestId(), "job " + jobId + " is RUNNING: stop it with a savepoint (or"
                    + " suspend it) before restoring it from another point");
            return;
        }
        Optional<CheckpointCompleted> point = RestorePoints.find(d.state, jobId, request.getCheckpointId(),
                request.getSavepointPath());
        if (point.isEmpty()) {
            fail(d, jobId, request.getRequestId(), "job " + jobId + " keeps no "
                    + named(request.getCheckpointId(), request.getSavepointPath(), "restore point")
                    + " (its savepoints and retained checkpoints are listed by GET /jobs/" + jobId + "/savepoints"
                    + " and /jobs/" + jobId + "/checkpoints)");
            return;
        }
        resume(d, jobId, request.getRequestId(), point.get(), request.getRestoreMode(), null,
                command.initialDelayFraction());
    }

    /**
     * Resumes the job from {@code chosen}, with {@code spec} (a rescale's) registered first when not null: refused,
     * with the reason in the request's outcome, when the point's states are no longer kept or cannot be handed to
     * the job's tasks ({@link StateAssignment}); else the job's restore point is {@code chosen} and it is RUNNING.
     */
    static void resume(Decision d, String jobId, String requestId, CheckpointCompleted chosen, RestoreMode mode,
            JobSpec spec, double initialDelayFraction) {
        List<CheckpointAcknowledged> states = RestorePoints.statesOf(chosen, d.state.acks(jobId,
                chosen.getCheckpointId()), () -> d.state.finished(jobId), taskId -> d.state.vertex(jobId, taskId));
        if (chosen.getSubtaskCount() > 0 && states.isEmpty()) {
            fail(d, jobId, requestId, "the subtask states of " + describe(chosen) + " are no longer kept");
            return;
        }
        Optional<JobSpec> target = spec != null ? Optional.of(spec) : d.state.spec(jobId);
        Optional<String> unassignable = target.flatMap(s -> StateAssignment.problem(chosen, states, s));
        if (unassignable.isPresent()) {
            fail(d, jobId, requestId, "cannot restore job " + jobId + " from " + describe(chosen) + ": "
                    + unassignable.get());
            return;
        }
        if (spec != null) {
            d.emit(spec);
        }
        List<StateDiscarded> discards = Discards.ofRestore(d, jobId, chosen, mode);
        d.emit(JobRestored.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId)
                .setRestorePoint(chosen)
                .setRestoreMode(mode)
                .setTimestampMs(d.now)
                .build());
        Discards.emit(d, discards);
        d.outcome(jobId, requestId, RequestStatus.COMPLETED, null, null, chosen.getCheckpointId());
        JobStatuses.change(d, jobId, JobStatus.RUNNING, initialDelayFraction, null);
    }

    static void dispose(Decision d, Command.Dispose command) {
        DisposeSavepoint request = command.event();
        String jobId = request.getJobId();
        if (!acceptable(d, command, jobId, request.getRequestId())) {
            return;
        }
        d.emit(request);
        Optional<CheckpointCompleted> savepoint = RestorePoints.savepoint(d.state, jobId, request.getCheckpointId(),
                request.getSavepointPath());
        if (savepoint.isEmpty()) {
            fail(d, jobId, request.getRequestId(), "job " + jobId + " keeps no "
                    + named(request.getCheckpointId(), request.getSavepointPath(), "savepoint"));
            return;
        }
        CheckpointCompleted disposed = savepoint.get();
        if (Retention.newest(d.state.retained(jobId)).filter(n -> n.getCheckpointId() == disposed.getCheckpointId())
                .isPresent()) {
            fail(d, jobId, request.getRequestId(), describe(disposed) + " is the restore point of job " + jobId
                    + ": its workers would restore it; restore the job from another point, or let a checkpoint"
                    + " complete, before disposing of it");
            return;
        }
        List<StateDiscarded> discards = Discards.ofDisposal(d, jobId, disposed);
        d.emit(SavepointDisposed.newBuilder()
                .setJobId(jobId)
                .setRequestId(request.getRequestId())
                .setCheckpointId(disposed.getCheckpointId())
                .setLocation(disposed.getStorageLocation())
                .setTimestampMs(d.now)
                .build());
        Discards.emit(d, discards);
        d.outcome(jobId, request.getRequestId(), RequestStatus.COMPLETED, null, null, disposed.getCheckpointId());
    }

    /** A request needs an id; one whose id the job knows already was decided before. */
    static boolean acceptable(Decision d, Command command, String jobId, String requestId) {
        if (requestId == null || requestId.isBlank()) {
            d.reject(jobId, command, "request id is empty");
            return false;
        }
        return d.state.request(jobId, requestId).isEmpty();
    }

    static void fail(Decision d, String jobId, String requestId, String message) {
        d.outcome(jobId, requestId, RequestStatus.FAILED, CheckpointFailureReason.INVALID_REQUEST, message, null);
    }

    private static String named(Long checkpointId, String location, String what) {
        if (checkpointId != null) {
            return what + " with id " + checkpointId;
        }
        return location != null ? what + " at " + location : what;
    }

    static String describe(CheckpointCompleted point) {
        return (point.getType() == CheckpointType.SAVEPOINT ? "savepoint " : "checkpoint ") + point.getCheckpointId()
                + " (" + point.getStorageLocation() + ")";
    }
}
