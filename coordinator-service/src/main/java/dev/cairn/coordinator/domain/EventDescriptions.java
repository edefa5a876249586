package dev.cairn.coordinator.domain;

import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobFailed;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerFailed;
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

    public static Optional<String> describe(SpecificRecord event) {
        return Optional.ofNullable(line(event));
    }

    private static String line(SpecificRecord event) {
        if (event instanceof CheckpointTriggered e) {
            return "Triggering checkpoint " + e.getCheckpointId() + " (" + e.getType() + ") @ " + e.getTimestampMs()
                    + " for job " + e.getJobId() + (e.getPeriodic() ? "" : ", request " + e.getRequestId())
                    + ", location " + e.getStorageLocation();
        }
        if (event instanceof CheckpointCompleted e) {
            return "Completed checkpoint " + e.getCheckpointId() + " for job " + e.getJobId() + " ("
                    + e.getTotalSizeBytes() + " bytes, " + (e.getCompletionTimestampMs() - e.getTriggerTimestampMs())
                    + " ms)" + (e.getType() == dev.cairn.events.CheckpointType.SAVEPOINT ? ", savepoint" : "");
        }
        if (event instanceof CheckpointAborted e) {
            if (e.getReason() == CheckpointFailureReason.CHECKPOINT_EXPIRED) {
                return "Checkpoint " + e.getCheckpointId() + " of job " + e.getJobId() + " expired before completing";
            }
            return "Aborted checkpoint " + e.getCheckpointId() + " of job " + e.getJobId() + ": " + e.getReason()
                    + " (" + e.getMessage() + ")";
        }
        if (event instanceof CheckpointDeclined e) {
            return "Decline checkpoint " + e.getCheckpointId() + " by task " + e.getTaskId() + " of job "
                    + e.getJobId() + " (subtask " + e.getSubtaskIndex() + ", attempt " + e.getAttemptId() + "): "
                    + e.getReason() + " " + e.getMessage();
        }
        return otherLine(event);
    }

    private static String otherLine(SpecificRecord event) {
        if (event instanceof AckDiscarded e) {
            return "Discarded acknowledgement (" + e.getStatus() + ") of checkpoint " + e.getCheckpointId()
                    + " by task " + e.getTaskId() + " subtask " + e.getSubtaskIndex() + " of job " + e.getJobId()
                    + ": " + e.getMessage();
        }
        if (event instanceof CommandRejected e) {
            return "Rejected " + e.getCommandType() + " for job " + e.getJobId() + ": " + e.getReason();
        }
        if (event instanceof TriggerFailed e) {
            return "Failed to trigger " + (e.getPeriodic() ? "periodic " : "") + e.getType() + " for job "
                    + e.getJobId() + ": " + e.getReason() + " (" + e.getMessage() + ")";
        }
        if (event instanceof RequestDequeued e && e.getReason() != null) {
            return "Dropped " + (e.getPeriodic() ? "periodic request" : "request " + e.getRequestId()) + " of job "
                    + e.getJobId() + ": " + e.getReason() + " (" + e.getMessage() + ")";
        }
        if (event instanceof RequestOutcome e && e.getStatus() == RequestStatus.FAILED) {
            return "Request " + e.getRequestId() + " of job " + e.getJobId() + " failed: " + e.getReason();
        }
        if (event instanceof CheckpointFailureCounted e) {
            return "Checkpoint " + e.getCheckpointId() + " of job " + e.getJobId() + " failed (" + e.getReason()
                    + "): " + e.getConsecutiveFailures() + " consecutive checkpoint failures";
        }
        if (event instanceof JobFailed e) {
            return "Failing job " + e.getJobId() + ": " + e.getCause() + " (tolerable " + e.getTolerableFailures()
                    + ")";
        }
        if (event instanceof JobSpec e) {
            return "Registered job " + e.getJobId() + " with " + e.getTasks().size() + " tasks, checkpoint interval "
                    + e.getConfig().getIntervalMs() + " ms, timeout " + e.getConfig().getTimeoutMs() + " ms";
        }
        if (event instanceof JobStatusChange e) {
            return "Job " + e.getJobId() + " switched to " + e.getStatus();
        }
        if (event instanceof TaskFinished e) {
            return "Task " + e.getTaskId() + " subtask " + e.getSubtaskIndex() + " of job " + e.getJobId()
                    + " finished (attempt " + e.getAttemptId() + ")";
        }
        if (event instanceof ParticipantsTriggered e) {
            return "Triggering checkpoint " + e.getCheckpointId() + " (" + e.getType() + ") @ " + e.getTimestampMs()
                    + " for job " + e.getJobId() + ": asking participants " + e.getParticipants() + " first";
        }
        if (event instanceof ParticipantDeclined e) {
            return "Decline checkpoint " + e.getCheckpointId() + " by participant " + e.getParticipant() + " of job "
                    + e.getJobId() + ": " + e.getReason() + " " + e.getMessage();
        }
        if (event instanceof TaskStarted e) {
            return "Task " + e.getTaskId() + " subtask " + e.getSubtaskIndex() + " of job " + e.getJobId()
                    + " started attempt " + e.getAttemptId();
        }
        return null;
    }
}
