package dev.cairn.client.audit;

import dev.cairn.core.audit.JournalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes the records a poll returned on one thread and folds them on another, while the reading thread fetches
 * the next ones: a replay then takes about as long as the longest of the three stages, not their sum. Batches go
 * from stage to stage whole, in the order handed; each stage is one thread, so the fold sees the entries in journal
 * order and neither the decoding nor the fold needs locking. A failure of either stage ends the read with it.
 */
final class DecodingPipeline implements AutoCloseable {

    private static final int QUEUED = 8;
    private static final List<ConsumerRecord<String, byte[]>> END = new ArrayList<>();
    private static final List<JournalEntry> DECODED_END = new ArrayList<>();

    private final BlockingQueue<List<ConsumerRecord<String, byte[]>>> records = new ArrayBlockingQueue<>(QUEUED);
    private final BlockingQueue<List<JournalEntry>> entries = new ArrayBlockingQueue<>(QUEUED);
    private final Thread decoding;
    private final Thread folding;
    private volatile RuntimeException failure;

    /**
     * Starts the two stages.
     *
     * @param decode turns a record into an entry; called on the decoding thread only
     * @param sink takes every entry, in order; called on the folding thread only
     */
    DecodingPipeline(Function<ConsumerRecord<String, byte[]>, JournalEntry> decode, Consumer<JournalEntry> sink) {
        this.decoding = stage("cairn-audit-decode", () -> {
            for (List<ConsumerRecord<String, byte[]>> batch = records.take(); batch != END; batch = records.take()) {
                List<JournalEntry> decoded = new ArrayList<>(batch.size());
                for (ConsumerRecord<String, byte[]> record : batch) {
                    decoded.add(decode.apply(record));
                }
                if (!offer(entries, decoded)) {
                    return;
                }
            }
            offer(entries, DECODED_END);
        });
        this.folding = stage("cairn-audit-replay", () -> {
            for (List<JournalEntry> batch = entries.take(); batch != DECODED_END; batch = entries.take()) {
                batch.forEach(sink);
            }
        });
    }

    /** Hands a batch on, waiting while 8 batches are queued. */
    void hand(List<ConsumerRecord<String, byte[]>> batch) {
        try {
            while (!records.offer(batch, 100, TimeUnit.MILLISECONDS)) {
                rethrowFailure();
                if (!decoding.isAlive()) {
                    throw new IllegalStateException("the audit's record decoding stopped");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException("interrupted while reading the journal", e);
        }
        rethrowFailure();
    }

    /** Waits until every batch handed on is decoded and folded. */
    void finish() {
        hand(END);
        try {
            decoding.join();
            rethrowFailure();
            folding.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException("interrupted while reading the journal", e);
        }
        rethrowFailure();
    }

    /** Queues {@code batch} for the next stage; {@code false} when a stage failed meanwhile. */
    private <T> boolean offer(BlockingQueue<T> queue, T batch) throws InterruptedException {
        while (!queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
            if (failure != null) {
                return false;
            }
        }
        return true;
    }

    private interface Work {
        void run() throws InterruptedException;
    }

    private Thread stage(String name, Work work) {
        Thread thread = new Thread(() -> {
            try {
                work.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failure = e;
            } catch (Error e) {
                failure = new IllegalStateException("the audit's record processing failed: " + e, e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void rethrowFailure() {
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() {
        for (Thread thread : List.of(decoding, folding)) {
            if (thread.isAlive()) {
                thread.interrupt();
            }
        }
    }
}
