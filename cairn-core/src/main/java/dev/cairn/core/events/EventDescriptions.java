package dev.cairn.core.events;

import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobFailed;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.SavepointDisposed;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerFailed;
import java.util.Locale;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The operator log line of a journal event, in Flink's wording so that the usual greps work:
 * {@code Triggering checkpoint N}, {@code Completed checkpoint N}, {@code Checkpoint N of job J
 * expired before completing}, {@code Decline checkpoint N by task T of job J}. Routine events (acks,
 * queueing, scheduling) have no line.
 */
public final class EventDescriptions {

    private EventDescriptions() {
    }

    /**
     * The event's line, if it has one.
     *
     * @throws IllegalArgumentException when the event is no journal event
     */
    public static Optional<String> describe(SpecificRecord event) {
        return Optional.ofNullable(line(event));
    }

    private static String line(SpecificRecord event) {
        return switch (EventKind.of(event)) {
            case CHECKPOINT_TRIGGERED -> triggered((CheckpointTriggered) event);
            case CHECKPOINT_COMPLETED -> completed((CheckpointCompleted) event);
            case CHECKPOINT_ABORTED -> aborted((CheckpointAborted) event);
            case CHECKPOINT_DECLINED -> declined((CheckpointDeclined) event);
            case ACK_DISCARDED -> discarded((AckDiscarded) event);
            case COMMAND_REJECTED -> rejected((CommandRejected) event);
            case TASK_START_REJECTED -> "Rejected the start of " + ((TaskStartRejected) event).getReason();
            case TRIGGER_FAILED -> triggerFailed((TriggerFailed) event);
            case REQUEST_DEQUEUED -> dropped((RequestDequeued) event);
            case REQUEST_OUTCOME -> requestFailed((RequestOutcome) event);
            case CHECKPOINT_FAILURE_COUNTED -> failureCounted((CheckpointFailureCounted) event);
            case JOB_FAILED -> jobFailed((JobFailed) event);
            case JOB_SPEC -> registered((JobSpec) event);
            case JOB_STATUS_CHANGE -> "Job " + ((JobStatusChange) event).getJobId() + " switched to "
                    + ((JobStatusChange) event).getStatus();
            case TASK_FINISHED -> taskFinished((TaskFinished) event);
            case TASK_STARTED -> taskStarted((TaskStarted) event);
            case PARTICIPANTS_TRIGGERED -> participantsTriggered((ParticipantsTriggered) event);
            case PARTICIPANT_DECLINED -> participantDeclined((ParticipantDeclined) event);
            case JOB_RESTORED -> restored((JobRestored) event);
            case SAVEPOINT_DISPOSED -> "Disposed of savepoint " + ((SavepointDisposed) event).getCheckpointId()
                    + " of job " + ((SavepointDisposed) event).getJobId() + " ("
                    + ((SavepointDisposed) event).getLocation() + "): it is no point to restore from any more";
            case STATE_DISCARDED -> discarded((StateDiscarded) event);
            case RESTORE_FAILED -> "Task " + ((RestoreFailed) event).getTaskId() + " subtask "
                    + ((RestoreFailed) event).getSubtaskIndex() + " of job " + ((RestoreFailed) event).getJobId()
                    + " could not restore checkpoint " + ((RestoreFailed) event).getCheckpointId() + ": "
                    + ((RestoreFailed) event).getMessage();
            case RESTORE_POINT_REJECTED -> "Rejected the restore point of job " + ((RestorePointRejected) event)
                    .getJobId() + ": " + ((RestorePointRejected) event).getMessage();
            case JOB_REMOVED -> removed((JobRemoved) event);
            case TRIGGER_REQUEST, CHECKPOINT_ACKNOWLEDGED, PARTICIPANT_ACKNOWLEDGED, PERIODIC_TRIGGER_SCHEDULED,
                    PERIODIC_TRIGGER_STOPPED, REQUEST_QUEUED, RESTORE_JOB, DISPOSE_SAVEPOINT, RESCALE_JOB,
                    REMOVE_JOB, REQUEST_ADMITTED -> null;
        };
    }

    private static String removed(JobRemoved e) {
        return "Removed job " + e.getJobId() + " (" + e.getStatus() + ", request " + e.getRequestId() + "): its state"
                + " left the stores, its journal and its files stay; registered again, it takes checkpoint ids from "
                + e.getNextCheckpointId() + " on";
    }

    private static String discarded(StateDiscarded e) {
        long shared = e.getObjects().stream().filter(o -> o.getShared()).count();
        String part = e.getParts() > 1 ? " (part " + (e.getPart() + 1) + " of " + e.getParts() + ")" : "";
        return "Discarded the state of " + e.getType().name().toLowerCase(Locale.ROOT) + " "
                + e.getCheckpointId() + " of job " + e.getJobId() + part + ", " + e.getReason() + ": "
                + (e.getObjects().size() - shared) + " object(s) of its own and " + shared + " shared object(s) no "
                + "checkpoint refers to any more, " + e.getKeptObjects() + " kept; " + e.getMessage();
    }

