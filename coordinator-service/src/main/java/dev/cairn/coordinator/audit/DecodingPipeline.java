package dev.cairn.coordinator.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes and folds the records a poll returned on a thread of its own, while the reading thread fetches the next
 * ones: a replay then takes about as long as the longer of the two, not their sum. Batches are processed one at a
 * time, in the order handed, by one thread, so whatever processes them sees the records in journal order and needs
 * no locking. A failure of the processing ends the read with that failure.
 */
final class DecodingPipeline implements AutoCloseable {

    private static final List<ConsumerRecord<String, byte[]>> END = new ArrayList<>();

    private final BlockingQueue<List<ConsumerRecord<String, byte[]>>> queue = new ArrayBlockingQueue<>(8);
    private final Thread worker;
    private volatile RuntimeException failure;

    /** Starts the processing thread; {@code process} is called on it only. */
    DecodingPipeline(Consumer<ConsumerRecord<String, byte[]>> process) {
        this.worker = new Thread(() -> {
            try {
                for (List<ConsumerRecord<String, byte[]>> batch = queue.take(); batch != END; batch = queue.take()) {
                    batch.forEach(process);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failure = e;
            } catch (Error e) {
                failure = new IllegalStateException("the audit's record processing failed: " + e, e);
            }
        }, "cairn-audit-replay");
        worker.setDaemon(true);
        worker.start();
    }

    /** Hands a batch on, waiting while 8 batches are queued. */
    void hand(List<ConsumerRecord<String, byte[]>> batch) {
        try {
            while (!queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
                rethrowFailure();
                if (!worker.isAlive()) {
                    throw new IllegalStateException("the audit's record processing stopped");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException("interrupted while reading the journal", e);
        }
        rethrowFailure();
    }

    /** Waits until every batch handed on is processed. */
    void finish() {
        hand(END);
        try {
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException("interrupted while reading the journal", e);
        }
        rethrowFailure();
    }

    private void rethrowFailure() {
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() {
        if (worker.isAlive()) {
            worker.interrupt();
        }
    }
}
