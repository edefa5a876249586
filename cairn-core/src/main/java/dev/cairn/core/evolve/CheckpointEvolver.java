package dev.cairn.core.evolve;

import dev.cairn.coordinator.state.CheckpointCounts;
import dev.cairn.coordinator.state.CompletedTotals;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.EventKind;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.FinishedTasks;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.core.state.RequestOrder;
import dev.cairn.core.state.SharedStates;
import dev.cairn.core.state.StateKeys.VertexKey;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.RequestAdmitted;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.SavepointDisposed;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerFailed;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * Applies one journal event to the state: the only place where state changes. It takes no
 * decision; every choice was made by {@code CheckpointDecider} and recorded in the event, so the
 * stores are exactly {@code fold(evolve, journal)}. A request's outcome is kept by {@link RequestRecorder}, a task's
 * start and its end by {@link SubtaskRecorder}, a job's removal by {@link RemovalRecorder}. An
 * accepted ack changes only its own key (its checkpoint's progress follows from the acks) and the reference counts of
 * the shared objects it names ({@link SharedStates}), which a checkpoint that stops being kept releases. Events
 * that change nothing (requests, discarded acks, rejections, declines whose abort follows, participants' declines)
 * are accepted and ignored.
 */
public final class CheckpointEvolver {

    private static final Step NOTHING = (self, s, e) -> { };

    private final CoordinatorSettings settings;
    private final HistoryRecorder history;
    private final RequestRecorder requests;

    public CheckpointEvolver(CoordinatorSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.history = new HistoryRecorder(settings);
        this.requests = new RequestRecorder(settings);
    }

    /** Applies every event in order. */
    public void fold(CoordinatorState state, Iterable<? extends SpecificRecord> events) {
        for (SpecificRecord event : events) {
            evolve(state, event);
        }
    }

    /**
     * Applies one event.
     *
     * @throws IllegalArgumentException when the event is of no {@link EventKind}: a journal this build cannot
     *     read must stop the replay, not be skipped
     */
    public void evolve(CoordinatorState state, SpecificRecord event) {
        change(EventKind.of(event)).apply(this, state, event);
    }

    /**
     * What an event of the kind does to the state. The steps capture nothing, so each is one constant object and
     * applying an event allocates nothing to dispatch it.
     */
    private static Step change(EventKind kind) {
        return switch (kind) {
            case JOB_SPEC -> (self, s, e) -> onJobSpec(s, (JobSpec) e);
            case JOB_STATUS_CHANGE -> (self, s, e) -> onStatus(s, (JobStatusChange) e);
            case TASK_STARTED -> (self, s, e) -> SubtaskRecorder.started(s, (TaskStarted) e);
            case TASK_FINISHED -> (self, s, e) -> SubtaskRecorder.finished(s, (TaskFinished) e);
            case PARTICIPANTS_TRIGGERED -> (self, s, e) -> onParticipantsTriggered(s, (ParticipantsTriggered) e);
            case PARTICIPANT_ACKNOWLEDGED -> (self, s, e) -> onParticipantAck(s, (ParticipantAcknowledged) e);
            case CHECKPOINT_ACKNOWLEDGED -> (self, s, e) -> onAck(s, (CheckpointAcknowledged) e);
            case CHECKPOINT_TRIGGERED -> (self, s, e) -> onTriggered(s, (CheckpointTriggered) e);
            case CHECKPOINT_COMPLETED -> (self, s, e) -> self.onCompleted(s, (CheckpointCompleted) e);
            case CHECKPOINT_ABORTED -> (self, s, e) -> self.onAborted(s, (CheckpointAborted) e);
            case PERIODIC_TRIGGER_SCHEDULED -> (self, s, e) -> onScheduled(s, (PeriodicTriggerScheduled) e);
            case PERIODIC_TRIGGER_STOPPED -> (self, s, e) -> onStopped(s, (PeriodicTriggerStopped) e);
            case REQUEST_QUEUED -> (self, s, e) -> onQueued(s, (RequestQueued) e);
            case REQUEST_OUTCOME -> (self, s, e) -> {
                self.requests.outcome(s, (RequestOutcome) e);
                RescaleRecorder.outcome(s, (RequestOutcome) e);
            };
            case REQUEST_DEQUEUED -> (self, s, e) -> onDequeued(s, (RequestDequeued) e);
            case TRIGGER_FAILED -> (self, s, e) -> update(s, ((TriggerFailed) e).getJobId(),
                    j -> j.setCounts(counts(j, 0, 0, 0, 1)));
            case CHECKPOINT_FAILURE_COUNTED -> (self, s, e) -> self.onFailureCounted(s, (CheckpointFailureCounted) e);
            case JOB_FAILED -> (self, s, e) -> self.onJobFailed(s, (JobFailed) e);
            case JOB_RESTORED -> (self, s, e) -> {
                RestoreCounter.restored(s, ((JobRestored) e).getJobId(), ((JobRestored) e).getRestorePoint(),
                        ((JobRestored) e).getTimestampMs());
                RestorePointRecorder.restored(s, (JobRestored) e);
                RescaleRecorder.restored(s, ((JobRestored) e).getJobId(), ((JobRestored) e).getRequestId());
            };
            case SAVEPOINT_DISPOSED -> (self, s, e) -> RestorePointRecorder.disposed(s, (SavepointDisposed) e);
            case RESTORE_POINT_REJECTED -> (self, s, e) -> {
                RestoreCounter.restored(s, ((RestorePointRejected) e).getJobId(),
                        ((RestorePointRejected) e).getFallback(), ((RestorePointRejected) e).getTimestampMs());
                RestorePointRecorder.rejected(s, (RestorePointRejected) e);
            };
            case RESCALE_JOB -> (self, s, e) -> RescaleRecorder.requested(s, (RescaleJob) e);
            case JOB_REMOVED -> (self, s, e) -> RemovalRecorder.removed(s, (JobRemoved) e);
            case REQUEST_ADMITTED -> (self, s, e) -> AdmissionRecorder.admitted(s, (RequestAdmitted) e);
            case REMOVE_JOB, RESTORE_JOB, DISPOSE_SAVEPOINT, TRIGGER_REQUEST, CHECKPOINT_DECLINED, PARTICIPANT_DECLINED,
                    ACK_DISCARDED, COMMAND_REJECTED, TASK_START_REJECTED, STATE_DISCARDED, RESTORE_FAILED -> NOTHING;
        };
    }

    /** One kind's change of the state. */
    @FunctionalInterface
    private interface Step {
        void apply(CheckpointEvolver evolver, CoordinatorState state, SpecificRecord event);
    }

    /** An accepted ack: its own key, and a reference to each shared object it names. */
    private static void onAck(CoordinatorState state, CheckpointAcknowledged e) {
        state.putAck(e);
        SharedStates.register(state, e);
    }

    private static void onStatus(CoordinatorState state, JobStatusChange e) {
        update(state, e.getJobId(), j -> j.setStatus(e.getStatus()));
    }

    private static void onParticipantAck(CoordinatorState state, ParticipantAcknowledged e) {
        update(state, e.getJobId(), j -> j.setPending(withPending(j.getPending(), e.getCheckpointId(),
                p -> p.setParticipantStates(with(p.getParticipantStates(),
                        new ParticipantState(e.getParticipant(), e.getState()))))));
    }

    private static void onScheduled(CoordinatorState state, PeriodicTriggerScheduled e) {
        update(state, e.getJobId(), j -> j.setNextPeriodicDueMs(e.getDueAtMs()));
    }

    private static void onStopped(CoordinatorState state, PeriodicTriggerStopped e) {
        update(state, e.getJobId(), j -> j.setNextPeriodicDueMs(null));
    }

    private static void onDequeued(CoordinatorState state, RequestDequeued e) {
        update(state, e.getJobId(), j -> j.setQueue(withoutRequest(j.getQueue(), e.getSequence())));
    }

    private void onFailureCounted(CoordinatorState state, CheckpointFailureCounted e) {
        update(state, e.getJobId(), j -> {
            j.setConsecutiveFailures(e.getConsecutiveFailures());
            j.setCountedFailureIds(bounded(j.getCountedFailureIds(), e.getCheckpointId()));
        });
    }

    /**
     * The failure manager clears its counter when the threshold fails the job, not when a failed stop-with-savepoint
     * does (that failure carries the counter as it was, never above the threshold).
     */
    private void onJobFailed(CoordinatorState state, JobFailed e) {
        if (e.getConsecutiveFailures() > e.getTolerableFailures()) {
            update(state, e.getJobId(), j -> {
                j.setConsecutiveFailures(0);
                j.setCountedFailureIds(new ArrayList<>());
            });
        }
    }

    /**
     * Stores the spec and its vertices, one key each: writes the vertices that are new or changed and removes
     * those the new spec dropped (O(vertices), once per registration). The job keeps only the config. A new job's
     * checkpoint ids start above those of a job removed under its id.
     */
    private static void onJobSpec(CoordinatorState state, JobSpec spec) {
        String jobId = spec.getJobId();
        Map<String, TaskVertex> previous = new HashMap<>();
        state.spec(jobId).ifPresent(p -> p.getTasks().forEach(v -> previous.put(v.getTaskId(), v)));
        for (TaskVertex vertex : spec.getTasks()) {
            if (!vertex.equals(previous.remove(vertex.getTaskId()))) {
                state.put(StateTable.VERTICES, new VertexKey(jobId, vertex.getTaskId()), vertex);
            }
        }
        previous.keySet().forEach(dropped -> state.remove(StateTable.VERTICES, new VertexKey(jobId, dropped)));
        state.put(StateTable.SPECS, jobId, spec);
        Optional<JobState> existing = state.job(jobId);
        if (existing.isPresent()) {
            JobState next = Values.copy(existing.get(), JobState::new);
            next.setConfig(spec.getConfig());
            next.setRequiredSubtasks(FinishedTasks.required(spec));
            next.setFinishedSubtasks(FinishedTasks.countFinished(state, spec));
            state.putJob(next);
            return;
        }
        state.putJob(JobState.newBuilder()
                .setJobId(jobId)
                .setConfig(spec.getConfig())
                .setStatus(JobStatus.RUNNING)
                .setNextCheckpointId(RemovalRecorder.firstCheckpointId(state, jobId))
                .setQueue(new ArrayList<>())
                .setPending(new ArrayList<>())
                .setCountedFailureIds(new ArrayList<>())
                .setRecentlyEndedIds(new ArrayList<>())
                .setCounts(CheckpointCounts.newBuilder().build())
                .setHistoryIds(new ArrayList<>())
                .setHistoryRequestIds(new ArrayList<>())
                .setTotals(CompletedTotals.newBuilder().build())
                .setRequiredSubtasks(FinishedTasks.required(spec))
                .setFinishedSubtasks(0)
                .build());
    }

    /**
     * The checkpoint is pending from now on, or, when it is pending already, it asks more participants (the master
     * hooks, after the participants); its tasks are triggered once every participant asked has answered.
     */
    private static void onParticipantsTriggered(CoordinatorState state, ParticipantsTriggered e) {
        if (state.job(e.getJobId()).flatMap(j -> PendingCheckpoints.find(j, e.getCheckpointId())).isPresent()) {
            update(state, e.getJobId(), j -> j.setPending(withPending(j.getPending(), e.getCheckpointId(),
                    p -> p.setParticipants(withAll(p.getParticipants(), e.getParticipants())))));
            return;
        }
        PendingCheckpoint pending = newPending(e.getCheckpointId(), e.getType(), e.getPeriodic(), e.getForce(),
                e.getTimestampMs(), e.getTimeoutAtMs(), e.getStorageLocation(), e.getRequestId(), e.getOptions())
                .setAcksExpected(0)
                .setParticipants(e.getParticipants())
                .setFinishedSubtasks(0)
                .setFinishedStateBytes(0)
                .build();
        update(state, e.getJobId(), j -> addPending(j, pending));
    }

    /** What every pending checkpoint starts with, whether its participants or its tasks are asked first. */
    private static PendingCheckpoint.Builder newPending(long id, CheckpointType type, boolean periodic, boolean force,
            long triggeredAt, long timeoutAt, String location, String requestId, SnapshotOptions options) {
        return PendingCheckpoint.newBuilder()
                .setCheckpointId(id)
                .setType(type)
                .setPeriodic(periodic)
                .setForce(force)
                .setTriggerTimestampMs(triggeredAt)
                .setTimeoutAtMs(timeoutAt)
                .setStorageLocation(location)
                .setRequestId(requestId)
                .setOptions(options)
                .setParticipants(new ArrayList<>())
                .setParticipantStates(new ArrayList<>());
    }

    /** Creates the pending checkpoint, or, after its participants answered, records that its tasks are triggered. */
    private static void onTriggered(CoordinatorState state, CheckpointTriggered e) {
        Optional<PendingCheckpoint> started = state.job(e.getJobId())
                .flatMap(j -> PendingCheckpoints.find(j, e.getCheckpointId()));
        if (started.isPresent()) {
            update(state, e.getJobId(), j -> j.setPending(withPending(j.getPending(), e.getCheckpointId(), p -> {
                p.setAcksExpected(e.getAcksExpected());
                p.setFinishedSubtasks(e.getFinishedSubtasks());
                p.setFinishedStateBytes(e.getFinishedStateBytes());
            })));
            return;
        }
        PendingCheckpoint pending = newPending(e.getCheckpointId(), e.getType(), e.getPeriodic(), e.getForce(),
                e.getTimestampMs(), e.getTimeoutAtMs(), e.getStorageLocation(), e.getRequestId(), e.getOptions())
                .setAcksExpected(e.getAcksExpected())
                .setFinishedSubtasks(e.getFinishedSubtasks())
                .setFinishedStateBytes(e.getFinishedStateBytes())
                .build();
        update(state, e.getJobId(), j -> addPending(j, pending));
    }

    private static void addPending(JobState job, PendingCheckpoint pending) {
        List<PendingCheckpoint> pendings = new ArrayList<>(job.getPending());
        pendings.add(pending);
        pendings.sort(Comparator.comparingLong(PendingCheckpoint::getCheckpointId));
        job.setPending(pendings);
        job.setNextCheckpointId(Math.max(job.getNextCheckpointId(), pending.getCheckpointId() + 1));
        job.setCounts(counts(job, 1, 1, 0, 0));
    }

    /** The pending checkpoints with one of them replaced by a changed copy. */
    private static List<PendingCheckpoint> withPending(List<PendingCheckpoint> pendings, long checkpointId,
            Consumer<PendingCheckpoint> change) {
        List<PendingCheckpoint> result = new ArrayList<>(pendings.size());
        for (PendingCheckpoint p : pendings) {
            if (p.getCheckpointId() == checkpointId) {
                PendingCheckpoint next = Values.copy(p, PendingCheckpoint::new);
                change.accept(next);
                result.add(next);
            } else {
                result.add(p);
            }
        }
        return result;
    }

    private static <T> List<T> withAll(List<T> list, List<T> elements) {
        List<T> result = new ArrayList<>(list);
        result.addAll(elements);
        return result;
    }

    private static <T> List<T> with(List<T> list, T element) {
        List<T> result = new ArrayList<>(list);
        result.add(element);
        return result;
    }

    private void onCompleted(CoordinatorState state, CheckpointCompleted e) {
        Optional<JobState> job = state.job(e.getJobId());
        if (job.isEmpty()) {
            return;
        }
        Optional<PendingCheckpoint> pending = PendingCheckpoints.find(job.get(), e.getCheckpointId());
        CheckpointProgress progress = state.progress(e.getJobId(), e.getCheckpointId());
        JobState next = Values.copy(job.get(), JobState::new);
        next.setPending(without(job.get().getPending(), e.getCheckpointId()));
        next.setLastSucceededId(Math.max(job.get().getLastSucceededId(), e.getCheckpointId()));
        next.setLastCompletionMs(e.getCompletionTimestampMs());
        next.setConsecutiveFailures(0);
        next.setCountedFailureIds(new ArrayList<>());
        next.setRecentlyEndedIds(bounded(job.get().getRecentlyEndedIds(), e.getCheckpointId()));
        next.setCounts(counts(job.get(), 0, pending.isPresent() ? -1 : 0, 1, 0));
        if (e.getType() != CheckpointType.SAVEPOINT) {
            next.setLatestCompletedId(Math.max(job.get().getLatestCompletedId(), e.getCheckpointId()));
        }
        history.completed(state, next, pending, progress, e);
        RestorePointRecorder.completed(state, next, e);
        state.putJob(next);
    }

    private void onAborted(CoordinatorState state, CheckpointAborted e) {
        Optional<JobState> job = state.job(e.getJobId());
        if (job.isEmpty()) {
            return;
        }
        Optional<PendingCheckpoint> pending = PendingCheckpoints.find(job.get(), e.getCheckpointId());
        CheckpointProgress progress = state.progress(e.getJobId(), e.getCheckpointId());
        JobState next = Values.copy(job.get(), JobState::new);
        next.setPending(without(job.get().getPending(), e.getCheckpointId()));
        next.setRecentlyEndedIds(bounded(job.get().getRecentlyEndedIds(), e.getCheckpointId()));
        next.setCounts(counts(job.get(), 0, pending.isPresent() ? -1 : 0, 0, 1));
        if (pending.isPresent()) {
            SharedStates.release(state, e.getJobId(), e.getCheckpointId());
        }
        history.aborted(state, next, pending, progress, e);
        state.acksSettled(e.getJobId(), e.getCheckpointId());
        state.putJob(next);
    }

    private static void onQueued(CoordinatorState state, RequestQueued e) {
        QueuedRequest request = QueuedRequest.newBuilder()
                .setSequence(e.getSequence())
                .setRequestId(e.getRequestId())
                .setType(e.getType())
                .setForce(e.getForce())
                .setPeriodic(e.getPeriodic())
                .setTargetLocation(e.getTargetLocation())
                .setTimestampMs(e.getTimestampMs())
                .setRequestedOptions(e.getRequestedOptions())
                .setPostCheckpointAction(e.getPostCheckpointAction())
                .build();
        update(state, e.getJobId(), j -> {
            List<QueuedRequest> queue = new ArrayList<>(j.getQueue());
            queue.add(request);
            queue.sort(RequestOrder.HEAD_FIRST);
            j.setQueue(queue);
            j.setNextRequestSequence(Math.max(j.getNextRequestSequence(), e.getSequence() + 1));
        });
    }

    /** Puts a changed copy of the job, if it exists. */
    static void update(CoordinatorState state, String jobId, Consumer<JobState> change) {
        state.job(jobId).ifPresent(job -> {
            JobState next = Values.copy(job, JobState::new);
            change.accept(next);
            state.putJob(next);
        });
    }

    private static List<PendingCheckpoint> without(List<PendingCheckpoint> pendings, long checkpointId) {
        List<PendingCheckpoint> result = new ArrayList<>(pendings);
        result.removeIf(p -> p.getCheckpointId() == checkpointId);
        return result;
    }

    private static List<QueuedRequest> withoutRequest(List<QueuedRequest> queue, long sequence) {
        List<QueuedRequest> result = new ArrayList<>(queue);
        result.removeIf(r -> r.getSequence() == sequence);
        return result;
    }

    private List<Long> bounded(List<Long> ids, long id) {
        List<Long> result = new ArrayList<>(ids);
        if (!result.contains(id)) {
            result.add(id);
        }
        while (result.size() > settings.recentlyEndedSize()) {
            result.remove(0);
        }
        return result;
    }

    private static CheckpointCounts counts(JobState job, long triggered, long inProgress, long completed,
            long failed) {
        CheckpointCounts c = job.getCounts();
        return CheckpointCounts.newBuilder(c)
                .setTriggered(c.getTriggered() + triggered)
                .setInProgress(c.getInProgress() + inProgress)
                .setCompleted(c.getCompleted() + completed)
                .setFailed(c.getFailed() + failed)
                .build();
    }
}