    private static String triggered(CheckpointTriggered e) {
        return "Triggering checkpoint " + e.getCheckpointId() + " (" + e.getType() + ") @ " + e.getTimestampMs()
                + " for job " + e.getJobId() + (e.getPeriodic() ? "" : ", request " + e.getRequestId())
                + ", location " + e.getStorageLocation();
    }

    private static String completed(CheckpointCompleted e) {
        return "Completed checkpoint " + e.getCheckpointId() + " for job " + e.getJobId() + " ("
                + e.getTotalSizeBytes() + " bytes, " + (e.getCompletionTimestampMs() - e.getTriggerTimestampMs())
                + " ms)" + (e.getType() == CheckpointType.SAVEPOINT ? ", savepoint" : "");
    }

    private static String aborted(CheckpointAborted e) {
        if (e.getReason() == CheckpointFailureReason.CHECKPOINT_EXPIRED) {
            return "Checkpoint " + e.getCheckpointId() + " of job " + e.getJobId() + " expired before completing";
        }
        return "Aborted checkpoint " + e.getCheckpointId() + " of job " + e.getJobId() + ": " + e.getReason()
                + " (" + e.getMessage() + ")";
    }

    private static String declined(CheckpointDeclined e) {
        return "Decline checkpoint " + e.getCheckpointId() + " by task " + e.getTaskId() + " of job "
                + e.getJobId() + " (subtask " + e.getSubtaskIndex() + ", attempt " + e.getAttemptId() + "): "
                + e.getReason() + " " + e.getMessage();
    }

    private static String discarded(AckDiscarded e) {
        return "Discarded acknowledgement (" + e.getStatus() + ") of checkpoint " + e.getCheckpointId()
                + " by task " + e.getTaskId() + " subtask " + e.getSubtaskIndex() + " of job " + e.getJobId()
                + ": " + e.getMessage();
    }

    private static String rejected(CommandRejected e) {
        return "Rejected " + e.getCommandType() + " for job " + e.getJobId() + ": " + e.getReason();
    }

    private static String triggerFailed(TriggerFailed e) {
        return "Failed to trigger " + (e.getPeriodic() ? "periodic " : "") + e.getType() + " for job "
                + e.getJobId() + ": " + e.getReason() + " (" + e.getMessage() + ")";
    }

    /** Only a request dropped without running has a line. */
    private static String dropped(RequestDequeued e) {
        return e.getReason() == null ? null
                : "Dropped " + (e.getPeriodic() ? "periodic request" : "request " + e.getRequestId()) + " of job "
                        + e.getJobId() + ": " + e.getReason() + " (" + e.getMessage() + ")";
    }

    /** Only a failed request has a line. */
    private static String requestFailed(RequestOutcome e) {
        return e.getStatus() != RequestStatus.FAILED ? null
                : "Request " + e.getRequestId() + " of job " + e.getJobId() + " failed: " + e.getReason();
    }

    private static String failureCounted(CheckpointFailureCounted e) {
        return "Checkpoint " + e.getCheckpointId() + " of job " + e.getJobId() + " failed (" + e.getReason()
                + "): " + e.getConsecutiveFailures() + " consecutive checkpoint failures";
    }

    private static String jobFailed(JobFailed e) {
        return "Failing job " + e.getJobId() + ": " + e.getCause() + " (tolerable " + e.getTolerableFailures() + ")";
    }

    private static String registered(JobSpec e) {
        return "Registered job " + e.getJobId() + " with " + e.getTasks().size() + " tasks, checkpoint interval "
                + e.getConfig().getIntervalMs() + " ms, timeout " + e.getConfig().getTimeoutMs() + " ms";
    }

    private static String taskFinished(TaskFinished e) {
        return "Task " + e.getTaskId() + " subtask " + e.getSubtaskIndex() + " of job " + e.getJobId()
                + " finished (attempt " + e.getAttemptId() + ")";
    }

    private static String taskStarted(TaskStarted e) {
        return "Task " + e.getTaskId() + " subtask " + e.getSubtaskIndex() + " of job " + e.getJobId()
                + " started attempt " + e.getAttemptId() + (e.getHost() == null ? "" : " on " + e.getHost());
    }

    private static String participantsTriggered(ParticipantsTriggered e) {
        return "Triggering checkpoint " + e.getCheckpointId() + " (" + e.getType() + ") @ " + e.getTimestampMs()
                + " for job " + e.getJobId() + ": asking participants " + e.getParticipants() + " first";
    }

    private static String participantDeclined(ParticipantDeclined e) {
        return "Decline checkpoint " + e.getCheckpointId() + " by participant " + e.getParticipant() + " of job "
                + e.getJobId() + ": " + e.getReason() + " " + e.getMessage();
    }

    private static String restored(JobRestored e) {
        CheckpointCompleted point = e.getRestorePoint();
        return "Restoring job " + e.getJobId() + " from " + (point.getType() == CheckpointType.SAVEPOINT
                ? "savepoint " : "checkpoint ") + point.getCheckpointId() + " (" + point.getStorageLocation()
                + ") in " + e.getRestoreMode() + " mode";
    }
}
