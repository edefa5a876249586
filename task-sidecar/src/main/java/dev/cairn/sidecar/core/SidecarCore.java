package dev.cairn.sidecar.core;

import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.sidecar.core.SidecarAction.CancelSnapshot;
import dev.cairn.sidecar.core.SidecarAction.NotifyAborted;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishFinished;
import dev.cairn.sidecar.core.SidecarAction.PublishStarted;
import dev.cairn.sidecar.core.SidecarAction.SnapshotSkipped;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.core.Triggers.Planned;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.RestorePoint;
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

/**
 * The rules of one sidecar (one task attempt, or one coordinator-side participant), without Kafka, threads or
 * a clock: every input carries the time, every output is a {@link SidecarAction} for the shell to carry out.
 * Not thread-safe: the shell feeds it from one thread at a time.
 *
 * <p>Inputs: the control events of the job ({@link CheckpointTriggered}, {@link ParticipantsTriggered},
 * {@link CheckpointCompleted}, {@link CheckpointAborted}, {@link AckDiscarded}, {@link StateDiscarded},
 * {@link TaskStartRejected}), the discards seen on control before its position at start-up
 * ({@link #discardedBeforeStart}), the outcome of each snapshot (succeeded, failed, timed out) and the worker's end
 * ({@link #onFinish}).
 *
 * <p>Rules:
 * <ul>
 *   <li>A trigger concerns every running attempt of its job (the coordinator triggers only when every
 *       required subtask runs, and discards an ack of an attempt that is not the subtask's current one). The
 *       task's roles are those the trigger lists for it, or the default (all three): the attempt snapshots when
 *       its task is {@code triggered} or {@code acknowledges}, acks only when it {@code acknowledges}, and is
 *       told of the checkpoint's end when it is {@code notified}. A version 1 trigger, which also carries a
 *       plan, concerns the attempt only when the plan names it. Tasks ignore {@link ParticipantsTriggered}.</li>
 *   <li>A participant snapshots when a {@link ParticipantsTriggered} names it, answers with a
 *       {@code ParticipantAcknowledged} (its state, or none) or a {@code ParticipantDeclined} (the worker's
 *       reason, else CHECKPOINT_DECLINED), and is told how the checkpoint ended. It ignores
 *       {@link CheckpointTriggered} and the tasks' discarded acks and states, and never finishes.</li>
 *   <li>The hook is handed the trigger's options.</li>
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
 *   <li>Stop-with-savepoint: a completion whose options have a post-checkpoint action tells the worker the job
 *       is stopping (and whether it drained); from then on the sidecar takes no snapshot (queued ones are
 *       skipped without an answer, later triggers are ignored). An abort of a stop-with-savepoint tells the
 *       worker that the stop failed, so that it resumes.</li>
 *   <li>Finish (bounded input): {@link #onFinish}, or a snapshot answered with a finished result, publishes
 *       {@code TaskFinished} once, with the final state. Queued snapshots are then skipped without an answer
 *       (the coordinator counts a finished subtask as acknowledged) and later triggers start no snapshot; a
 *       notified task is still told how they end, since the first completion after its end holds its final
 *       state (a two-phase-commit sink commits its last transaction there). A running snapshot is still
 *       answered.</li>
 *   <li>Discards ({@link DiscardedStates}): of an {@link AckDiscarded} naming this attempt (or participant) with a
 *       state handle, its location and shared objects; of a {@link StateDiscarded}, the objects naming this subtask
 *       (any attempt's) or participant. Each goes to the worker at most once per checkpoint and location, and so do
 *       those seen on control shortly before the sidecar's position at start-up ({@link #discardedBeforeStart}).
 *       </li>
 *   <li>Rejected start: a {@link TaskStartRejected} naming this attempt, whose current attempt started no earlier
 *       than this attempt's latest announcement, announces the attempt again with a start after the current
 *       one ({@link #onStartRejected}); every other sidecar ignores it.</li>
 *   <li>Latest completed checkpoint: every snapshot request carries the newest checkpoint of the job the
 *       sidecar knows to be completed ({@link SnapshotRequest#latestCompletedId}): the restore point's to begin
 *       with (-1 without one), raised by every completion of the job read on control, whether or not this
 *       sidecar had a part in that checkpoint (stop-with-savepoints included), and by the newest completion the
 *       shell saw on control before its position at start-up ({@link #completedBeforeStart}), and never lowered
 *       by an older one read later. The shell takes its control position before it reads the restore point, and a job's
 *       completions and triggers travel in order, so a request counts every completion before its trigger: a
 *       worker restored from an older checkpoint than that learns it is behind, and declines.</li>
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
        final Planned planned;
        Phase phase;
        boolean answered;
        boolean ended;
        long startedAtMs;

        Tracked(Planned planned) {
            this.planned = planned;
            this.phase = planned.snapshots() ? Phase.QUEUED : Phase.DONE;
            this.answered = !planned.snapshots();
        }
    }

    private final SidecarIdentity identity;
    private final long snapshotTimeoutMs;
    private final Map<Long, Tracked> tracked = new LinkedHashMap<>();
    private final Deque<Long> queue = new ArrayDeque<>();
    private final RecentKeys<Long> ended = new RecentKeys<>(REMEMBERED_ENDED);
    private final DiscardedStates discarded;
    private final RestorePointWatch restorePoint = new RestorePointWatch();
    private Long running;
    private boolean finished;
    private boolean stopping;
    /** The newest completed checkpoint of the job known: the restore point's, then raised by completions. */
    private long latestCompletedId;
    /** A task's announcements of its attempt; {@code null} for a participant. */
    private final Announcements announcements;

    /**
     * A sidecar whose worker restored from nothing: it knows of no completed checkpoint until it reads one.
     *
     * @param identity the attempt or participant this sidecar stands for
     * @param snapshotTimeout how long one snapshot may take before the sidecar declines it
     */
    public SidecarCore(SidecarIdentity identity, Duration snapshotTimeout) {
        this(identity, snapshotTimeout, Optional.empty());
    }

    /**
     * @param identity the attempt or participant this sidecar stands for
     * @param snapshotTimeout how long one snapshot may take before the sidecar declines it
     * @param restoredFrom what the worker was handed to restore from at start: its checkpoint is the newest
     *     completed one the sidecar knows of until it reads a later completion
     */
    public SidecarCore(SidecarIdentity identity, Duration snapshotTimeout, Optional<RestorePoint> restoredFrom) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.latestCompletedId = restoredFrom.map(RestorePoint::checkpointId)
                .orElse(SnapshotRequest.NO_COMPLETED_CHECKPOINT);
        this.announcements = identity instanceof TaskAttempt attempt ? new Announcements(attempt) : null;
        this.discarded = new DiscardedStates(identity, restoredFrom.map(RestorePoint::parallelism).orElse(0));
        this.snapshotTimeoutMs = snapshotTimeout.toMillis();
        if (snapshotTimeoutMs <= 0) {
            throw new IllegalArgumentException("snapshot timeout must be positive, was " + snapshotTimeout);
        }
    }

    /** The attempt or participant this sidecar stands for. */
    public SidecarIdentity identity() {
        return identity;
    }

    /** The attempt this sidecar stands for; an {@link IllegalStateException} for a participant, which has none. */
    public TaskAttempt attempt() {
        if (identity instanceof TaskAttempt attempt) {
            return attempt;
        }
        throw new IllegalStateException(identity + " is a participant: it has no task attempt");
    }

    /** Dispatches one control event (a {@code ControlEnvelope}'s event); other jobs' events change nothing. */
    public List<SidecarAction> onControl(Object event, long nowMs) {
        if (event instanceof CheckpointTriggered trigger) {
            return onTrigger(trigger, nowMs);
        } else if (event instanceof ParticipantsTriggered trigger) {
            return onParticipantsTriggered(trigger, nowMs);
        } else if (event instanceof CheckpointCompleted completed) {
            return onCompleted(completed);
        } else if (event instanceof CheckpointAborted aborted) {
            return onAborted(aborted);
        } else if (event instanceof AckDiscarded discard) {
            return onAckDiscarded(discard);
        } else if (event instanceof StateDiscarded discard) {
            return onStateDiscarded(discard);
        } else if (event instanceof TaskStartRejected rejected) {
            return onStartRejected(rejected, nowMs);
        } else if (event instanceof RestorePointRejected rejected) {
            return restorePoint.onRejected(rejected, identity);
        }
        return List.of();
    }

    /** A checkpoint was triggered: a task queues its snapshot if it has a part, and starts it if idle. */
    public List<SidecarAction> onTrigger(CheckpointTriggered trigger, long nowMs) {
        return identity instanceof TaskAttempt attempt ? accept(Triggers.forTask(trigger, attempt), nowMs) : List.of();
    }

    /** The participants of a checkpoint were triggered: a participant it names queues its snapshot. */
    public List<SidecarAction> onParticipantsTriggered(ParticipantsTriggered trigger, long nowMs) {
        return identity instanceof Participant participant
                ? accept(Triggers.forParticipant(trigger, participant), nowMs) : List.of();
    }

    /**
     * A checkpoint completed: remember it as the newest completed one if it is newer, tell the worker (if
     * notified; stopping for a stop-with-savepoint) and drop its snapshot if it has not started. After a
     * stop-with-savepoint, no further snapshot is taken.
     */
    public List<SidecarAction> onCompleted(CheckpointCompleted completed) {
        if (!identity.jobId().equals(completed.getJobId())) {
            return List.of();
        }
        long id = completed.getCheckpointId();
        raiseLatestCompleted(id);
        CheckpointOptions options = CheckpointOptions.from(completed.getOptions());
        List<SidecarAction> actions = end(id, new NotifyComplete(id, completed.getLastSubsumedId(),
                options.synchronous(), options.drain()), "completed");
        if (options.synchronous() && !stopping) {
            stopping = true;
            skipQueued("the job is stopping: stop-with-savepoint " + id + " completed", actions);
        }
        return actions;
    }

    /**
     * A completion of the job was seen on control before this sidecar's position, at start-up (the newest one,
     * {@link RestoreCheck.Verdict#latestCompletedOnControl}): it counts towards {@link #latestCompletedId} as a
     * completion read on control does (never lowering it; {@link SnapshotRequest#NO_COMPLETED_CHECKPOINT} changes
     * nothing), and nothing else: it ended before this attempt, so the worker is not notified of it and a
     * stop-with-savepoint among them does not stop this attempt (the job was restarted since).
     */
    public void completedBeforeStart(long checkpointId) {
        raiseLatestCompleted(checkpointId);
    }

    /** The worker restored checkpoint {@code checkpointId} at start ({@code -1}: nothing). */
    public void restoredFrom(long checkpointId) {
        restorePoint.restored(checkpointId);
    }

    /** A checkpoint was aborted: tell the worker (if notified) and drop its snapshot if it has not started. */
    public List<SidecarAction> onAborted(CheckpointAborted aborted) {
        if (!identity.jobId().equals(aborted.getJobId())) {
            return List.of();
        }
        long id = aborted.getCheckpointId();
        boolean stopFailed = CheckpointOptions.from(aborted.getOptions()).synchronous();
        return end(id, new NotifyAborted(id, aborted.getLatestCompletedId(), stopFailed),
                "aborted (" + aborted.getReason() + ")");
    }

    /**
     * The coordinator discarded an ack: hand its state handle's location and its shared objects to the worker if it
     * is this attempt's, each once.
     */
    public List<SidecarAction> onAckDiscarded(AckDiscarded discard) {
        return discarded.onAck(discard, false);
    }

    /** The coordinator discarded a checkpoint's state: hand the objects of this subtask or participant over, once. */
    public List<SidecarAction> onStateDiscarded(StateDiscarded discard) {
        return discarded.onCheckpoint(discard);
    }

    /**
     * The job's {@link StateDiscarded} and {@link AckDiscarded} seen on control before this sidecar's position at
     * start-up, in their order there: hand the worker what names this subtask (a discarded ack of any attempt of it)
     * or this participant, each once; other events change nothing.
     */
    public List<SidecarAction> discardedBeforeStart(List<?> events) {
        List<SidecarAction> actions = new ArrayList<>();
        for (Object event : events) {
            if (event instanceof StateDiscarded discard) {
                actions.addAll(discarded.onCheckpoint(discard));
            } else if (event instanceof AckDiscarded discard) {
                actions.addAll(discarded.onAck(discard, true));
            }
        }
        return actions;
    }

    /** This attempt was announced ({@code TaskStarted}) with this start time; a participant has no attempt. */
    public void announced(long startedAtMs) {
        if (announcements != null) {
            announcements.announced(startedAtMs);
        }
    }

    /**
     * The coordinator did not take an announcement of this attempt ({@link Announcements}): announce it again,
     * starting after the subtask's current attempt, unless the notice is another attempt's or answered already.
     */
    public List<SidecarAction> onStartRejected(TaskStartRejected rejected, long nowMs) {
        return announcements == null ? List.of() : announcements.onRejected(rejected, nowMs)
                .<List<SidecarAction>>map(started -> List.of(new PublishStarted(started))).orElse(List.of());
    }

    /**
     * The worker finished for good (bounded input): publish {@code TaskFinished} with its final state, unless it
     * finished already, and skip the queued snapshots. An {@link IllegalStateException} for a participant.
     */
    public List<SidecarAction> onFinish(Optional<StateHandle> finalState, long nowMs) {
        List<SidecarAction> actions = new ArrayList<>();
        finishTask(attempt(), finalState, nowMs, actions);
        return actions;
    }

    /**
     * The hook returned a result for the running snapshot: ack it unless already declined (or publish
     * {@code TaskFinished} for a finished result), then start the next. A result the sidecar cannot answer is a
     * failure ({@link ResultChecks}): a task's result without a state handle location, a participant's finished
     * result or one naming shared objects, and malformed shared objects.
     */
    public List<SidecarAction> onSnapshotSucceeded(long checkpointId, SnapshotResult result, long nowMs) {
        Optional<AckEvents.Failure> problem = ResultChecks.problemOf(result, identity instanceof Participant);
        return problem.isPresent() ? finish(checkpointId, problem.get(), null, nowMs)
                : finish(checkpointId, null, result, nowMs);
    }

    /** The running snapshot failed (thrown, failed stage, or declined by the worker). */
    public List<SidecarAction> onSnapshotFailed(long checkpointId, Throwable error, long nowMs) {
        return finish(checkpointId, Answers.failureOf(identity, error), null, nowMs);
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
                actions.add(Answers.decline(identity, checkpointId,
                        new AckEvents.Failure(CheckpointFailureReason.CHECKPOINT_DECLINED,
                        "the snapshot did not finish within the sidecar's snapshot timeout of " + snapshotTimeoutMs
                                + " ms"), nowMs));
            }
        }
        actions.add(new CancelSnapshot(checkpointId));
        return actions;
    }

    /** Whether the subtask finished ({@code TaskFinished} was published). */
    public boolean isFinished() {
        return finished;
    }

    /** Whether a stop-with-savepoint completed: the job is stopping and no further snapshot is taken. */
    public boolean isStopping() {
        return stopping;
    }

    /**
     * The newest completed checkpoint of the job this sidecar knows of, which its next snapshot request carries:
     * the restore point's or a later completion read on control; -1 when none.
     */
    public long latestCompletedId() {
        return latestCompletedId;
    }

    /** Counts a completion of the job: the newest one known only ever rises. */
    private void raiseLatestCompleted(long checkpointId) {
        latestCompletedId = Math.max(latestCompletedId, checkpointId);
    }

    private List<SidecarAction> accept(Optional<Planned> plan, long nowMs) {
        if (plan.isEmpty() || stopping) {
            return List.of();
        }
        Planned planned = finished ? plan.get().notifyOnly() : plan.get();
        long id = planned.checkpointId();
        if (tracked.containsKey(id) || ended.contains(id) || !(planned.snapshots() || planned.notified())) {
            return List.of();
        }
        tracked.put(id, new Tracked(planned));
        List<SidecarAction> actions = new ArrayList<>();
        if (planned.snapshots()) {
            queue.addLast(id);
            startNext(nowMs, actions);
        }
        forgetOldest();
        return actions;
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
        if (failure == null && result.finished()) {
            entry.answered = true;
            finishTask(attempt(), AckEvents.stateOf(result), nowMs, actions);
        } else if (!entry.answered) {
            entry.answered = true;
            if (failure == null && entry.planned.acknowledges()) {
                actions.add(Answers.ack(identity, checkpointId, result, entry.startedAtMs - entry.planned.timestampMs(),
                        nowMs - entry.startedAtMs, nowMs));
            } else if (failure != null && !entry.ended) {
                actions.add(Answers.decline(identity, checkpointId, failure, nowMs));
            }
        }
        forgetIfEnded(checkpointId, entry);
        startNext(nowMs, actions);
        return actions;
    }

    private void finishTask(TaskAttempt attempt, Optional<StateHandle> finalState, long nowMs,
            List<SidecarAction> actions) {
        if (finished) {
            return;
        }
        finished = true;
        actions.add(new PublishFinished(AckEvents.finished(attempt, finalState, nowMs)));
        skipQueued("the subtask finished", actions);
    }

    /** Drops every queued snapshot without an answer (the sidecar snapshots no more). */
    private void skipQueued(String why, List<SidecarAction> actions) {
        for (Long id : queue) {
            Tracked entry = tracked.get(id);
            entry.phase = Phase.DONE;
            entry.answered = true;
            actions.add(new SnapshotSkipped(id, "checkpoint " + id + " will not be snapshotted: " + why));
        }
        queue.clear();
    }

    private List<SidecarAction> end(long checkpointId, SidecarAction notification, String how) {
        ended.add(checkpointId);
        List<SidecarAction> actions = new ArrayList<>();
        Tracked entry = tracked.get(checkpointId);
        if (entry == null || entry.ended) {
            return actions;
        }
        entry.ended = true;
        if (entry.phase == Phase.QUEUED) {
            queue.remove(checkpointId);
            entry.phase = Phase.DONE;
            actions.add(new SnapshotSkipped(checkpointId, "checkpoint " + checkpointId + " was " + how
                    + " before its snapshot started"));
        }
        if (entry.planned.notified()) {
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
        actions.add(new StartSnapshot(entry.planned.request(identity, latestCompletedId), nowMs + snapshotTimeoutMs));
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
}
