package dev.cairn.core.events;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerRequest;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * An input of the decider: a record from {@code cairn.requests} or {@code cairn.acks} ({@link Input}, made by
 * {@link #of}), or a timer tick. Random values are drawn by the shell and passed in, so that
 * {@code CheckpointDecider.decide} stays a pure function.
 */
public sealed interface Command {

    /** The job this command is about; the shell keys records by it. */
    String jobId();

    /**
     * The command an input event becomes.
     *
     * @param random drawn from (once) for the commands that may schedule the first periodic trigger
     * @throws IllegalArgumentException when the event is no event of {@code cairn.requests} or {@code cairn.acks}
     */
    static Input of(Object event, DoubleSupplier random) {
        EventKind kind = EventKind.of(event);
        return switch (kind) {
            case JOB_SPEC -> new RegisterJob((JobSpec) event, random.getAsDouble());
            case JOB_STATUS_CHANGE -> new ChangeJobStatus((JobStatusChange) event, random.getAsDouble());
            case TRIGGER_REQUEST -> new RequestTrigger((TriggerRequest) event);
            case TASK_STARTED -> new StartTask((TaskStarted) event);
            case CHECKPOINT_ACKNOWLEDGED -> new Acknowledge((CheckpointAcknowledged) event);
            case CHECKPOINT_DECLINED -> new Decline((CheckpointDeclined) event);
            case TASK_FINISHED -> new FinishTask((TaskFinished) event);
            case PARTICIPANT_ACKNOWLEDGED -> new AcknowledgeParticipant((ParticipantAcknowledged) event);
            case PARTICIPANT_DECLINED -> new DeclineParticipant((ParticipantDeclined) event);
            case RESTORE_JOB -> new Restore((RestoreJob) event, random.getAsDouble());
            case DISPOSE_SAVEPOINT -> new Dispose((DisposeSavepoint) event);
            case RESTORE_FAILED -> new FailRestore((RestoreFailed) event);
            case RESCALE_JOB -> new Rescale((RescaleJob) event, random.getAsDouble());
            case REMOVE_JOB -> new Remove((RemoveJob) event);
            case JOB_REMOVED, JOB_RESTORED, SAVEPOINT_DISPOSED, PARTICIPANTS_TRIGGERED, CHECKPOINT_TRIGGERED,
                    CHECKPOINT_COMPLETED, CHECKPOINT_ABORTED, ACK_DISCARDED, REQUEST_OUTCOME, JOB_FAILED,
                    PERIODIC_TRIGGER_SCHEDULED, PERIODIC_TRIGGER_STOPPED, REQUEST_QUEUED, REQUEST_DEQUEUED,
                    TRIGGER_FAILED, CHECKPOINT_FAILURE_COUNTED, COMMAND_REJECTED, TASK_START_REJECTED,
                    STATE_DISCARDED, RESTORE_POINT_REJECTED, REQUEST_ADMITTED ->
                    throw new IllegalArgumentException("a " + kind + " event is decided by the coordinator, not sent"
                            + " to it");
        };
    }

    /** A command that carries one event of {@code cairn.requests} or {@code cairn.acks}: its job is the event's. */
    sealed interface Input extends Command {

        /** The event (never {@code null}: a command without one fails on first use). */
        SpecificRecord event();

        /** The kind of {@link #event()}. */
        default EventKind kind() {
            return EventKind.of(event());
        }

        @Override
        default String jobId() {
            return EventFields.jobId(Objects.requireNonNull(event(), "a command without an event"));
        }
    }

    /**
     * Registers a job or replaces its spec.
     *
     * @param initialDelayFraction a random value in [0, 1) mapping to the first periodic trigger delay
     *     in [minPause, interval], both included as in Flink
     */
    record RegisterJob(JobSpec event, double initialDelayFraction) implements Input {
    }

    /**
     * The job left or entered RUNNING.
     *
     * @param initialDelayFraction as for {@link RegisterJob}: used when the job enters RUNNING
     */
    record ChangeJobStatus(JobStatusChange event, double initialDelayFraction) implements Input {
    }

    /** A manual checkpoint or savepoint request. */
    record RequestTrigger(TriggerRequest event) implements Input {
    }

    /** A subtask attempt started (replacing any earlier attempt of that subtask). */
    record StartTask(TaskStarted event) implements Input {
    }

    /** A subtask acknowledged a checkpoint. */
    record Acknowledge(CheckpointAcknowledged event) implements Input {
    }

    /** A subtask declined a checkpoint. */
    record Decline(CheckpointDeclined event) implements Input {
    }

    /** A subtask finished for good: it is no longer triggered and counts as acknowledged. */
    record FinishTask(TaskFinished event) implements Input {
    }

    /** A coordinator-side participant snapshotted its state for a checkpoint. */
    record AcknowledgeParticipant(ParticipantAcknowledged event) implements Input {
    }

    /** A coordinator-side participant could not snapshot its state for a checkpoint. */
    record DeclineParticipant(ParticipantDeclined event) implements Input {
    }

    /**
     * Resumes a job that is not running from a point it keeps.
     *
     * @param initialDelayFraction as for {@link RegisterJob}: used when the job enters RUNNING
     */
    record Restore(RestoreJob event, double initialDelayFraction) implements Input {
    }

    /**
     * Changes the parallelism of some of a job's tasks: a stop-with-savepoint first when the job is RUNNING, then a
     * resume from that savepoint (or from the latest restore point of a job that is not RUNNING).
     *
     * @param initialDelayFraction as for {@link RegisterJob}: used when the job enters RUNNING
     */
    record Rescale(RescaleJob event, double initialDelayFraction) implements Input {
    }

    /** Removes a job that is not RUNNING: its state leaves the stores, its checkpoint id counter stays. */
    record Remove(RemoveJob event) implements Input {
    }

    /** Disposes of one of a job's savepoints. */
    record Dispose(DisposeSavepoint event) implements Input {
    }

    /** A subtask could not restore its state from the job's restore point. */
    record FailRestore(RestoreFailed event) implements Input {
    }

    /**
     * A request as {@code cairn.requests} delivered it: the decider admits it (it is fresh, and nothing under its key
     * was admitted within the window before) and only then decides {@link #request()}.
     *
     * @param appendedAtMs when the broker appended the record (the record timestamp of a topic with
     *     {@code message.timestamp.type=LogAppendTime}), or {@link #UNKNOWN_TIME}: then only its key is checked
     */
    record Delivered(Input request, long appendedAtMs) implements Command {

        /** The append time of a request whose record timestamp is not known. */
        public static final long UNKNOWN_TIME = Long.MIN_VALUE;

        public Delivered {
            Objects.requireNonNull(request, "request");
            if (request.kind().origin() != EventKind.Origin.REQUESTS) {
                throw new IllegalArgumentException("only requests are delivered with their append time, not a "
                        + request.kind());
            }
        }

        @Override
        public String jobId() {
            return request.jobId();
        }
    }

    /** Something of the job may be due (a checkpoint timeout or the periodic trigger). */
    record Tick(String jobId) implements Command {
        public Tick {
            Objects.requireNonNull(jobId, "jobId");
        }
    }
}
