package dev.cairn.kit.align;

/**
 * What the aligner knows of one channel: the last offset it saw on it, the generation its upstream announced, and
 * whether (after a restore together with the upstream) it still waits for the upstream's resume record.
 */
final class ChannelState {

    private long lastOffset;
    private long generation;
    private boolean awaitingResume;

    ChannelState(long lastOffset, long generation, boolean awaitingResume) {
        this.lastOffset = lastOffset;
        this.generation = generation;
        this.awaitingResume = awaitingResume;
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

    boolean awaitingResume() {
        return awaitingResume;
    }

    /**
     * Whether a data record or barrier of {@code recordGeneration} is current; a newer generation than the announced
     * one (an upstream that restarted without this task having seen its resume record) is taken as announced.
     */
    boolean accepts(long recordGeneration) {
        if (awaitingResume || recordGeneration < generation) {
            return false;
        }
        generation = recordGeneration;
        return true;
    }

    /** Takes a resume record of {@code announced}; false when it is older than the generation already announced. */
    boolean resume(long announced) {
        if (announced < generation) {
            return false;
        }
        generation = announced;
        awaitingResume = false;
        return true;
    }
}
