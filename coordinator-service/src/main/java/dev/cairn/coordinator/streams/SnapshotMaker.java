package dev.cairn.coordinator.streams;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes one snapshot of a stream task's journal partition, on a daemon thread that makes this JVM's snapshots one at a
 * time: folds the partition from its newest snapshot (or its first record) up to the journal's committed end, as a
 * rebuild would ({@link StoreRebuild#fold}), and writes the fold to the {@link SnapshotStore} when the journal moved
 * on since. It
 * reads Kafka and folds into memory of its own: it touches no store and holds no transaction, so the task goes on
 * deciding meanwhile. Being made from the journal alone, a snapshot is exactly what a rebuild from the first record
 * would fold up to its position, whoever made it (two owners of a partition during a rebalance make equal ones).
 *
 * <p>A stream task starts one every {@link SnapshotStore#INTERVAL_CONFIG} (default {@link #DEFAULT_INTERVAL}) while
 * none runs. One that fails is logged, and the next interval tries again; a journal whose records were deleted
 * beyond the newest snapshot cannot be snapshotted (nor rebuilt), which is logged as an error.
 */
final class SnapshotMaker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotMaker.class);
    /** How often a task makes a snapshot unless {@link SnapshotStore#INTERVAL_CONFIG} says otherwise. */
    static final Duration DEFAULT_INTERVAL = Duration.ofHours(1);

    /**
     * The one thread that makes the snapshots of every task of this JVM, one at a time: a fold holds a copy of its
     * partition's state, so the heap needs room for one partition's state more, not for every task's at once.
     */
    private static final ExecutorService MAKER = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cairn-snapshots");
        thread.setDaemon(true);
        return thread;
    });

    private volatile boolean cancelled;
    private volatile boolean succeeded;
    private Future<?> making;

    private SnapshotMaker() {
    }

    /** How often a task makes a snapshot, by the application's configuration; zero when never. */
    static Duration interval(Map<String, Object> appConfigs) {
        Object configured = appConfigs.get(SnapshotStore.INTERVAL_CONFIG);
        return configured == null ? DEFAULT_INTERVAL : Duration.ofMillis(Long.parseLong(configured.toString().strip()));
    }

    /**
     * Makes a snapshot of {@code journalTopic}'s {@code partition} as of {@code nowMs} once the snapshots asked for
     * before it (of this JVM's other tasks) are made.
     */
    static SnapshotMaker start(StoreRebuild rebuild, Map<String, Object> appConfigs, String journalTopic,
            int partition, long nowMs) {
        SnapshotMaker maker = new SnapshotMaker();
        maker.making = MAKER.submit(() -> maker.make(rebuild, appConfigs, journalTopic, partition, nowMs));
        return maker;
    }

    private void make(StoreRebuild rebuild, Map<String, Object> appConfigs, String journalTopic, int partition,
            long nowMs) {
        if (cancelled) {
            return;
        }
        long started = System.nanoTime();
        try {
            StoreRebuild.Folded folded = rebuild.foldForSnapshot(appConfigs, journalTopic, partition, nowMs,
                    () -> cancelled);
            Snapshot base = folded.base();
            long from = base == null ? 0 : base.journalOffset();
            if (folded.journalOffset() <= from) {
                LOG.debug("Partition {}: no journal record since the snapshot at offset {}", partition, from);
                succeeded = true;
                return;
            }
            rebuild.snapshots().write(appConfigs, journalTopic, folded.snapshot());
            rebuild.listener().snapshotWritten(partition, folded.journalOffset(), nowMs,
                    (System.nanoTime() - started) / 1_000_000);
            succeeded = true;
            LOG.info("Snapshot of partition {} at journal offset {} made in {} ms (the journal from offset {} folded)",
                    partition, folded.journalOffset(), (System.nanoTime() - started) / 1_000_000, from);
        } catch (CancellationException closed) {
            LOG.debug("Snapshot of partition {} given up: {}", partition, closed.getMessage());
        } catch (JournalHeadDeletedException deleted) {
            LOG.error("No snapshot of partition {} can be made: {}", partition, deleted.getMessage());
            rebuild.listener().snapshotFailed(partition);
        } catch (RuntimeException e) {
            LOG.warn("Making a snapshot of partition {} failed (the next interval tries again): {}", partition,
                    e.toString(), e);
            rebuild.listener().snapshotFailed(partition);
        }
    }

    /** Whether it still waits for its turn, folds or writes. */
    boolean running() {
        return !making.isDone();
    }

    /** Whether it ended with the snapshot written, or with none needed (the journal did not move on since). */
    boolean succeeded() {
        return succeeded;
    }

    /** Gives up the snapshot if it is still folded: the task was closed. */
    @Override
    public void close() {
        cancelled = true;
    }
}
