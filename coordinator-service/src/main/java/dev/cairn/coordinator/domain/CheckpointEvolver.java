package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.CheckpointCounts;
import dev.cairn.coordinator.state.CompletedTotals;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.events.RequestDequeued;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestQueued;
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
 * decision; every choice was made by {@link CheckpointDecider} and recorded in the event, so the
 * stores are exactly {@code fold(evolve, journal)}. A request's outcome is kept by {@link RequestRecorder}. Events
 * that change nothing (requests, discarded acks, rejections, declines whose abort follows, participants' declines)
 * are accepted and ignored.
 */
public final class CheckpointEvolver {

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

    /** Applies one event. */
    public void evolve(CoordinatorState state, SpecificRecord event) {
        if (event instanceof JobSpec e) {
            onJobSpec(state, e);
        } else if (event instanceof JobStatusChange e) {
            update(state, e.getJobId(), j -> j.setStatus(e.getStatus()));
        } else if (event instanceof TaskStarted e) {
            onTaskStarted(state, e);
        } else if (event instanceof TaskFinished e) {
            onTaskFinished(state, e);
        } else if (event instanceof ParticipantsTriggered e) {
            onParticipantsTriggered(state, e);
        } else if (event instanceof ParticipantAcknowledged e) {
            update(state, e.getJobId(), j -> j.setPending(withPending(j.getPending(), e.getCheckpointId(),
                    p -> p.setParticipantStates(with(p.getParticipantStates(),
                            new ParticipantState(e.getParticipant(), e.getState()))))));
        } else if (event instanceof CheckpointAcknowledged e) {
            onAck(state, e);
        } else if (event instanceof CheckpointTriggered e) {
            onTriggered(state, e);
        } else if (event instanceof CheckpointCompleted e) {
            onCompleted(state, e);
        } else if (event instanceof CheckpointAborted e) {
            onAborted(state, e);
        } else if (event instanceof PeriodicTriggerScheduled e) {
            update(state, e.getJobId(), j -> j.setNextPeriodicDueMs(e.getDueAtMs()));
        } else if (event instanceof PeriodicTriggerStopped e) {
            update(state, e.getJobId(), j -> j.setNextPeriodicDueMs(null));
        } else if (event instanceof RequestQueued e) {
            onQueued(state, e);
        } else if (event instanceof RequestOutcome e) {
            requests.outcome(state, e);
        } else if (event instanceof RequestDequeued e) {
            update(state, e.getJobId(), j -> j.setQueue(withoutRequest(j.getQueue(), e.getSequence())));
        } else if (event instanceof TriggerFailed e) {
            update(state, e.getJobId(), j -> j.setCounts(counts(j, 0, 0, 0, 1)));
        } else if (event instanceof CheckpointFailureCounted e) {
            update(state, e.getJobId(), j -> {
                j.setConsecutiveFailures(e.getConsecutiveFailures());
                j.setCountedFailureIds(bounded(j.getCountedFailureIds(), e.getCheckpointId()));
            });
        } else if (event instanceof JobFailed e && e.getConsecutiveFailures() > e.getTolerableFailures()) {
            // The failure manager clears its counter when the threshold fails the job, not when a failed
            // stop-with-savepoint does (that failure carries the counter as it was, never above the threshold).
            update(state, e.getJobId(), j -> {
                j.setConsecutiveFailures(0);
                j.setCountedFailureIds(new ArrayList<>());
            });
        }
    }

    /**
     * Stores the spec and its vertices, one key each: writes the vertices that are new or changed and removes
     * those the new spec dropped (O(vertices), once per registration). The job keeps only the config.
     */
    private static void onJobSpec(CoordinatorState state, JobSpec spec) {
        String jobId = spec.getJobId();
        Map<String, TaskVertex> previous = new HashMap<>();
        state.spec(jobId).ifPresent(p -> p.getTasks().forEach(v -> previous.put(v.getTaskId(), v)));
        for (TaskVertex vertex : spec.getTasks()) {
            if (!vertex.equals(previous.remove(vertex.getTaskId()))) {
                state.putVertex(jobId, vertex);
            }
        }
        previous.keySet().forEach(dropped -> state.removeVertex(jobId, dropped));
        state.putSpec(spec);
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

    /** A new attempt replaces the old one; a finished subtask that starts again is no longer finished. */
    private static void onTaskStarted(CoordinatorState state, TaskStarted e) {
        state.putAttempt(e.getJobId(), e.getTaskId(), e.getSubtaskIndex(), e.getAttemptId());
        if (state.finished(e.getJobId(), e.getTaskId(), e.getSubtaskIndex()).isPresent()) {
            state.removeFinished(e.getJobId(), e.getTaskId(), e.getSubtaskIndex());
            if (FinishedTasks.isRequiredSubtask(state, e.getJobId(), e.getTaskId(), e.getSubtaskIndex())) {
                update(state, e.getJobId(), j -> j.setFinishedSubtasks(j.getFinishedSubtasks() - 1));
            }
        }
    }

    private static void onTaskFinished(CoordinatorState state, TaskFinished e) {
        state.putFinished(e);
        if (FinishedTasks.isRequiredSubtask(state, e.getJobId(), e.getTaskId(), e.getSubtaskIndex())) {
            update(state, e.getJobId(), j -> j.setFinishedSubtasks(j.getFinishedSubtasks() + 1));
        }
    }

    /** The checkpoint is pending from now on; its tasks are triggered once every participant has answered. */
    private static void onParticipantsTriggered(CoordinatorState state, ParticipantsTriggered e) {
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

    /** An accepted ack changes only its own key (its checkpoint's progress follows from the acks). */
    private static void onAck(CoordinatorState state, CheckpointAcknowledged ack) {
        state.putAck(ack);
    }

    /** Creates the pending checkpoint, or, after its participants answered, records that its tasks are triggered. */
    private static void onTriggered(CoordinatorState state, CheckpointTriggered e) {
        int acksExpected = e.getAcksExpected() >= 0 ? e.getAcksExpected() : JobSpecs.acksExpected(e.getPlan());
        Optional<PendingCheckpoint> started = state.job(e.getJobId()).flatMap(j -> pending(j, e.getCheckpointId()));
        if (started.isPresent()) {
            update(state, e.getJobId(), j -> j.setPending(withPending(j.getPending(), e.getCheckpointId(), p -> {
                p.setAcksExpected(acksExpected);
                p.setFinishedSubtasks(e.getFinishedSubtasks());
                p.setFinishedStateBytes(e.getFinishedStateBytes());
            })));
            return;
        }
        PendingCheckpoint pending = newPending(e.getCheckpointId(), e.getType(), e.getPeriodic(), e.getForce(),
                e.getTimestampMs(), e.getTimeoutAtMs(), e.getStorageLocation(), e.getRequestId(), e.getOptions())
                .setAcksExpected(acksExpected)
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
        Optional<PendingCheckpoint> pending = pending(job.get(), e.getCheckpointId());
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
            state.putRetained(Retention.retain(state.retained(e.getJobId()), e,
                    job.get().getConfig().getRetained()));
        }
        history.completed(state, next, pending, progress, e);
        long previous = job.get().getLatestCompletedId();
        if (e.getType() != CheckpointType.SAVEPOINT && previous >= 0 && previous < e.getCheckpointId()
                && !next.getHistoryIds().contains(previous)) {
            state.removeAcks(e.getJobId(), previous);
        }
        state.putJob(next);
    }

    private void onAborted(CoordinatorState state, CheckpointAborted e) {
        Optional<JobState> job = state.job(e.getJobId());
        if (job.isEmpty()) {
            return;
        }
        Optional<PendingCheckpoint> pending = pending(job.get(), e.getCheckpointId());
        CheckpointProgress progress = state.progress(e.getJobId(), e.getCheckpointId());
        JobState next = Values.copy(job.get(), JobState::new);
        next.setPending(without(job.get().getPending(), e.getCheckpointId()));
        next.setRecentlyEndedIds(bounded(job.get().getRecentlyEndedIds(), e.getCheckpointId()));
        next.setCounts(counts(job.get(), 0, pending.isPresent() ? -1 : 0, 0, 1));
        history.aborted(state, next, pending, progress, e);
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
    private static void update(CoordinatorState state, String jobId, Consumer<JobState> change) {
        state.job(jobId).ifPresent(job -> {
            JobState next = Values.copy(job, JobState::new);
            change.accept(next);
            state.putJob(next);
        });
    }

    static Optional<PendingCheckpoint> pending(JobState job, long checkpointId) {
        for (PendingCheckpoint pending : job.getPending()) {
            if (pending.getCheckpointId() == checkpointId) {
                return Optional.of(pending);
            }
        }
        return Optional.empty();
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
        return counts(job.getCounts(), triggered, inProgress, completed, failed);
    }

    private static CheckpointCounts counts(CheckpointCounts c, long triggered, long inProgress, long completed,
            long failed) {
        return CheckpointCounts.newBuilder()
                .setTriggered(c.getTriggered() + triggered)
                .setInProgress(c.getInProgress() + inProgress)
                .setCompleted(c.getCompleted() + completed)
                .setFailed(c.getFailed() + failed)
                .build();
    }
}
