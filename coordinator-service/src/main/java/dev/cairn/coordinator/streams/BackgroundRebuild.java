package dev.cairn.coordinator.streams;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A rebuild of one stream task's stores too long to run within {@code Processor.init} ({@link StoreRebuild#inline}):
 * the journal partition is read and folded on a daemon thread of its own, which holds no transaction and touches no
 * store; the stream thread then writes the fold to the stores in steps ({@link StoreRebuild.Writer}), each bounded in
 * time, between which Kafka Streams commits. Meanwhile the task keeps its inputs in a {@link RebuildBacklog}. So a
 * rebuild as long as its journal is never fenced by its own length, and the other tasks of the stream thread go on.
 *
 * <p>In: the task's journal partition (through the {@link StoreRebuild}'s source). Out: the task's stores, written
 * by {@link #step}. A fold that fails (the journal cannot be read, a record does not apply) fails the next step with
 * its cause, which fails the task as a failed rebuild in {@code init} did; {@link #close} stops the fold.
 */
final class BackgroundRebuild implements AutoCloseable {

    private final StoreRebuild rebuild;
    private final int partition;
    private final CompletableFuture<StoreRebuild.Folded> folding = new CompletableFuture<>();
    private volatile boolean cancelled;
    private StoreRebuild.Writer writer;

    private BackgroundRebuild(StoreRebuild rebuild, int partition) {
        this.rebuild = rebuild;
        this.partition = partition;
    }

    /** Starts folding {@code journalTopic}'s {@code partition} on a thread named after it. */
    static BackgroundRebuild start(StoreRebuild rebuild, Map<String, Object> appConfigs, String journalTopic,
            int partition, String reason, long nowMs) {
        BackgroundRebuild background = new BackgroundRebuild(rebuild, partition);
        Thread thread = new Thread(() -> {
            try {
                background.folding.complete(rebuild.fold(appConfigs, journalTopic, partition, reason, nowMs,
                        () -> background.cancelled));
            } catch (Throwable failure) {
                background.folding.completeExceptionally(failure);
            }
        }, "cairn-rebuild-" + journalTopic + "-" + partition);
        thread.setDaemon(true);
        thread.start();
        return background;
    }

    /** Whether the journal is still being read and folded. */
    boolean folding() {
        return !folding.isDone();
    }

    /**
     * Writes the fold to {@code stores}, once it is there, until {@code deadlineNanos} ({@link System#nanoTime}):
     * the rebuild's result once every store is written, empty while it goes on.
     *
     * @throws StreamsException when the fold failed
     */
    Optional<StoreRebuild.Result> step(Function<String, KeyValueStore<?, ?>> stores, long deadlineNanos) {
        if (writer == null) {
            if (!folding.isDone()) {
                return Optional.empty();
            }
            writer = rebuild.writer(folded(), stores);
        }
        return writer.step(deadlineNanos) ? Optional.of(writer.result()) : Optional.empty();
    }

    private StoreRebuild.Folded folded() {
        try {
            return folding.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof StreamsException streams ? streams
                    : new StreamsException("rebuilding the stores of partition " + partition + " failed: " + cause,
                            cause);
        }
    }

    /** Stops the fold, if it still runs: the task was closed, and its next owner rebuilds again. */
    @Override
    public void close() {
        cancelled = true;
    }
}
