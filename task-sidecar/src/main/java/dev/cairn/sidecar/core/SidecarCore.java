package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.TaskRoles;
import dev.cairn.sidecar.core.SidecarAction.CancelSnapshot;
import dev.cairn.sidecar.core.SidecarAction.NotifyAborted;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishDecline;
import dev.cairn.sidecar.core.SidecarAction.SnapshotSkipped;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The rules of one sidecar (one task attempt), without Kafka, threads or a clock: every input carries the
 * time, every output is a {@link SidecarAction} for the shell to carry out. Not thread-safe: the shell feeds
 * it from one thread at a time.
 *
 * <p>Inputs: the control events of the job ({@link CheckpointTriggered}, {@link CheckpointCompleted},
 * {@link CheckpointAborted}) and the outcome of each snapshot (succeeded, failed, timed out).
 *
 * <p>Rules:
 * <ul>
 *   <li>A trigger concerns every running attempt of its job: the coordinator triggers only when every
 *       required subtask runs, and discards (reporting the state handle) an ack of an attempt that is not
 *       the subtask's current one. The task's roles are those the trigger lists for it, or the default (all
 *       three) when it lists none: the attempt snapshots when its task is {@code triggered} or
 *       {@code acknowledges}, acks only when it {@code acknowledges}, and is told of the checkpoint's end when
 *       it is {@code notified}. A version 1 trigger, which carries a plan instead, concerns the attempt only
 *       when the plan names it.</li>
 *   <li>Snapshots run one at a time, in trigger order; later triggers wait in a queue. A queued snapshot
 *       whose checkpoint completes or aborts before it starts is skipped: no hook call, no ack.</li>
 *   <li>At most one ack or decline per checkpoint: a snapshot that times out is declined and cancelled, and
 *       its result, should it still arrive, is dropped. The next snapshot starts once the cancelled one has
 *       really finished, so the hook never runs two snapshots at once.</li>
 *   <li>A snapshot that succeeds after its checkpoint ended is still acked (the coordinator discards the ack
 *       and reports its state handle for clean-up); one that fails after the end is not declined (there is
 *       nothing left to decline).</li>
 *   <li>Complete and abort notifications are passed on at once, whatever snapshot is running, once per
 *       checkpoint.</li>
 *   <li>Start delay = trigger timestamp to hook start.</li>
 * </ul>
 */
public final class SidecarCore {

    /** How many ended checkpoint ids are remembered, to ignore late or repeated control events. */
    static final int REMEMBERED_ENDED = 1024;
    /** How many checkpoints awaiting their end are tracked at most (the oldest finished ones are forgotten). */
    static final int MAX_TRACKED = 1024;

    private enum Phase { QUEUED, RUNNING, DONE }

    private static final class Tracked {
        final CheckpointTriggered trigger;
        final boolean acknowledges;
        final boolean notified;
        Phase phase;
        boolean answered;
        boolean ended;
        long startedAtMs;

        Tracked(CheckpointTriggered trigger, boolean acknowledges, boolean notified, Phase phase) {
            this.trigger = trigger;
            this.acknowledges = acknowledges;
            this.notified = notified;
            this.phase = phase;
        }
    }

