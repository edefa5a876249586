package dev.cairn.kit.align;

import dev.cairn.kit.align.Step.DropReason;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Aligns the barriers of one task's input channels (Flink's aligned checkpoints), pure: no Kafka types, no clock,
 * no I/O. The task tells it what arrives on each channel ({@link #onData}, {@link #onBarrier}, {@link #onResume})
 * and that a checkpoint was aborted ({@link #cancel}); each call answers the {@link Step}s to carry out, in order.
 * Not thread-safe: one task thread owns it.
 *
 * <ul>
 *   <li>Exactly-once ({@link Alignment#EXACTLY_ONCE}): once a channel delivered barrier N, its later data and
 *       barriers are held back, in arrival order, until barrier N arrived on every channel (a resume record is
 *       taken at once: it ends the alignment); then {@link Step.Snapshot} (with the
 *       {@link InputPositions} of the barriers), then the held-back inputs are released in order (they may hold
 *       barrier N+1, which starts the next alignment at once).</li>
 *   <li>At-least-once ({@link Alignment#AT_LEAST_ONCE}, as barrier N says): nothing is held back; the snapshot is
 *       taken when the last channel delivers barrier N. A channel may then deliver barrier N+1 before another
 *       delivered N, so several checkpoints can be counting at once; when one is taken, the older ones still
 *       counting are declined as subsumed (Flink's barrier tracker does the same).</li>
 *   <li>A barrier of a newer checkpoint on a channel that has not delivered barrier N of the alignment in progress
 *       means N can no longer align (its upstream skipped it): {@link Step.Decline} of N, and the newer alignment
 *       starts (Flink does the same). A resume record on a live channel that has not delivered barrier N (its
 *       upstream restarted) declines every checkpoint still waiting for that channel.</li>
 *   <li>Barriers of a checkpoint already taken, declined, aborted or older than the restored one, and a channel's
 *       second barrier of the same checkpoint, are dropped ({@link DropReason#STALE_BARRIER}).</li>
 *   <li>Generations: every upstream incarnation writes a resume record (its generation and the checkpoint it
 *       restored from) before its records; the channel's data and barriers of an older generation are dropped
 *       ({@link DropReason#STALE_GENERATION}). A resume of a newer generation whose incarnation restored from the
 *       same checkpoint as this task, before this task took anything of the channel, is adopted. Otherwise this
 *       task's state took records the restarted upstream will write again (or misses ones it will not), and the
 *       answer is {@link Step.Rollback}: the task restores its own snapshot of the upstream's restore point and
 *       reads again from there (a resume restored from an older checkpoint than this task's is an upstream that
 *       restarts once more: its records are skipped). So a restart of any task rolls back exactly its downstream
 *       tasks, each to the same checkpoint, and the job resumes from one consistent cut.</li>
 *   <li>An input at or before the last offset seen on its channel is dropped ({@link DropReason#REPLAYED}); after a
 *       restore that covers the records {@link InputPositions#reflectedThrough} reflected in the snapshot.</li>
 * </ul>
 *
 * <p>The task reads a record with {@link dev.cairn.kit.wire.KitRecords#read}, turns the partition and the
 * {@code from} header into a {@link Channel} and calls the matching method; a malformed record never reaches the
 * aligner (it is dead-lettered with its reason), and neither should a {@link DropReason#badInput() bad} drop's.
 *
 * <p>Held-back records stay in memory until the alignment ends (a task cannot pause one channel of a partition
 * without pausing the others). Unaligned checkpoints are not supported: see {@link Alignment}.
 *
 * @param <R> the task's record type, handed back untouched in {@link Step.Deliver}
 */
public final class BarrierAligner<R> {

    private final Map<Channel, ChannelState> channels = new LinkedHashMap<>();
    private final Deque<Input<R>> held = new ArrayDeque<>();
    private final NavigableMap<Long, Pending> pending = new TreeMap<>();
    private final NavigableSet<Long> aborted = new TreeSet<>();
    /**
     * The oldest checkpoint this task's state may roll back to: the one it was restored from (-1: the initial
     * state), raised by every completed checkpoint it took.
     */
    private long base;
    private long lastCheckpoint;
    private long newestBarrier = -1;
    private long skipThrough = -1;
    private boolean spent;

    private BarrierAligner(Collection<Channel> inputs, InputPositions positions, long restoredCheckpoint,
            Map<Channel, Long> minimumGenerations) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a task aligns at least one input channel");
        }
        for (Channel channel : inputs) {
            channels.put(channel, new ChannelState(positions.reflectedThrough(channel),
                    minimumGenerations.getOrDefault(channel, -1L)));
        }
        this.base = restoredCheckpoint;
        this.lastCheckpoint = restoredCheckpoint;
    }

    /** A fresh start: every channel accepts every generation, nothing seen yet. */
    public static <R> BarrierAligner<R> fresh(Collection<Channel> channels) {
        return new BarrierAligner<>(channels, InputPositions.NONE, -1, Map.of());
    }

    /**
     * A task restored from {@code checkpointId}, reading again from the positions: records reflected in the
     * snapshot are dropped as replayed, and each channel accepts its upstream's records from the generation in
     * {@code minimumGenerations} on (any generation for a channel not named). After a {@link Step.Rollback}, pass
     * the old aligner's {@link #generationsAfter}: the restarted upstream's channels at its minimum generation, the
     * other channels as they were.
     *
     * @param checkpointId the checkpoint the task's state is restored from, -1 for the initial state
     */
    public static <R> BarrierAligner<R> restored(Collection<Channel> channels, InputPositions positions,
            long checkpointId, Map<Channel, Long> minimumGenerations) {
        return new BarrierAligner<>(channels, positions, checkpointId, minimumGenerations);
    }

    /** A data record of upstream generation {@code generation} at {@code offset} on {@code channel}. */
    public List<Step<R>> onData(Channel channel, long offset, long generation, R record) {
        return run(new Input.Data<>(channel, offset, generation, record));
    }

    /** Barrier {@code checkpointId} of upstream generation {@code generation} at {@code offset} on {@code channel}. */
    public List<Step<R>> onBarrier(Channel channel, long offset, long checkpointId, long generation,
            Alignment alignment) {
        return run(new Input.Barrier<>(channel, offset, checkpointId, generation, alignment));
    }

    /**
     * A resume record: {@code channel}'s upstream started an incarnation of generation {@code generation},
     * restored from checkpoint {@code restoredFrom} (-1: a fresh start).
     */
    public List<Step<R>> onResume(Channel channel, long offset, long generation, long restoredFrom) {
        return run(new Input.Resume<>(channel, offset, generation, restoredFrom));
    }

    /**
     * Checkpoint {@code checkpointId} was aborted: an alignment of it ends and its held-back records are released
     * (as deliveries, in order); its barriers that are still to come are dropped.
     */
    public List<Step<R>> cancel(long checkpointId) {
        requireLive();
        List<Step<R>> steps = new ArrayList<>();
        Deque<Input<R>> work = new ArrayDeque<>();
        if (checkpointId > lastCheckpoint) {
            aborted.add(checkpointId);
        }
        Pending cancelled = pending.remove(checkpointId);
        if (cancelled != null && cancelled.aligned()) {
            release(work);
        }
        drain(work, steps);
        return steps;
    }

    /**
     * Checkpoint {@code checkpointId} completed. If this task took it, the task never rolls back before it: a
     * restarted upstream that restored an older checkpoint is behind, and its records are skipped.
     */
    public void completed(long checkpointId) {
        if (checkpointId <= lastCheckpoint) {
            base = Math.max(base, checkpointId);
        }
    }

    /** The newest checkpoint whose barrier arrived from a current upstream incarnation, -1 before any. */
    public long newestBarrier() {
        return newestBarrier;
    }

    /**
     * Barriers of checkpoints up to {@code checkpointId} are stale from now on: after a {@link Step.Rollback}, the
     * old aligner's {@link #newestBarrier()}. Those checkpoints were taken or declined before the rollback, and the
     * restarted upstream never writes their barriers again, so aligning them anew would only hold records back.
     */
    public void skipThrough(long checkpointId) {
        skipThrough = Math.max(skipThrough, checkpointId);
    }

    /** The oldest checkpoint whose barriers are arriving, or -1. */
    public long aligning() {
        return pending.isEmpty() ? -1 : pending.firstKey();
    }

    /** How many inputs are held back. */
    public int heldBack() {
        return held.size();
    }

    /**
     * The generation each channel accepts now: what a new aligner after a {@link Step.Rollback} starts from (with
     * the rolled-back channel's minimum put in).
     */
    public Map<Channel, Long> generations() {
        Map<Channel, Long> generations = new LinkedHashMap<>();
        channels.forEach((channel, state) -> generations.put(channel, state.generation()));
        return generations;
    }

    /**
     * The generation each channel accepts after {@code rollback}, for the task's new aligner: {@link #generations()},
     * with every channel of the restarted upstream subtask (the rollback channel's topic and upstream index, in any
     * partition) at the rollback's minimum generation at least. An upstream incarnation writes its resume record into
     * every partition, so its resume in another partition is then taken as announced, and the records its
     * predecessor wrote there after the restore point are dropped as {@link Step.DropReason#STALE_GENERATION},
     * instead of each partition's resume rolling the task back once more.
     */
    public Map<Channel, Long> generationsAfter(Step.Rollback<R> rollback) {
        Channel restarted = rollback.channel();
        Map<Channel, Long> generations = generations();
        generations.replaceAll((channel, generation) -> channel.upstream() == restarted.upstream()
                && channel.partition().topic().equals(restarted.partition().topic())
                ? Math.max(generation, rollback.minimumGeneration()) : generation);
        return generations;
    }

    /** Whether a {@link Step.Rollback} ended this aligner: the task builds a new one. */
    public boolean rolledBack() {
        return spent;
    }

    private void requireLive() {
        if (spent) {
            throw new IllegalStateException("this aligner answered a rollback; the task restores its state and "
                    + "builds a new aligner");
        }
    }

    private List<Step<R>> run(Input<R> input) {
        requireLive();
        List<Step<R>> steps = new ArrayList<>();
        ChannelState state = channels.get(input.channel());
        if (state == null) {
            steps.add(new Step.Drop<>(input.channel(), input.offset(), DropReason.UNKNOWN_CHANNEL));
        } else if (!state.advanceTo(input.offset())) {
            steps.add(new Step.Drop<>(input.channel(), input.offset(), DropReason.REPLAYED));
        } else {
            Deque<Input<R>> work = new ArrayDeque<>();
            work.add(input);
            drain(work, steps);
        }
        return steps;
    }

    private void drain(Deque<Input<R>> work, List<Step<R>> steps) {
        while (!work.isEmpty() && !spent) {
            Input<R> input = work.poll();
            if (!(input instanceof Input.Resume<R>) && holdsBack(input.channel())) {
                channels.get(input.channel()).markDelivered();
                held.add(input);
                steps.add(new Step.HoldBack<>(input.channel(), input.offset()));
                continue;
            }
            ChannelState state = channels.get(input.channel());
            if (input instanceof Input.Data<R> data) {
                if (state.accepts(data.generation())) {
                    state.markDelivered();
                    steps.add(new Step.Deliver<>(data.channel(), data.offset(), data.record()));
                } else {
                    steps.add(new Step.Drop<>(data.channel(), data.offset(), DropReason.STALE_GENERATION));
                }
            } else if (input instanceof Input.Barrier<R> barrier) {
                onBarrier(barrier, state, work, steps);
            } else if (input instanceof Input.Resume<R> resume) {
                onResume(resume, state, work, steps);
            }
        }
    }

    /** Whether the exactly-once alignment in progress (at most one) has had its barrier from {@code channel}. */
    private boolean holdsBack(Channel channel) {
        for (Pending counting : pending.values()) {
            if (counting.aligned() && counting.delivered(channel)) {
                return true;
            }
        }
        return false;
    }

    private boolean stale(long id, Channel channel) {
        Pending counting = pending.get(id);
        return id <= lastCheckpoint || id <= skipThrough || aborted.contains(id)
                || counting != null && counting.delivered(channel)
                || counting == null && !pending.isEmpty() && id < pending.lastKey();
    }

    private void onBarrier(Input.Barrier<R> barrier, ChannelState state, Deque<Input<R>> work, List<Step<R>> steps) {
        if (!state.accepts(barrier.generation())) {
            steps.add(new Step.Drop<>(barrier.channel(), barrier.offset(), DropReason.STALE_GENERATION));
            return;
        }
        long id = barrier.checkpointId();
        Channel channel = barrier.channel();
        newestBarrier = Math.max(newestBarrier, id);
        if (stale(id, channel)) {
            steps.add(new Step.Drop<>(channel, barrier.offset(), DropReason.STALE_BARRIER));
            return;
        }
        declineWaitingFor(channel, pending.headMap(id, false), Pending::aligned, "barrier " + id + " arrived on "
                + channel + " before barrier %d arrived on every channel", work, steps);
        Pending counting = pending.computeIfAbsent(id, newId -> new Pending(newId, barrier.alignment()));
        counting.deliver(channel, barrier.offset());
        state.markDelivered();
        int missing = channels.size() - counting.barriers();
        if (missing > 0) {
            steps.add(new Step.AwaitBarriers<>(id, missing));
            return;
        }
        steps.add(new Step.Snapshot<>(id, counting.alignment(), InputPositions.afterBarriers(counting.offsets())));
        pending.remove(id);
        for (Iterator<Pending> older = pending.headMap(id, false).values().iterator(); older.hasNext(); ) {
            steps.add(new Step.Decline<>(older.next().checkpointId(), "subsumed by checkpoint " + id));
            older.remove();
        }
        lastCheckpoint = id;
        aborted.headSet(id, true).clear();
        release(work);
    }

    /**
     * A resume record. An older generation than the channel's is stale; the same one is the resume already taken
     * (read again after a rollback). A newer one is a restarted upstream, restored from {@code restoredFrom}:
     * <ul>
     *   <li>restored from an older checkpoint than this task's state ({@code base}): the upstream is behind (a
     *       newer checkpoint completed after it chose its restore point) and restarts again; this incarnation's
     *       records are not taken (the channel accepts only newer ones), and if this task took records of the
     *       channel already, it rolls back to its own state;</li>
     *   <li>restored from a newer checkpoint, or this task took records of the channel's previous incarnation
     *       since its state was restored: the task rolls back to the checkpoint the upstream restored from;</li>
     *   <li>otherwise (same checkpoint, nothing of the channel taken yet) the generation is adopted, and the
     *       checkpoints still waiting for the channel's barrier go on waiting: the new incarnation registered with the
     *       coordinator before it wrote its resume record, so it delivers the barrier of every checkpoint planned with
     *       it, after the records its state does not hold; a checkpoint planned with its predecessor, never
     *       acknowledged, is aborted by the coordinator when the new attempt registers (or overtaken by the
     *       channel's next barrier), which ends the wait.</li>
     * </ul>
     */
    private void onResume(Input.Resume<R> resume, ChannelState state, Deque<Input<R>> work, List<Step<R>> steps) {
        long generation = resume.generation();
        long restoredFrom = resume.restoredFrom();
        if (generation < state.generation()) {
            steps.add(new Step.Drop<>(resume.channel(), resume.offset(), DropReason.STALE_GENERATION));
        } else if (restoredFrom < base) {
            rollBackOrSkip(resume, state, steps, generation + 1, "restored from checkpoint " + restoredFrom
                    + ", older than checkpoint " + base + " this task's state is at: it restarts again");
        } else if (generation == state.generation()) {
            steps.add(new Step.Resumed<>(resume.channel(), generation));
        } else if (restoredFrom > base || state.delivered()) {
            rollBack(steps, restoredFrom, resume.channel(), generation, "the upstream of " + resume.channel()
                    + " restarted from checkpoint " + restoredFrom + " (generation " + generation + ")");
        } else {
            state.announce(generation);
            steps.add(new Step.Resumed<>(resume.channel(), generation));
        }
    }

    private void rollBackOrSkip(Input.Resume<R> resume, ChannelState state, List<Step<R>> steps,
            long minimumGeneration, String why) {
        if (state.delivered()) {
            rollBack(steps, base, resume.channel(), minimumGeneration, "the upstream of " + resume.channel()
                    + " was " + why);
        } else {
            state.announce(minimumGeneration);
            steps.add(new Step.Drop<>(resume.channel(), resume.offset(), DropReason.UPSTREAM_BEHIND));
        }
    }

    private void rollBack(List<Step<R>> steps, long target, Channel channel, long minimumGeneration, String reason) {
        for (Pending waiting : pending.values()) {
            steps.add(new Step.Decline<>(waiting.checkpointId(), reason));
        }
        pending.clear();
        held.clear();
        steps.add(new Step.Rollback<>(target, channel, minimumGeneration, reason));
        spent = true;
    }

    /**
     * Declines the checkpoints of {@code candidates} that {@code which} selects and that wait for {@code channel}'s
     * barrier; if the exactly-once alignment is among them, its held-back inputs go first into the work.
     */
    private void declineWaitingFor(Channel channel, Map<Long, Pending> candidates,
            Predicate<Pending> which, String reason, Deque<Input<R>> work, List<Step<R>> steps) {
        for (Iterator<Pending> it = candidates.values().iterator(); it.hasNext(); ) {
            Pending waiting = it.next();
            if (which.test(waiting) && !waiting.delivered(channel)) {
                steps.add(new Step.Decline<>(waiting.checkpointId(), String.format(reason, waiting.checkpointId())));
                aborted.add(waiting.checkpointId());
                it.remove();
                if (waiting.aligned()) {
                    release(work);
                }
            }
        }
    }

    /** Puts the held-back inputs, in their order, in front of the work. */
    private void release(Deque<Input<R>> work) {
        while (!held.isEmpty()) {
            work.addFirst(held.pollLast());
        }
    }
}
