package dev.cairn.kit.align;

/**
 * What a task does next, as {@link BarrierAligner} answers it; one input can yield several steps, to be carried
 * out in order (for instance: snapshot checkpoint N, then process the records that were held back for it).
 *
 * @param <R> the task's record type (the aligner hands records back untouched)
 */
public sealed interface Step<R> {

    /** Process {@code record} now (a data record that arrived, or one that was held back and is released). */
    record Deliver<R>(Channel channel, long offset, R record) implements Step<R> {}

    /** The input at {@code offset} on {@code channel} is held back until the alignment in progress ends. */
    record HoldBack<R>(Channel channel, long offset) implements Step<R> {}

    /**
     * The input at {@code offset} on {@code channel} is not processed, for {@code reason}. A reason that is
     * {@link DropReason#badInput() bad input} deserves a dead letter; the others are part of the protocol.
     */
    record Drop<R>(Channel channel, long offset, DropReason reason) implements Step<R> {}

    /** {@code channel}'s upstream announced that it restarted from generation {@code generation}. */
    record Resumed<R>(Channel channel, long generation) implements Step<R> {}

    /** A barrier of checkpoint {@code checkpointId} counted; {@code missing} channels have yet to deliver it. */
    record AwaitBarriers<R>(long checkpointId, int missing) implements Step<R> {}

    /**
     * Every channel delivered barrier {@code checkpointId}: snapshot the task's state with {@code positions}, then
     * forward the barrier downstream, then carry out the steps that follow (the released records).
     */
    record Snapshot<R>(long checkpointId, Alignment alignment, InputPositions positions) implements Step<R> {}

    /**
     * The alignment of {@code checkpointId} was given up (a newer barrier overtook it, an upstream restarted, or, at
     * least once, a newer checkpoint was taken first and subsumed it): this task declines the checkpoint with
     * {@code reason}. Records held back for it follow as deliveries.
     */
    record Decline<R>(long checkpointId, String reason) implements Step<R> {}

    /**
     * An upstream of {@code channel} restarted, and this task's state took records of the incarnation it replaces
     * (or is older than the upstream's restore point): the task restores its own snapshot of checkpoint
     * {@code toCheckpoint} (its initial state for -1), seeks its input back to that snapshot's positions and builds
     * a new aligner with {@link BarrierAligner#restored}, where {@code channel} accepts generation
     * {@code minimumGeneration} or newer and every other channel the generation it accepts now. The aligner that
     * answered this takes no further input; the checkpoints it was aligning were declined (steps before this one),
     * and its held-back records are read again after the rollback.
     */
    record Rollback<R>(long toCheckpoint, Channel channel, long minimumGeneration, String reason)
            implements Step<R> {}

    /** Why an input was not processed. */
    enum DropReason {
        /** The record is at or before the last offset seen on its channel (replayed, or reflected in a snapshot). */
        REPLAYED(false),
        /** The record comes from an upstream incarnation older than the one its channel announced. */
        STALE_GENERATION(false),
        /**
         * A resume record of an upstream incarnation restored from an older checkpoint than this task's state: it
         * is behind and restarts again; its records are dropped as {@link #STALE_GENERATION}.
         */
        UPSTREAM_BEHIND(false),
        /** A barrier of a checkpoint that was already taken, declined or aborted, or a duplicate barrier. */
        STALE_BARRIER(false),
        /** The record's upstream subtask and partition are not one of the task's channels. */
        UNKNOWN_CHANNEL(true);

        private final boolean badInput;

        DropReason(boolean badInput) {
            this.badInput = badInput;
        }

        /** Whether the input is bad (to be dead-lettered with this reason) rather than dropped by the protocol. */
        public boolean badInput() {
            return badInput;
        }
    }
}
