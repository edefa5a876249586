package dev.cairn.core.events;

import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobFailed;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestAdmitted;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.SavepointDisposed;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerFailed;
import dev.cairn.events.TriggerRequest;
import java.util.Arrays;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The explicit union of journal events: one kind per event type of {@code cairn.journal}, with what is fixed per
 * kind defined here once, where it enters ({@link Origin}: which input topic, or decided by the coordinator),
 * whether sidecars may need it on {@code cairn.control}, and the field of the timer it sets, if any. Code that
 * treats events by type takes {@link #of} and switches over the kind (a switch expression over an enum must name
 * every kind), so a new event type fails compilation where it is not handled, and an unknown one fails at once.
 */
public enum EventKind {
    JOB_SPEC(JobSpec.class, Origin.REQUESTS, false, null),
    JOB_STATUS_CHANGE(JobStatusChange.class, Origin.REQUESTS, false, null),
    TRIGGER_REQUEST(TriggerRequest.class, Origin.REQUESTS, false, null),
    TASK_STARTED(TaskStarted.class, Origin.ACKS, false, null),
    CHECKPOINT_ACKNOWLEDGED(CheckpointAcknowledged.class, Origin.ACKS, false, null),
    CHECKPOINT_DECLINED(CheckpointDeclined.class, Origin.ACKS, false, null),
    TASK_FINISHED(TaskFinished.class, Origin.ACKS, false, null),
    PARTICIPANT_ACKNOWLEDGED(ParticipantAcknowledged.class, Origin.ACKS, false, null),
    PARTICIPANT_DECLINED(ParticipantDeclined.class, Origin.ACKS, false, null),
    PARTICIPANTS_TRIGGERED(ParticipantsTriggered.class, Origin.DECIDED, true, "timeoutAtMs"),
    CHECKPOINT_TRIGGERED(CheckpointTriggered.class, Origin.DECIDED, true, "timeoutAtMs"),
    CHECKPOINT_COMPLETED(CheckpointCompleted.class, Origin.DECIDED, true, null),
    CHECKPOINT_ABORTED(CheckpointAborted.class, Origin.DECIDED, true, null),
    ACK_DISCARDED(AckDiscarded.class, Origin.DECIDED, true, null),
    REQUEST_OUTCOME(RequestOutcome.class, Origin.DECIDED, false, null),
    JOB_FAILED(JobFailed.class, Origin.DECIDED, false, null),
    PERIODIC_TRIGGER_SCHEDULED(PeriodicTriggerScheduled.class, Origin.DECIDED, false, "dueAtMs"),
    PERIODIC_TRIGGER_STOPPED(PeriodicTriggerStopped.class, Origin.DECIDED, false, null),
    REQUEST_QUEUED(RequestQueued.class, Origin.DECIDED, false, null),
    REQUEST_DEQUEUED(RequestDequeued.class, Origin.DECIDED, false, null),
    TRIGGER_FAILED(TriggerFailed.class, Origin.DECIDED, false, null),
    CHECKPOINT_FAILURE_COUNTED(CheckpointFailureCounted.class, Origin.DECIDED, false, null),
    COMMAND_REJECTED(CommandRejected.class, Origin.DECIDED, false, null),
    TASK_START_REJECTED(TaskStartRejected.class, Origin.DECIDED, true, null),
    RESTORE_JOB(RestoreJob.class, Origin.REQUESTS, false, null),
    DISPOSE_SAVEPOINT(DisposeSavepoint.class, Origin.REQUESTS, false, null),
    JOB_RESTORED(JobRestored.class, Origin.DECIDED, false, null),
    SAVEPOINT_DISPOSED(SavepointDisposed.class, Origin.DECIDED, false, null),
    STATE_DISCARDED(StateDiscarded.class, Origin.DECIDED, true, null),
    RESTORE_FAILED(RestoreFailed.class, Origin.ACKS, false, null),
    RESTORE_POINT_REJECTED(RestorePointRejected.class, Origin.DECIDED, true, null),
    RESCALE_JOB(RescaleJob.class, Origin.REQUESTS, false, null),
    REMOVE_JOB(RemoveJob.class, Origin.REQUESTS, false, null),
    JOB_REMOVED(JobRemoved.class, Origin.DECIDED, false, null),
    REQUEST_ADMITTED(RequestAdmitted.class, Origin.DECIDED, false, null);

    /** Where an event of a kind comes from. */
    public enum Origin {
        /** A record of {@code cairn.requests}: it becomes a {@link Command}. */
        REQUESTS,
        /** A record of {@code cairn.acks}: it becomes a {@link Command}. */
        ACKS,
        /** Emitted by the {@code CheckpointDecider} only. */
        DECIDED
    }

    /** The kind of each class, found once per class (the JDK's per-class cache: a read is a field load). */
    private static final ClassValue<Optional<EventKind>> BY_TYPE = new ClassValue<>() {
        @Override
        protected Optional<EventKind> computeValue(Class<?> type) {
            return Arrays.stream(values()).filter(kind -> kind.type == type).findFirst();
        }
    };

    private final Class<? extends SpecificRecord> type;
    private final Origin origin;
    private final boolean control;
    private final String timerField;

    EventKind(Class<? extends SpecificRecord> type, Origin origin, boolean control, String timerField) {
        this.type = type;
        this.origin = origin;
        this.control = control;
        this.timerField = timerField;
    }

    /**
     * The kind of a journal event.
     *
     * @throws IllegalArgumentException for {@code null} or an object of a type that is no journal event
     */
    public static EventKind of(Object event) {
        EventKind kind = event == null ? null : BY_TYPE.get(event.getClass()).orElse(null);
        if (kind == null) {
            throw new IllegalArgumentException("not a journal event: "
                    + (event == null ? "null" : event.getClass().getName()));
        }
        return kind;
    }

    /** The Avro class of the kind's events. */
    public Class<? extends SpecificRecord> type() {
        return type;
    }

    /** Where events of this kind come from. */
    public Origin origin() {
        return origin;
    }

    /** Whether events of this kind may go to sidecars ({@code SidecarNotifications} decides per event). */
    public boolean mayGoToSidecars() {
        return control;
    }

    /** Whether an event of this kind sets a timer (read with {@link EventFields#timerDueMs}). */
    public boolean setsTimer() {
        return timerField != null;
    }

    /** The field holding the moment of the timer events of this type set; {@code null} if none or no event type. */
    static String timerFieldOf(Class<?> type) {
        return BY_TYPE.get(type).map(kind -> kind.timerField).orElse(null);
    }
}
