package dev.cairn.kit.align;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Where a restored task takes up its input again: per partition, the offset to seek to, and per channel, the
 * offset through which that channel's records are already reflected in the snapshot (and are dropped when they are
 * read again).
 *
 * <p>The rule, for a snapshot taken when barrier N arrived on every channel: a channel's records before its barrier
 * are reflected, its barrier and later records are not. A partition carries several channels whose barriers sit at
 * different offsets, and a consumer has one position per partition, so:
 * <ul>
 *   <li>a partition's restart offset is the offset of the first record not yet reflected in the snapshot:
 *       one past the earliest barrier N among its channels. Everything before it is reflected or is a barrier;</li>
 *   <li>records between the restart offset and a channel's own barrier are reflected already (the channel's
 *       barrier came later): {@link #reflectedThrough} is that channel's barrier offset, and a restored
 *       {@link BarrierAligner} drops the channel's records up to it.</li>
 * </ul>
 * Replaying from the restart offsets and dropping through {@link #reflectedThrough} thus yields exactly the records
 * that were held back at the snapshot and everything after them, each once. (In at-least-once mode the records a
 * channel delivered after its barrier come again: that is what at-least-once allows.)
 *
 * @param restartOffsets per partition, the offset to seek to
 * @param reflectedThrough per channel, the offset of its last record (its barrier) reflected in the snapshot
 */
public record InputPositions(Map<InputPartition, Long> restartOffsets, Map<Channel, Long> reflectedThrough) {

    /** No positions: a fresh start reads each partition from the consumer's own start position. */
    public static final InputPositions NONE = new InputPositions(Map.of(), Map.of());

    public InputPositions {
        restartOffsets = Collections.unmodifiableMap(new TreeMap<>(restartOffsets));
        reflectedThrough = Collections.unmodifiableMap(new TreeMap<>(reflectedThrough));
    }

    /**
     * The positions of a snapshot taken when each channel had delivered its barrier at the given offset.
     *
     * @param barrierOffsets per channel, the offset of the channel's barrier of the checkpoint (every channel)
     */
    public static InputPositions afterBarriers(Map<Channel, Long> barrierOffsets) {
        Map<InputPartition, Long> restart = new TreeMap<>();
        barrierOffsets.forEach((channel, offset) -> {
            Objects.requireNonNull(offset, "offset");
            restart.merge(channel.partition(), offset + 1, Math::min);
        });
        return new InputPositions(restart, barrierOffsets);
    }

    /** The offset a restored task seeks {@code partition} to; empty when the snapshot knows the partition not. */
    public OptionalLong restartOffset(InputPartition partition) {
        Long offset = restartOffsets.get(partition);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /** The offset through which {@code channel}'s records are reflected in the snapshot; -1 when none is. */
    public long reflectedThrough(Channel channel) {
        return reflectedThrough.getOrDefault(channel, -1L);
    }
}
