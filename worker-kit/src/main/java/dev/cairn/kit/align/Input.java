package dev.cairn.kit.align;

/** What arrived on a channel, as the aligner keeps it while it is held back. */
sealed interface Input<R> {

    Channel channel();

    long offset();

    record Data<R>(Channel channel, long offset, long generation, R record) implements Input<R> {}

    record Barrier<R>(Channel channel, long offset, long checkpointId, long generation, Alignment alignment)
            implements Input<R> {}

    record Resume<R>(Channel channel, long offset, long generation, long restoredFrom) implements Input<R> {}
}
