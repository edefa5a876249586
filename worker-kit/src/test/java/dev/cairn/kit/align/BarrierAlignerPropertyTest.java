package dev.cairn.kit.align;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random interleavings of channels: each channel sends data records with barriers 1..M between them (some barriers
 * missing when {@code skips}), the channels' records interleaved at random across two partitions. Whatever the
 * interleaving, every data record is delivered exactly once and in its channel's order, and a snapshot N comes after
 * every record that preceded barrier N on its channel and before every record that followed it. A restore from any
 * snapshot replays exactly the records that followed its barriers.
 */
class BarrierAlignerPropertyTest {

    private static final List<Channel> CHANNELS = List.of(Channel.of("in", 0, 0), Channel.of("in", 0, 1),
            Channel.of("in", 1, 0), Channel.of("in", 1, 1));

    /** A data record and the number of barrier slots before it on its channel (1..M: it precedes barriers > that). */
    private record Sent(Channel channel, String payload, int segment) {
    }

    @Property(tries = 400)
    void shouldDeliverEveryRecordOnceInOrderAndSnapshotBetweenTheBarriers(@ForAll Random random,
            @ForAll @IntRange(min = 1, max = 4) int channelCount, @ForAll @IntRange(min = 0, max = 4) int checkpoints,
            @ForAll boolean skips, @ForAll boolean atLeastOnce) {
        Alignment alignment = atLeastOnce ? Alignment.AT_LEAST_ONCE : Alignment.EXACTLY_ONCE;
        List<Channel> channels = CHANNELS.subList(0, channelCount);
        Map<String, Sent> sent = new HashMap<>();
        KitLog log = interleave(random, channels, checkpoints, skips, alignment, sent);
        BarrierAligner<String> aligner = BarrierAligner.fresh(channels);

        List<Step<String>> steps = new ArrayList<>();
        log.entries().forEach(entry -> steps.addAll(KitLog.feed(aligner, entry)));
        while (aligner.aligning() != -1) {
            steps.addAll(aligner.cancel(aligner.aligning()));
        }

        assertThat(aligner.heldBack()).isZero();
        assertDeliveredOnceInOrder(steps, sent, channels, 0);
        assertSnapshotsBetweenTheBarriers(steps, sent, alignment);
        if (!skips) {
            assertThat(steps).filteredOn(Step.Snapshot.class::isInstance).hasSize(checkpoints);
            assertThat(steps).noneMatch(Step.Decline.class::isInstance);
        }
    }

    @Property(tries = 300)
    void shouldReplayExactlyTheRecordsAfterTheBarriersWhenRestoredFromAnySnapshot(@ForAll Random random,
            @ForAll @IntRange(min = 1, max = 4) int channelCount, @ForAll @IntRange(min = 1, max = 4) int checkpoints,
            @ForAll @IntRange(min = 1, max = 4) int restoreFrom) {
        int restored = Math.min(restoreFrom, checkpoints);
        List<Channel> channels = CHANNELS.subList(0, channelCount);
        Map<String, Sent> sent = new HashMap<>();
        KitLog log = interleave(random, channels, checkpoints, false, Alignment.EXACTLY_ONCE, sent);
        BarrierAligner<String> live = BarrierAligner.fresh(channels);
        List<Step.Snapshot<String>> snapshots = new ArrayList<>();
        log.entries().forEach(entry -> KitLog.feed(live, entry).stream().filter(Step.Snapshot.class::isInstance)
                .forEach(step -> snapshots.add((Step.Snapshot<String>) step)));
        Step.Snapshot<String> snapshot = snapshots.get(restored - 1);

        BarrierAligner<String> aligner = BarrierAligner.restored(channels, snapshot.positions(), restored, Map.of());
        List<Step<String>> steps = log.replay(aligner, snapshot.positions());

        assertThat(snapshot.checkpointId()).isEqualTo(restored);
        assertDeliveredOnceInOrder(steps, sent, channels, restored);
        assertSnapshotsBetweenTheBarriers(steps, sent, Alignment.EXACTLY_ONCE);
        assertThat(steps).filteredOn(Step.Snapshot.class::isInstance).hasSize(checkpoints - restored);
    }

    /** Builds each channel's records and merges them in a random order that keeps each channel's order. */
    private static KitLog interleave(Random random, List<Channel> channels, int checkpoints, boolean skips,
            Alignment alignment, Map<String, Sent> sent) {
        List<List<Runnable>> perChannel = new ArrayList<>();
        KitLog log = new KitLog();
        for (int c = 0; c < channels.size(); c++) {
            Channel channel = channels.get(c);
            List<Runnable> writes = new ArrayList<>();
            for (int segment = 0; segment <= checkpoints; segment++) {
                for (int n = random.nextInt(4); n > 0; n--) {
                    Sent data = new Sent(channel, "c" + c + "-" + sent.size(), segment);
                    sent.put(data.payload(), data);
                    writes.add(() -> log.data(channel, data.payload(), -1));
                }
                long barrier = segment + 1;
                if (segment < checkpoints && !(skips && random.nextInt(4) == 0)) {
                    writes.add(() -> log.barrier(channel, barrier, -1, alignment));
                }
            }
            perChannel.add(writes);
        }
        List<Integer> open = new ArrayList<>();
        int[] next = new int[channels.size()];
        for (int c = 0; c < channels.size(); c++) {
            open.add(c);
        }
        while (!open.isEmpty()) {
            int pick = open.get(random.nextInt(open.size()));
            if (next[pick] < perChannel.get(pick).size()) {
                perChannel.get(pick).get(next[pick]++).run();
            } else {
                open.remove(Integer.valueOf(pick));
            }
        }
        return log;
    }

    private static void assertDeliveredOnceInOrder(List<Step<String>> steps, Map<String, Sent> sent,
            List<Channel> channels, int fromSegment) {
        List<String> delivered = KitLog.delivered(steps);
        for (Channel channel : channels) {
            List<String> expected = sent.values().stream()
                    .filter(data -> data.channel().equals(channel) && data.segment() >= fromSegment)
                    .map(Sent::payload).sorted((a, b) -> Integer.compare(index(a), index(b))).toList();
            assertThat(delivered).as("deliveries of %s", channel)
                    .filteredOn(payload -> sent.get(payload).channel().equals(channel))
                    .containsExactlyElementsOf(expected);
        }
    }

    private static void assertSnapshotsBetweenTheBarriers(List<Step<String>> steps, Map<String, Sent> sent,
            Alignment alignment) {
        for (int at = 0; at < steps.size(); at++) {
            if (steps.get(at) instanceof Step.Snapshot<String> snapshot) {
                long id = snapshot.checkpointId();
                List<String> before = KitLog.delivered(steps.subList(0, at));
                List<String> after = KitLog.delivered(steps.subList(at, steps.size()));
                assertThat(after).as("records before barrier %d delivered after its snapshot", id)
                        .noneMatch(payload -> sent.get(payload).segment() < id);
                if (alignment == Alignment.EXACTLY_ONCE) {
                    assertThat(before).as("records after barrier %d delivered before its snapshot", id)
                            .noneMatch(payload -> sent.get(payload).segment() >= id);
                }
            }
        }
    }

    private static int index(String payload) {
        return Integer.parseInt(payload.substring(payload.indexOf('-') + 1));
    }
}
