package dev.cairn.kit.align;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

/**
 * Given-when-then fixture for {@link BarrierAligner}: the {@code given} methods feed setup inputs through a
 * {@link KitLog} (offsets numbered per partition) and ignore what the aligner answers; the {@code when} methods feed
 * the input under test and return the steps it yields.
 */
final class AlignerScenario {

    static final Channel A = Channel.of("in", 0, 0);
    static final Channel B = Channel.of("in", 0, 1);
    static final Channel C = Channel.of("in", 1, 0);
    /** Upstream subtask 1, as {@link #B}, in the other partition. */
    static final Channel D = Channel.of("in", 1, 1);

    private final KitLog log = new KitLog();
    private final List<Channel> channels;
    private BarrierAligner<String> aligner;
    private long generation = -1;
    private Step.Snapshot<String> lastSnapshot;

    private AlignerScenario(List<Channel> channels) {
        this.channels = channels;
        this.aligner = BarrierAligner.fresh(channels);
    }

    /** A fresh task reading {@code channels}. */
    static AlignerScenario given(Channel... channels) {
        return new AlignerScenario(List.of(channels));
    }

    /** The upstream generation of the data and barriers fed from now on. */
    AlignerScenario generation(long upstreamGeneration) {
        this.generation = upstreamGeneration;
        return this;
    }

    AlignerScenario data(Channel channel, String... payloads) {
        for (String payload : payloads) {
            whenData(channel, payload);
        }
        return this;
    }

    AlignerScenario barrier(Channel channel, long checkpointId) {
        whenBarrier(channel, checkpointId);
        return this;
    }

    AlignerScenario barrier(Channel channel, long checkpointId, Alignment alignment) {
        whenBarrier(channel, checkpointId, alignment);
        return this;
    }

    /** A resume of generation {@code announced} by an upstream restored from the task's own checkpoint, -1. */
    AlignerScenario resume(Channel channel, long announced) {
        return resume(channel, announced, -1);
    }

    AlignerScenario resume(Channel channel, long announced, long restoredFrom) {
        whenResume(channel, announced, restoredFrom);
        return this;
    }

    AlignerScenario cancel(long checkpointId) {
        aligner.cancel(checkpointId);
        return this;
    }

    /** Restores a new aligner from the last snapshot, its upstream incarnations as they were. */
    AlignerScenario restored() {
        return restored(lastSnapshot());
    }

    /**
     * Restores a new aligner from {@code snapshot}, its upstream incarnations as they were (no minimum generation):
     * replaying from the positions yields the records held back at the snapshot and everything after them.
     */
    AlignerScenario restored(Step.Snapshot<String> snapshot) {
        aligner = BarrierAligner.restored(channels, snapshot.positions(), snapshot.checkpointId(), Map.of());
        return this;
    }

    /**
     * Carries out {@code rollback} as a task does: a new aligner restored from {@code snapshot} (of the rollback's
     * checkpoint), every channel at the generation it accepted, the restarted upstream's at the rollback's minimum.
     */
    AlignerScenario rolledBack(Step.Rollback<String> rollback, Step.Snapshot<String> snapshot) {
        assertThat(snapshot.checkpointId()).isEqualTo(rollback.toCheckpoint());
        aligner = BarrierAligner.restored(channels, snapshot.positions(), snapshot.checkpointId(),
                aligner.generationsAfter(rollback));
        return this;
    }

    List<Step<String>> whenData(Channel channel, String payload) {
        return seen(KitLog.feed(aligner, log.data(channel, payload, generation)));
    }

    List<Step<String>> whenBarrier(Channel channel, long checkpointId) {
        return whenBarrier(channel, checkpointId, Alignment.EXACTLY_ONCE);
    }

    List<Step<String>> whenBarrier(Channel channel, long checkpointId, Alignment alignment) {
        return seen(KitLog.feed(aligner, log.barrier(channel, checkpointId, generation, alignment)));
    }

    List<Step<String>> whenResume(Channel channel, long announced) {
        return whenResume(channel, announced, -1);
    }

    List<Step<String>> whenResume(Channel channel, long announced, long restoredFrom) {
        return seen(KitLog.feed(aligner, log.resume(channel, announced, restoredFrom)));
    }

    List<Step<String>> whenCancelled(long checkpointId) {
        return aligner.cancel(checkpointId);
    }

    /** Replays the log from the positions into the (restored) aligner. */
    List<Step<String>> whenReplayed(InputPositions positions) {
        return log.replay(aligner, positions);
    }

    /** Feeds {@code channel}'s input at an explicit offset (a replayed or out-of-order one). */
    List<Step<String>> whenDataAt(Channel channel, long offset, String payload) {
        return aligner.onData(channel, offset, generation, payload);
    }

    /** The last snapshot any input of this scenario yielded. */
    Step.Snapshot<String> lastSnapshot() {
        assertThat(lastSnapshot).as("a snapshot was taken").isNotNull();
        return lastSnapshot;
    }

    private List<Step<String>> seen(List<Step<String>> steps) {
        for (Step<String> step : steps) {
            if (step instanceof Step.Snapshot<String> snapshot) {
                lastSnapshot = snapshot;
            }
        }
        return steps;
    }

    BarrierAligner<String> aligner() {
        return aligner;
    }
}
