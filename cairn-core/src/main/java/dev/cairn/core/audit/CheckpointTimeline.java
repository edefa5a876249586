package dev.cairn.core.audit;

import dev.cairn.core.events.EventFields;
import dev.cairn.core.events.EventKind;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.StateDiscarded;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Builds the story of one checkpoint of one job from the journal (pure): fed every record of the job's partition
 * in order, it keeps those about the checkpoint — when it was triggered, every accepted ack (time, task, subtask,
 * attempt, state size), every decline and discarded ack, the participants' answers, and how it ended (completed,
 * or aborted with the reason) — and {@link #timeline()} returns them.
 */
public final class CheckpointTimeline {

    /** What happened to a checkpoint at one record. */
    public enum Kind {
        PARTICIPANTS_TRIGGERED, TRIGGERED, ACK, PARTICIPANT_ACK, DECLINE, PARTICIPANT_DECLINE, ACK_DISCARDED,
        COMPLETED, ABORTED, FAILURE_COUNTED, REQUEST_OUTCOME, STATE_DISCARDED, DISCARDED_OBJECT, RESTORE_FAILED,
        RESTORE_POINT_REJECTED
    }

    /** How a checkpoint stands at the end of the records read. */
    public enum Outcome { PENDING, COMPLETED, ABORTED }

    /**
     * One record about the checkpoint.
     *
     * @param partition the journal partition
     * @param offset the record's offset
     * @param timeMs the event's own time (the ack's, the trigger's, the completion's ...)
     * @param kind what happened
     * @param task the task (or participant) id, {@code null} when the event names none
     * @param subtask the subtask index, {@code null} when the event names none
     * @param attempt the attempt id, {@code null} when the event names none
     * @param sizeBytes the state size of an ack, {@code null} for other events
     * @param detail the reason, status or message, {@code null} when there is none
     */
    public record Entry(int partition, long offset, long timeMs, Kind kind, String task, Integer subtask,
            String attempt, Long sizeBytes, String detail) {}

    /**
     * The checkpoint's timeline.
     *
     * @param jobId the job
     * @param checkpointId the checkpoint
     * @param triggeredAtMs when it was triggered, {@code null} when the records hold no trigger
     * @param type CHECKPOINT or SAVEPOINT, {@code null} when the records hold no trigger
     * @param acksExpected the acks its completion needs, {@code null} until its tasks were triggered
     * @param outcome how it stands
     * @param endedAtMs when it completed or aborted, {@code null} while pending
     * @param reason the abort's reason and message, {@code null} unless aborted
     * @param entries every record about it, in journal order
     */
    public record Timeline(String jobId, long checkpointId, Long triggeredAtMs, String type, Integer acksExpected,
            Outcome outcome, Long endedAtMs, String reason, List<Entry> entries) {

        /** How many acks were accepted. */
        public long acksAccepted() {
            return entries.stream().filter(e -> e.kind() == Kind.ACK).count();
        }
    }

    private final String jobId;
    private final long checkpointId;
    private final List<Entry> entries = new ArrayList<>();
    private Long triggeredAt;
    private String type;
    private Integer acksExpected;
    private Outcome outcome = Outcome.PENDING;
    private Long endedAt;
    private String reason;

    public CheckpointTimeline(String jobId, long checkpointId) {
        this.jobId = jobId;
        this.checkpointId = checkpointId;
    }

    /** Keeps the record when it is about this checkpoint; skips every other one (and records that do not decode). */
    public void accept(JournalEntry entry) {
        SpecificRecord event = entry.event();
        if (event == null || EventFields.checkpointId(event) != checkpointId
                || !jobId.equals(EventFields.jobId(event))) {
            return;
        }
        Entry kept = entry(entry, event);
        if (kept != null) {
            entries.add(kept);
        }
        if (event instanceof StateDiscarded discarded) {
            for (DiscardedObject object : discarded.getObjects()) {
                entries.add(new Entry(entry.partition(), entry.offset(), discarded.getTimestampMs(),
                        Kind.DISCARDED_OBJECT,
                        object.getTaskId() != null ? object.getTaskId() : object.getParticipant(),
                        object.getTaskId() != null ? object.getSubtaskIndex() : null, null, object.getSizeBytes(),
                        (object.getShared() ? "shared " : "") + object.getLocation()));
            }
        }
    }

    /** The entry of an event about the checkpoint; {@code null} for the kinds no timeline shows. */
    private Entry entry(JournalEntry at, SpecificRecord event) {
        int p = at.partition();
        long o = at.offset();
        return switch (EventKind.of(event)) {
            case PARTICIPANTS_TRIGGERED -> participantsTriggered(p, o, (ParticipantsTriggered) event);
            case CHECKPOINT_TRIGGERED -> triggered(p, o, (CheckpointTriggered) event);
            case CHECKPOINT_ACKNOWLEDGED -> ack(p, o, (CheckpointAcknowledged) event);
            case PARTICIPANT_ACKNOWLEDGED -> participantAck(p, o, (ParticipantAcknowledged) event);
            case CHECKPOINT_DECLINED -> declined(p, o, (CheckpointDeclined) event);
            case PARTICIPANT_DECLINED -> participantDeclined(p, o, (ParticipantDeclined) event);
            case ACK_DISCARDED -> discarded(p, o, (AckDiscarded) event);
            case CHECKPOINT_COMPLETED -> completed(p, o, (CheckpointCompleted) event);
            case CHECKPOINT_ABORTED -> aborted(p, o, (CheckpointAborted) event);
            case CHECKPOINT_FAILURE_COUNTED -> failureCounted(p, o, (CheckpointFailureCounted) event);
            case REQUEST_OUTCOME -> requestOutcome(p, o, (RequestOutcome) event);
            case STATE_DISCARDED -> stateDiscarded(p, o, (StateDiscarded) event);
            case RESTORE_FAILED -> new Entry(p, o, ((RestoreFailed) event).getTimestampMs(), Kind.RESTORE_FAILED,
                    ((RestoreFailed) event).getTaskId(), ((RestoreFailed) event).getSubtaskIndex(),
                    ((RestoreFailed) event).getAttemptId(), null, ((RestoreFailed) event).getMessage());
            case RESTORE_POINT_REJECTED -> new Entry(p, o, ((RestorePointRejected) event).getTimestampMs(),
                    Kind.RESTORE_POINT_REJECTED, null, null, null, null, ((RestorePointRejected) event).getMessage());
            case JOB_SPEC, JOB_STATUS_CHANGE, TRIGGER_REQUEST, TASK_STARTED, TASK_FINISHED, REQUEST_QUEUED,
                    REQUEST_DEQUEUED, JOB_FAILED, PERIODIC_TRIGGER_SCHEDULED, PERIODIC_TRIGGER_STOPPED, TRIGGER_FAILED,
                    COMMAND_REJECTED, TASK_START_REJECTED, RESTORE_JOB, DISPOSE_SAVEPOINT, JOB_RESTORED,
                    SAVEPOINT_DISPOSED, RESCALE_JOB, REMOVE_JOB, JOB_REMOVED, REQUEST_ADMITTED -> null;
        };
    }

    private Entry participantsTriggered(int p, long o, ParticipantsTriggered e) {
        triggered(e.getTimestampMs(), e.getType().name());
        return new Entry(p, o, e.getTimestampMs(), Kind.PARTICIPANTS_TRIGGERED, null, null, null, null,
                "participants " + String.join(", ", e.getParticipants()));
    }

    private Entry triggered(int p, long o, CheckpointTriggered e) {
        triggered(e.getTimestampMs(), e.getType().name());
        acksExpected = e.getAcksExpected();
        return new Entry(p, o, e.getTimestampMs(), Kind.TRIGGERED, null, null, null, null,
                (e.getPeriodic() ? "periodic" : "request " + e.getRequestId()) + ", " + acksExpected
                        + " acks expected" + (e.getFinishedSubtasks() > 0 ? ", " + e.getFinishedSubtasks()
                        + " subtasks finished" : "") + ", location " + e.getStorageLocation());
    }

    private static Entry ack(int p, long o, CheckpointAcknowledged e) {
        return new Entry(p, o, e.getTimestampMs(), Kind.ACK, e.getTaskId(), e.getSubtaskIndex(), e.getAttemptId(),
                e.getStateHandle().getSizeBytes(), null);
    }

    private static Entry participantAck(int p, long o, ParticipantAcknowledged e) {
        return new Entry(p, o, e.getTimestampMs(), Kind.PARTICIPANT_ACK, e.getParticipant(), null, null,
                e.getState() == null ? null : e.getState().getSizeBytes(), null);
    }

    private static Entry declined(int p, long o, CheckpointDeclined e) {
        return new Entry(p, o, e.getTimestampMs(), Kind.DECLINE, e.getTaskId(), e.getSubtaskIndex(),
                e.getAttemptId(), null, e.getReason() + ": " + e.getMessage());
    }

    private static Entry participantDeclined(int p, long o, ParticipantDeclined e) {
        return new Entry(p, o, e.getTimestampMs(), Kind.PARTICIPANT_DECLINE, e.getParticipant(), null, null, null,
                e.getReason() + ": " + e.getMessage());
    }

    private static Entry discarded(int p, long o, AckDiscarded e) {
        return new Entry(p, o, e.getTimestampMs(), Kind.ACK_DISCARDED, e.getTaskId(),
                e.getSubtaskIndex() < 0 ? null : e.getSubtaskIndex(), e.getAttemptId(),
                e.getStateHandle() == null ? null : e.getStateHandle().getSizeBytes(),
                e.getStatus() + ": " + e.getMessage());
    }

    private Entry completed(int p, long o, CheckpointCompleted e) {
        outcome = Outcome.COMPLETED;
        endedAt = e.getCompletionTimestampMs();
        return new Entry(p, o, e.getCompletionTimestampMs(), Kind.COMPLETED, null, null, null,
                e.getTotalSizeBytes(), (e.getSubtaskCount() >= 0 ? e.getSubtaskCount() : e.getSubtaskStates().size())
                        + " subtask states, " + (e.getCompletionTimestampMs() - e.getTriggerTimestampMs()) + " ms");
    }

    private Entry aborted(int p, long o, CheckpointAborted e) {
        outcome = Outcome.ABORTED;
        endedAt = e.getTimestampMs();
        reason = e.getReason() + ": " + e.getMessage();
        return new Entry(p, o, e.getTimestampMs(), Kind.ABORTED, null, null, null, null, reason);
    }

    private static Entry failureCounted(int p, long o, CheckpointFailureCounted e) {
        return new Entry(p, o, e.getTimestampMs(), Kind.FAILURE_COUNTED, null, null, null, null,
                e.getReason() + ", " + e.getConsecutiveFailures() + " consecutive failures");
    }

    private static Entry requestOutcome(int p, long o, RequestOutcome e) {
        return new Entry(p, o, e.getTimestampMs(), Kind.REQUEST_OUTCOME, null, null, null, null,
                "request " + e.getRequestId() + " " + e.getStatus()
                        + (e.getReason() == null ? "" : " (" + e.getReason() + ")"));
    }

    /** The objects a part of the checkpoint's discard names: the bytes they held, and why they went. */
    private static Entry stateDiscarded(int p, long o, StateDiscarded e) {
        long bytes = e.getObjects().stream().mapToLong(DiscardedObject::getSizeBytes).sum();
        long shared = e.getObjects().stream().filter(DiscardedObject::getShared).count();
        return new Entry(p, o, e.getTimestampMs(), Kind.STATE_DISCARDED, null, null, null, bytes,
                e.getReason() + ": " + (e.getObjects().size() - shared) + " own and " + shared
                        + " shared object(s) discarded, " + e.getKeptObjects() + " kept" + (e.getParts() > 1
                        ? " (part " + (e.getPart() + 1) + " of " + e.getParts() + ")" : "") + "; " + e.getMessage());
    }

    private void triggered(long at, String checkpointType) {
        if (triggeredAt == null) {
            triggeredAt = at;
            type = checkpointType;
        }
    }

    /** Whether any record was about the checkpoint. */
    public boolean found() {
        return !entries.isEmpty();
    }

    /** The timeline of the records kept so far. */
    public Timeline timeline() {
        return new Timeline(jobId, checkpointId, triggeredAt, type, acksExpected, outcome, endedAt, reason,
                List.copyOf(entries));
    }
}
