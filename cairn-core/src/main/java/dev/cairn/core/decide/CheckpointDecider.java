package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.contract.InputChecks;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.events.Command;
import dev.cairn.core.events.EventKind;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerRequest;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The pure core of the coordinator: {@code decide(command, state, now) -> events and their state changes},
 * with Flink 1.15+ CheckpointCoordinator semantics. It never mutates the given state: it decides on an
 * overlay ({@link dev.cairn.core.state.OverlayStorage}), applying each event it emits with {@link CheckpointEvolver} as
 * it goes, and returns the events with the changes; the caller sends the events and applies the changes
 * ({@link Decided#applyTo}). An ack that is accepted and leaves its checkpoint pending, which decides only itself, is
 * found on the state as it is, without an overlay. Replaying the events with {@link #evolver()} yields the same state
 * (the audit replay does that).
 */
public final class CheckpointDecider {

    private final CoordinatorSettings settings;
    private final CheckpointEvolver evolver;

    public CheckpointDecider(CoordinatorSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.evolver = new CheckpointEvolver(settings);
    }

    /** The evolver the shell (and an audit replay) applies the decided events with. */
    public CheckpointEvolver evolver() {
        return evolver;
    }

    /**
     * What {@code command} leads to at {@code nowMs}: no events and no changes when it changes nothing. A
     * {@link Command.Delivered} request is admitted first ({@link RequestAdmission}), then decided as its request.
     */
    public Decided decide(Command command, CoordinatorState state, long nowMs) {
        Command.Delivered delivered = command instanceof Command.Delivered request ? request : null;
        Command inner = delivered == null ? command : delivered.request();
        Optional<String> outOfBounds = InputChecks.problem(inner, settings.limits());
        if (outOfBounds.isEmpty() && inner instanceof Command.Acknowledge ack
                && TaskMessages.acceptedShortOfCompletion(state, ack.event())) {
            return Decided.of(ack.event(), evolver);
        }
        Decision d = new Decision(state, evolver, settings, nowMs);
        if (outOfBounds.isPresent()) {
            d.reject(inner.jobId(), inner, outOfBounds.get());
            return d.decided();
        }
        if (delivered != null && !RequestAdmission.admit(d, delivered)) {
            return d.decided();
        }
        if (inner instanceof Command.Input input) {
            decide(d, input);
        } else if (d.state.job(inner.jobId()).isPresent()) {
            tick(d, inner.jobId());
        }
        return d.decided();
    }

    /**
     * Registrations and task starts may come before the job, and a removal answers for an unknown job itself; every
     * other input needs the job.
     */
    private static void decide(Decision d, Command.Input command) {
        EventKind kind = command.kind();
        if (kind != EventKind.JOB_SPEC && kind != EventKind.TASK_STARTED && kind != EventKind.REMOVE_JOB
                && d.state.job(command.jobId()).isEmpty()) {
            d.reject(command.jobId(), command, Removals.unknownJob(d.state, command.jobId()));
            return;
        }
        step(kind).accept(d, command);
    }

    /** What an input of the kind decides; the steps capture nothing, so dispatching allocates nothing. */
    private static BiConsumer<Decision, Command.Input> step(EventKind kind) {
        return switch (kind) {
            case JOB_SPEC -> (d, c) -> register(d, (Command.RegisterJob) c);
            case JOB_STATUS_CHANGE -> (d, c) -> changeStatus(d, (Command.ChangeJobStatus) c);
            case TRIGGER_REQUEST -> (d, c) -> requestTrigger(d, c, (TriggerRequest) c.event());
            case TASK_STARTED -> (d, c) -> TaskAttempts.started(d, (TaskStarted) c.event());
            case CHECKPOINT_ACKNOWLEDGED -> (d, c) -> TaskMessages.acknowledge(d, c,
                    (CheckpointAcknowledged) c.event());
            case CHECKPOINT_DECLINED -> (d, c) -> TaskMessages.decline(d, c, (CheckpointDeclined) c.event());
            case TASK_FINISHED -> (d, c) -> TaskAttempts.finished(d, c, (TaskFinished) c.event());
            case PARTICIPANT_ACKNOWLEDGED -> (d, c) -> Participants.acknowledge(d, c,
                    (ParticipantAcknowledged) c.event());
            case PARTICIPANT_DECLINED -> (d, c) -> Participants.decline(d, c, (ParticipantDeclined) c.event());
            case RESTORE_JOB -> (d, c) -> Restores.restore(d, (Command.Restore) c);
            case RESCALE_JOB -> (d, c) -> Rescales.rescale(d, (Command.Rescale) c);
            case REMOVE_JOB -> (d, c) -> Removals.remove(d, (Command.Remove) c);
            case DISPOSE_SAVEPOINT -> (d, c) -> Restores.dispose(d, (Command.Dispose) c);
            case RESTORE_FAILED -> (d, c) -> RestoreFallbacks.failed(d, c, (RestoreFailed) c.event());
            case JOB_REMOVED, JOB_RESTORED, SAVEPOINT_DISPOSED, PARTICIPANTS_TRIGGERED, CHECKPOINT_TRIGGERED,
                    CHECKPOINT_COMPLETED, CHECKPOINT_ABORTED, ACK_DISCARDED, REQUEST_OUTCOME, JOB_FAILED,
                    PERIODIC_TRIGGER_SCHEDULED, PERIODIC_TRIGGER_STOPPED, REQUEST_QUEUED, REQUEST_DEQUEUED,
                    TRIGGER_FAILED, CHECKPOINT_FAILURE_COUNTED, COMMAND_REJECTED, TASK_START_REJECTED,
                    STATE_DISCARDED, RESTORE_POINT_REJECTED, REQUEST_ADMITTED ->
                    throw new IllegalArgumentException("a " + kind + " event is no input of the decider");
        };
    }

    private static void register(Decision d, Command.RegisterJob command) {
        Optional<String> invalid = JobSpecs.validate(command.event(), d.settings.limits());
        if (invalid.isPresent()) {
            d.reject(command.event().getJobId(), command, "invalid job spec: " + invalid.get());
            return;
        }
        String jobId = command.event().getJobId();
        Optional<JobSpec> existing = d.state.spec(jobId);
        JobSpec spec = JobSpecs.withMaxParallelism(command.event(), existing);
        invalid = JobSpecs.validate(spec, d.settings.limits()).or(() -> MaxParallelismChanges.problem(d, spec));
        if (invalid.isPresent()) {
            d.reject(jobId, command, "invalid job spec: " + invalid.get());
            return;
        }
        if (existing.isPresent() && JobSpecs.sameSpec(existing.get(), spec)) {
            return;
        }
        d.emit(spec);
        if (existing.isPresent()) {
            Aborts.abortAllPending(d, jobId, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND,
                    "job spec replaced");
        }
        if (d.job(jobId).getStatus() == JobStatus.RUNNING) {
            JobStatuses.schedule(d, jobId, d.now + JobSpecs.initialDelayMs(spec.getConfig(),
                    command.initialDelayFraction()));
            CheckpointRequestDecider.run(d, jobId);
        }
    }

    private static void changeStatus(Decision d, Command.ChangeJobStatus command) {
        JobStatusChange change = command.event();
        JobStatuses.change(d, change.getJobId(), change.getStatus(), command.initialDelayFraction(), null);
    }

    private static void requestTrigger(Decision d, Command command, TriggerRequest request) {
        if (request.getRequestId() == null || request.getRequestId().isBlank()) {
            d.reject(request.getJobId(), command, "request id is empty");
            return;
        }
        if (CheckpointRequestDecider.isKnownRequest(d.job(request.getJobId()), request.getRequestId())
                || d.state.request(request.getJobId(), request.getRequestId()).isPresent()) {
            return;
        }
        d.emit(request);
        CheckpointRequestDecider.submitManual(d, request);
        CheckpointRequestDecider.run(d, request.getJobId());
    }

    /** Expires overdue checkpoints, then fires a due periodic trigger; stale ticks change nothing. */
    private static void tick(Decision d, String jobId) {
        for (PendingCheckpoint expired : CheckpointRequestDecider.expired(d.job(jobId), d.now)) {
            Aborts.abort(d, jobId, expired, CheckpointFailureReason.CHECKPOINT_EXPIRED,
                    "Checkpoint " + expired.getCheckpointId() + " of job " + jobId + " expired before completing");
        }
        JobState job = d.job(jobId);
        Long due = job.getNextPeriodicDueMs();
        if (due != null && due <= d.now) {
            if (job.getStatus() == JobStatus.RUNNING) {
                JobStatuses.schedule(d, jobId, JobSpecs.nextFixedRateDue(due,
                        JobSpecs.effectiveIntervalMs(job.getConfig()), d.now));
            } else {
                d.emit(PeriodicTriggerStopped.newBuilder().setJobId(jobId).setTimestampMs(d.now).build());
            }
            CheckpointRequestDecider.submitPeriodic(d, jobId);
        }
        CheckpointRequestDecider.run(d, jobId);
    }
}
