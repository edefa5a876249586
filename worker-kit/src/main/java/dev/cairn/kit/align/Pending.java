package dev.cairn.kit.align;

import java.util.LinkedHashMap;
import java.util.Map;

/** A checkpoint whose barriers are arriving: its alignment, and which channels delivered its barrier, where. */
final class Pending {

    private final long checkpointId;
    private final Alignment alignment;
    private final Map<Channel, Long> offsets = new LinkedHashMap<>();

    Pending(long checkpointId, Alignment alignment) {
        this.checkpointId = checkpointId;
        this.alignment = alignment;
    }

    long checkpointId() {
        return checkpointId;
    }

    Alignment alignment() {
        return alignment;
    }

    boolean aligned() {
        return alignment == Alignment.EXACTLY_ONCE;
    }

    boolean delivered(Channel channel) {
        return offsets.containsKey(channel);
    }

    void deliver(Channel channel, long offset) {
        offsets.put(channel, offset);
    }

    int barriers() {
        return offsets.size();
    }

    Map<Channel, Long> offsets() {
        return offsets;
    }
}
