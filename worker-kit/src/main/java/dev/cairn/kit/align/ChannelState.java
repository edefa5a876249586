package dev.cairn.kit.align;

/**
 * What the aligner knows of one channel: the last offset it saw on it, the upstream generation it accepts (the
 * newest announced, or the minimum a rollback set), and whether it has delivered a record or counted a barrier
 * since the aligner was built (what this task's state took from the channel's current upstream incarnation).
 */
final class ChannelState {

    private long lastOffset;
    private long generation;
    private boolean delivered;

    ChannelState(long lastOffset, long generation) {
        this.lastOffset = lastOffset;
        this.generation = generation;
    }

    /** Whether an input at {@code offset} is new on the channel; if so it becomes the last offset seen. */
    boolean advanceTo(long offset) {
        if (offset <= lastOffset) {
            return false;
        }
        lastOffset = offset;
        return true;
    }

    long generation() {
        return generation;
    }

    boolean delivered() {
        return delivered;
    }

    /** The channel's record or barrier went into the task's state (or is held back to go there). */
    void markDelivered() {
        delivered = true;
    }

    /**
     * Whether a data record or barrier of {@code recordGeneration} is current; a newer generation than the announced
     * one (an incarnation whose resume record lies before the positions this task restarted from) is taken as
     * announced.
     */
    boolean accepts(long recordGeneration) {
        if (recordGeneration < generation) {
            return false;
        }
        generation = recordGeneration;
        return true;
    }

    /** From now on, only records of {@code announced} or newer are current. */
    void announce(long announced) {
        generation = announced;
    }
}
