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
 *   <li>Exactly-once ({@link Alignment#EXACTLY_ONCE}): once a channel delivered barrier N, its later inputs are held
 *       back, in arrival order, until barrier N arrived on every channel; then {@link Step.Snapshot} (with the
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
 *   <li>Generations: a resume record announces the upstream's new generation; the channel's data and barriers of
 *       an older generation are dropped ({@link DropReason#STALE_GENERATION}). A record of a newer generation than
 *       announced (its resume record unseen, say the task started after it) is taken as announcing it.</li>
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
    private long lastCheckpoint;

    private BarrierAligner(Collection<Channel> inputs, InputPositions positions, long restoredCheckpoint,
            boolean awaitResume) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a task aligns at least one input channel");
        }
        long generation = awaitResume ? restoredCheckpoint : -1;
        for (Channel channel : inputs) {
            channels.put(channel, new ChannelState(positions.reflectedThrough(channel), generation, awaitResume));
        }
        this.lastCheckpoint = restoredCheckpoint;
    }
    /** A fresh start: every channel is live, generation -1, nothing seen yet. */
    public static <R> BarrierAligner<R> fresh(Collection<Channel> channels) {
        return new BarrierAligner<>(channels, InputPositions.NONE, -1, false);
    }

    /**
     * A task restored from {@code checkpointId} whose upstream tasks restored from it too (a global restore): each
     * channel's records are dropped until the upstream's resume record of generation {@code checkpointId} or newer
     * arrives (the records in between were written by a crashed incarnation after barrier {@code checkpointId},
     * and the restored upstream writes them again). Records reflected in the snapshot are dropped as replayed.
     *
     * <p>Limitation: the kit's source task gives every incarnation a greater generation (at least the clock's
     * milliseconds, so above any checkpoint id), but this aligner accepts the first resume of {@code checkpointId}
     * or newer it reads. After two restores from the same checkpoint, a task restored the second time may read the
     * first restored incarnation's resume record first and accept that incarnation's records until the second
     * one's resume arrives. The generation to wait for has to come from the restore itself (a job-wide restore
     * epoch both sides know); the aligner only compares generations as numbers.
     */
    public static <R> BarrierAligner<R> restoredWithUpstream(Collection<Channel> channels, InputPositions positions,
            long checkpointId) {
        return new BarrierAligner<>(channels, positions, checkpointId, true);
    }

    /**
     * A task restored from {@code checkpointId} alone, its upstream tasks still running: replaying from the
     * positions yields the records that were held back at the snapshot and everything after them, each once.
     */
    public static <R> BarrierAligner<R> restoredAlone(Collection<Channel> channels, InputPositions positions,
            long checkpointId) {
        return new BarrierAligner<>(channels, positions, checkpointId, false);
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

    /** A resume record: {@code channel}'s upstream restarted as generation {@code generation}. */
    public List<Step<R>> onResume(Channel channel, long offset, long generation) {
        return run(new Input.Resume<>(channel, offset, generation));
    }

    /**
     * Checkpoint {@code checkpointId} was aborted: an alignment of it ends and its held-back records are released
     * (as deliveries, in order); its barriers that are still to come are dropped.
     */
    public List<Step<R>> cancel(long checkpointId) {
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

    /** The oldest checkpoint whose barriers are arriving, or -1. */
    public long aligning() {
        return pending.isEmpty() ? -1 : pending.firstKey();
    }

    /** How many inputs are held back. */
    public int heldBack() {
        return held.size();
    }

    private List<Step<R>> run(Input<R> input) {
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
        while (!work.isEmpty()) {
            Input<R> input = work.poll();
            if (holdsBack(input.channel())) {
                held.add(input);
                steps.add(new Step.HoldBack<>(input.channel(), input.offset()));
                continue;
            }
            ChannelState state = channels.get(input.channel());
            if (input instanceof Input.Data<R> data) {
                steps.add(state.accepts(data.generation())
                        ? new Step.Deliver<>(data.channel(), data.offset(), data.record())
                        : drop(data, state));
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

    private Step<R> drop(Input<R> input, ChannelState state) {
        DropReason reason = state.awaitingResume() ? DropReason.AWAITING_RESUME : DropReason.STALE_GENERATION;
        return new Step.Drop<>(input.channel(), input.offset(), reason);
    }

    private boolean stale(long id, Channel channel) {
        Pending counting = pending.get(id);
        return id <= lastCheckpoint || aborted.contains(id) || counting != null && counting.delivered(channel)
                || counting == null && !pending.isEmpty() && id < pending.lastKey();
    }

    private void onBarrier(Input.Barrier<R> barrier, ChannelState state, Deque<Input<R>> work, List<Step<R>> steps) {
        if (!state.accepts(barrier.generation())) {
            steps.add(drop(barrier, state));
            return;
        }
        long id = barrier.checkpointId();
        Channel channel = barrier.channel();
        if (stale(id, channel)) {
            steps.add(new Step.Drop<>(channel, barrier.offset(), DropReason.STALE_BARRIER));
            return;
        }
        declineWaitingFor(channel, pending.headMap(id, false), Pending::aligned, "barrier " + id + " arrived on "
                + channel + " before barrier %d arrived on every channel", work, steps);
        Pending counting = pending.computeIfAbsent(id, newId -> new Pending(newId, barrier.alignment()));
        counting.deliver(channel, barrier.offset());
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

    private void onResume(Input.Resume<R> resume, ChannelState state, Deque<Input<R>> work, List<Step<R>> steps) {
        boolean expected = state.awaitingResume();
        long before = state.generation();
        if (!state.resume(resume.generation())) {
            steps.add(new Step.Drop<>(resume.channel(), resume.offset(), DropReason.STALE_GENERATION));
            return;
        }
        steps.add(new Step.Resumed<>(resume.channel(), resume.generation()));
        if (!expected && resume.generation() > before) {
            declineWaitingFor(resume.channel(), pending, p -> true, "the upstream of " + resume.channel()
                    + " restarted (generation " + resume.generation() + ") before it delivered barrier %d", work,
                    steps);
        }
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