    private final TaskAttempt attempt;
    private final long snapshotTimeoutMs;
    private final Map<Long, Tracked> tracked = new LinkedHashMap<>();
    private final Deque<Long> queue = new ArrayDeque<>();
    private final Map<Long, Boolean> ended = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > REMEMBERED_ENDED;
        }
    };
    private Long running;

    /**
     * @param attempt the attempt this sidecar stands for
     * @param snapshotTimeout how long one snapshot may take before the sidecar declines it
     */
    public SidecarCore(TaskAttempt attempt, Duration snapshotTimeout) {
        this.attempt = Objects.requireNonNull(attempt, "attempt");
        this.snapshotTimeoutMs = snapshotTimeout.toMillis();
        if (snapshotTimeoutMs <= 0) {
            throw new IllegalArgumentException("snapshot timeout must be positive, was " + snapshotTimeout);
        }
    }

    public TaskAttempt attempt() {
        return attempt;
    }

    /** Dispatches one control event (a {@code ControlEnvelope}'s event); other jobs' events change nothing. */
    public List<SidecarAction> onControl(Object event, long nowMs) {
        if (event instanceof CheckpointTriggered trigger) {
            return onTrigger(trigger, nowMs);
        } else if (event instanceof CheckpointCompleted completed) {
            return onCompleted(completed);
        } else if (event instanceof CheckpointAborted aborted) {
            return onAborted(aborted);
        }
        return List.of();
    }

    /** A checkpoint was triggered: queue its snapshot if the plan includes this attempt, and start it if idle. */
    public List<SidecarAction> onTrigger(CheckpointTriggered trigger, long nowMs) {
        long id = trigger.getCheckpointId();
        if (!attempt.jobId().equals(trigger.getJobId()) || tracked.containsKey(id) || ended.containsKey(id)) {
            return List.of();
        }
        Optional<TaskRoles> roles = myRoles(trigger);
        if (roles.isEmpty()) {
            return List.of();
        }
        boolean snapshots = roles.get().getTriggered() || roles.get().getAcknowledges();
        if (!snapshots && !roles.get().getNotified()) {
            return List.of();
        }
        Tracked entry = new Tracked(trigger, roles.get().getAcknowledges(), roles.get().getNotified(),
                snapshots ? Phase.QUEUED : Phase.DONE);
        entry.answered = !snapshots;
        tracked.put(id, entry);
        List<SidecarAction> actions = new ArrayList<>();
        if (snapshots) {
            queue.addLast(id);
            startNext(nowMs, actions);
        }
        forgetOldest();
        return actions;
    }

    /** A checkpoint completed: tell the worker (if notified) and drop its snapshot if it has not started. */
    public List<SidecarAction> onCompleted(CheckpointCompleted completed) {
        if (!attempt.jobId().equals(completed.getJobId())) {
            return List.of();
        }
        return end(completed.getCheckpointId(), new NotifyComplete(completed.getCheckpointId(),
                completed.getLastSubsumedId()), "completed");
    }

    /** A checkpoint was aborted: tell the worker (if notified) and drop its snapshot if it has not started. */
    public List<SidecarAction> onAborted(CheckpointAborted aborted) {
        if (!attempt.jobId().equals(aborted.getJobId())) {
            return List.of();
        }
        return end(aborted.getCheckpointId(), new NotifyAborted(aborted.getCheckpointId(),
                aborted.getLatestCompletedId()), "aborted (" + aborted.getReason() + ")");
    }

    /**
     * The hook returned a result for the running snapshot: ack it unless already declined, then start the next.
     * A result without a state handle location is a failure.
     */
    public List<SidecarAction> onSnapshotSucceeded(long checkpointId, SnapshotResult result, long nowMs) {
        if (result == null || result.location() == null || result.location().isBlank()) {
            return finish(checkpointId, new AckEvents.Failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION,
                    "the snapshot hook returned no state handle location"), null, nowMs);
        }
        return finish(checkpointId, null, result, nowMs);
    }

    /** The running snapshot failed (thrown, failed stage, or declined by the worker). */
    public List<SidecarAction> onSnapshotFailed(long checkpointId, Throwable error, long nowMs) {
        return finish(checkpointId, AckEvents.failureOf(error), null, nowMs);
    }

    /**
     * The running snapshot passed its deadline: decline it (unless answered or ended) and cancel it. The
     * snapshot still occupies the hook until it reports success or failure.
     */
    public List<SidecarAction> onSnapshotTimedOut(long checkpointId, long nowMs) {
        Tracked entry = runningEntry(checkpointId);
        if (entry == null) {
            return List.of();
        }
        List<SidecarAction> actions = new ArrayList<>();
        if (!entry.answered) {
            entry.answered = true;
            if (!entry.ended) {
                actions.add(new PublishDecline(AckEvents.decline(attempt, checkpointId, new AckEvents.Failure(
                        CheckpointFailureReason.CHECKPOINT_DECLINED, "the snapshot did not finish within the "
                                + "sidecar's snapshot timeout of " + snapshotTimeoutMs + " ms"), nowMs)));
            }
        }
        actions.add(new CancelSnapshot(checkpointId));
        return actions;
    }

    /** The checkpoint whose snapshot the hook is running, if any. */
    public OptionalLong runningSnapshot() {
        return running == null ? OptionalLong.empty() : OptionalLong.of(running);
    }

    /** The checkpoints waiting for their snapshot, in trigger order. */
    public List<Long> queuedSnapshots() {
        return List.copyOf(queue);
    }

    private List<SidecarAction> finish(long checkpointId, AckEvents.Failure failure, SnapshotResult result,
            long nowMs) {
        Tracked entry = runningEntry(checkpointId);
        if (entry == null) {
            return List.of();
        }
        running = null;
        entry.phase = Phase.DONE;
        List<SidecarAction> actions = new ArrayList<>();
        if (!entry.answered) {
            entry.answered = true;
            if (failure == null && entry.acknowledges) {
                long startDelay = entry.startedAtMs - entry.trigger.getTimestampMs();
                actions.add(new PublishAck(AckEvents.ack(attempt, checkpointId, result, startDelay,
                        nowMs - entry.startedAtMs, nowMs)));
            } else if (failure != null && !entry.ended) {
                actions.add(new PublishDecline(AckEvents.decline(attempt, checkpointId, failure, nowMs)));
            }
        }
        forgetIfEnded(checkpointId, entry);
        startNext(nowMs, actions);
        return actions;
    }

    private List<SidecarAction> end(long checkpointId, SidecarAction notification, String how) {
        ended.put(checkpointId, Boolean.TRUE);
        Tracked entry = tracked.get(checkpointId);
        if (entry == null || entry.ended) {
            return List.of();
        }
        entry.ended = true;
        List<SidecarAction> actions = new ArrayList<>();
        if (entry.phase == Phase.QUEUED) {
            queue.remove(checkpointId);
            entry.phase = Phase.DONE;
            actions.add(new SnapshotSkipped(checkpointId, "checkpoint " + checkpointId + " was " + how
                    + " before its snapshot started"));
        }
        if (entry.notified) {
            actions.add(notification);
        }
        forgetIfEnded(checkpointId, entry);
        return actions;
    }

    private void startNext(long nowMs, List<SidecarAction> actions) {
        if (running != null) {
            return;
        }
        Long next = queue.pollFirst();
        if (next == null) {
            return;
        }
        Tracked entry = tracked.get(next);
        entry.phase = Phase.RUNNING;
        entry.startedAtMs = nowMs;
        running = next;
        CheckpointTriggered t = entry.trigger;
        actions.add(new StartSnapshot(new SnapshotRequest(next, t.getTimestampMs(), t.getType(),
                t.getStorageLocation(), attempt.jobId(), attempt.taskId(), attempt.subtaskIndex()),
                nowMs + snapshotTimeoutMs));
    }

    private Tracked runningEntry(long checkpointId) {
        return running != null && running == checkpointId ? tracked.get(checkpointId) : null;
    }

    private void forgetIfEnded(long checkpointId, Tracked entry) {
        if (entry.ended && entry.phase == Phase.DONE) {
            tracked.remove(checkpointId);
        }
    }

    /** Bounds memory when end notifications never come: forgets the oldest checkpoints with nothing left to run. */
    private void forgetOldest() {
        var it = tracked.entrySet().iterator();
        while (tracked.size() > MAX_TRACKED && it.hasNext()) {
            if (it.next().getValue().phase == Phase.DONE) {
                it.remove();
            }
        }
    }

    /** This task's roles in the checkpoint; empty when a version 1 plan does not name this attempt. */
    private Optional<TaskRoles> myRoles(CheckpointTriggered trigger) {
        if (trigger.getAcksExpected() < 0) {
            return planned(trigger);
        }
        for (TaskRoles roles : trigger.getRoles()) {
            if (roles.getTaskId().equals(attempt.taskId())) {
                return Optional.of(roles);
            }
        }
        return Optional.of(new TaskRoles(attempt.taskId(), true, true, true));
    }

    private Optional<TaskRoles> planned(CheckpointTriggered trigger) {
        for (PlannedVertex vertex : trigger.getPlan()) {
            if (vertex.getTaskId().equals(attempt.taskId())) {
                List<String> attempts = vertex.getAttemptIds();
                boolean mine = attempt.subtaskIndex() < attempts.size()
                        && attempt.attemptId().equals(attempts.get(attempt.subtaskIndex()));
                return mine ? Optional.of(new TaskRoles(vertex.getTaskId(), vertex.getTriggered(),
                        vertex.getAcknowledges(), vertex.getNotified())) : Optional.empty();
            }
        }
        return Optional.empty();
    }
}
