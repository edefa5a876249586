package dev.cairn.kit.align;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A test's input partitions: inputs are appended in arrival order, each partition numbering its own offsets from 0,
 * and fed to an aligner; {@link #replay} feeds a restored aligner what a consumer sought to the restart offsets reads.
 */
final class KitLog {

    /** One input as it sits in the log. */
    record Entry(Channel channel, long offset, Kind kind, String payload, long number, long generation,
            Alignment alignment) {
    }

    enum Kind { DATA, BARRIER, RESUME }

    private final List<Entry> entries = new ArrayList<>();
    private final Map<InputPartition, Long> nextOffsets = new HashMap<>();

    Entry data(Channel channel, String payload, long generation) {
        return append(channel, Kind.DATA, payload, 0, generation, null);
    }

    Entry barrier(Channel channel, long checkpointId, long generation, Alignment alignment) {
        return append(channel, Kind.BARRIER, null, checkpointId, generation, alignment);
    }

    Entry resume(Channel channel, long generation, long restoredFrom) {
        return append(channel, Kind.RESUME, null, restoredFrom, generation, null);
    }

    List<Entry> entries() {
        return entries;
    }

    /** Feeds one entry to {@code aligner}. */
    static List<Step<String>> feed(BarrierAligner<String> aligner, Entry entry) {
        return switch (entry.kind()) {
            case DATA -> aligner.onData(entry.channel(), entry.offset(), entry.generation(), entry.payload());
            case BARRIER -> aligner.onBarrier(entry.channel(), entry.offset(), entry.number(), entry.generation(),
                    entry.alignment());
            case RESUME -> aligner.onResume(entry.channel(), entry.offset(), entry.generation(), entry.number());
        };
    }

    /**
     * Feeds every entry at or after its partition's restart offset, in log order, until the aligner answers a
     * rollback; answers all steps.
     */
    List<Step<String>> replay(BarrierAligner<String> aligner, InputPositions positions) {
        return replayFrom(aligner, partition -> positions.restartOffset(partition).orElse(0));
    }

    private List<Step<String>> replayFrom(BarrierAligner<String> aligner, Function<InputPartition, Long> start) {
        List<Step<String>> steps = new ArrayList<>();
        for (Entry entry : entries) {
            if (entry.offset() >= start.apply(entry.channel().partition()) && !aligner.rolledBack()) {
                steps.addAll(feed(aligner, entry));
            }
        }
        return steps;
    }

    private Entry append(Channel channel, Kind kind, String payload, long number, long generation,
            Alignment alignment) {
        long offset = nextOffsets.merge(channel.partition(), 1L, Long::sum) - 1;
        Entry entry = new Entry(channel, offset, kind, payload, number, generation, alignment);
        entries.add(entry);
        return entry;
    }

    /** The payloads {@code steps} deliver, in order. */
    static List<String> delivered(List<Step<String>> steps) {
        return steps.stream().filter(Step.Deliver.class::isInstance).map(step -> ((Step.Deliver<String>) step).record())
                .toList();
    }
}
