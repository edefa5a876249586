package dev.cairn.coordinator.streams;

import dev.cairn.client.audit.JournalDecoder;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.TimerIndex;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.serde.EventDecodingException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds one stream task's stores from its journal partition: the stores are a cache of the journal, and an
 * upgrade is a replay. It runs when the task's stores do not record this release's {@link StoreLayout#CURRENT}
 * layout: stores of a release before layouts were recorded, of another
 * layout, or none at all (a new application id, lost changelogs) while the journal has records.
 *
 * <p>In: the journal partition of the task, every record from the first (each event decoded by any frozen schema
 * version), folded with the same {@link CheckpointEvolver} that built the stores, into memory. A partition whose first
 * offset is above 0 lost records from its head (retention, compaction, {@code kafka-delete-records.sh}): it is not
 * folded, the rebuild fails with a {@link JournalHeadDeletedException} and the stores stay as they were. Out: every
 * store of the task emptied and written with the fold (jobs, specs, vertices, attempts, finished subtasks, acks,
 * summaries, retained checkpoints, request records and indexes); the timers the journal's events set (each one already
 * due becomes one tick of its job now, which decides what is overdue: a timeout or a periodic trigger; none of a job
 * removed since); and the layout and the last input offset of each input topic the journal reflects
 * ({@link StoreLayout#inputPositions}), so that an application that starts reading its inputs from the beginning skips
 * what it already decided. Progress goes to the log and to the {@link DecisionListener} (metrics).
 *
 * <p>Two halves: {@link #fold} reads and folds, on any thread, touching no store; a {@link Writer} empties and writes
 * the stores on the stream thread, in steps. {@link #rebuild} runs both at once, within {@code Processor.init}, for a
 * short journal ({@link #inline}); {@link BackgroundRebuild} runs the fold on a thread of its own for a long one.
 */
public final class StoreRebuild {

    private static final Logger LOG = LoggerFactory.getLogger(StoreRebuild.class);
    private static final long PROGRESS_EVERY_MS = 5_000;
    private static final int LOGGED_UNDECODABLE = 10;
    /**
     * The most journal records a rebuild folds within {@code Processor.init}, on the stream thread: about 20 ms of
     * folding. A longer journal is folded on a thread of its own ({@link BackgroundRebuild}), since the stream
     * thread's transaction may be open meanwhile and would be fenced once it outlived {@code transaction.timeout.ms}.
     */
    static final long INLINE_RECORDS = 10_000;
    /**
     * The Kafka Streams property that sets another bound than {@link #INLINE_RECORDS} (0: every journal that has a
     * record is folded in the background).
     */
    public static final String INLINE_RECORDS_CONFIG = "cairn.rebuild.inline.records";
    /**
     * The most records the partition's snapshots may hold for a rebuild to run within {@code Processor.init}: a
     * snapshot's chunks hold about 512 KiB each, so a few megabytes to read and write; a larger state is rebuilt in
     * the background whatever the journal's length.
     */
    static final long INLINE_SNAPSHOT_RECORDS = 8;

    private final CoordinatorSettings settings;
    private final JournalSource journal;
    private final SnapshotStore snapshots;
    private final DecisionListener listener;

    StoreRebuild(CoordinatorSettings settings, JournalSource journal, DecisionListener listener) {
        this(settings, journal, SnapshotStore.NONE, listener);
    }

    StoreRebuild(CoordinatorSettings settings, JournalSource journal, SnapshotStore snapshots,
            DecisionListener listener) {
        this.settings = settings;
        this.journal = journal;
        this.snapshots = snapshots;
        this.listener = listener;
    }

    /** Where snapshots of the fold are kept. */
    SnapshotStore snapshots() {
        return snapshots;
    }

    /** Who is told of rebuilds and snapshots. */
    DecisionListener listener() {
        return listener;
    }

    /** What one rebuild folded, and how long folding and writing took. */
    record Result(long records, long undecodable, Map<String, Long> inputPositions, long millis) {
    }

    /** The journal partition folded into memory, not yet written to the stores. */
    static final class Folded {
        private final int partition;
        private final CoordinatorState state;
        private final Set<TimerIndex.Timer> timers;
        private final Map<String, Long> inputPositions;
        private final Snapshot base;
        private final long journalOffset;
        private final long records;
        private final long undecodable;
        private final long nowMs;
        private final long startedNanos;

        private Folded(Fold fold, long startedNanos) {
            this.partition = fold.partition;
            this.state = fold.state;
            this.timers = fold.timers;
            this.inputPositions = Map.copyOf(fold.inputPositions);
            this.base = fold.base;
            this.journalOffset = fold.position();
            this.records = fold.records;
            this.undecodable = fold.undecodable;
            this.nowMs = fold.nowMs;
            this.startedNanos = startedNanos;
        }

        /** The snapshot the fold started from, {@code null} when it started from the journal's first record. */
        Snapshot base() {
            return base;
        }

        /** The journal offset the fold reflects every record below. */
        long journalOffset() {
            return journalOffset;
        }

        /** The fold as a snapshot made at the time it was folded for. */
        Snapshot snapshot() {
            long before = base == null ? 0 : base.journalRecords();
            long skipped = base == null ? 0 : base.undecodable();
            return new Snapshot(partition, journalOffset, before + records, skipped + undecodable, nowMs,
                    StoreLayout.CURRENT, state, timers, inputPositions);
        }
    }

    /**
     * Whether the task's journal partition is short enough ({@link #INLINE_RECORDS}), and its snapshots small enough
     * ({@link #INLINE_SNAPSHOT_RECORDS}), to be folded at once, within {@code Processor.init}; a partition whose length
     * cannot be known is not.
     */
    boolean inline(Map<String, Object> appConfigs, String journalTopic, int partition) {
        Object bound = appConfigs.get(INLINE_RECORDS_CONFIG);
        long inline = bound == null ? INLINE_RECORDS : Long.parseLong(bound.toString().strip());
        long records = journal.records(appConfigs, journalTopic, partition);
        long snapshotRecords = snapshots.records(appConfigs, journalTopic, partition);
        return records >= 0 && records <= inline && snapshotRecords >= 0 && snapshotRecords <= INLINE_SNAPSHOT_RECORDS;
    }

    /**
     * Empties the task's stores and writes them anew from the journal, at once.
     *
     * @param appConfigs the application's Kafka Streams configuration (how the journal is read)
     * @param stores the task's stores by name
     * @param nowMs the wall-clock time: timers due by then become one tick of their job at this time
     * @throws JournalHeadDeletedException when records were deleted from the head of the journal partition
     */
    Result rebuild(Map<String, Object> appConfigs, String journalTopic, int partition, String reason,
            Function<String, KeyValueStore<?, ?>> stores, long nowMs) {
        Writer writer = writer(fold(appConfigs, journalTopic, partition, reason, nowMs, () -> false), stores);
        while (!writer.step(Long.MAX_VALUE)) {
            // one step writes everything when it has no deadline
        }
        return writer.result();
    }

    /**
     * Reads and folds the task's journal partition into memory, from its newest snapshot when there is one of this
     * layout, else from its first record; touches no store, so it may run on any thread.
     *
     * @param cancelled asked before every record: the fold stops with a {@link CancellationException} once it
     *     answers true (the task was closed)
     */
    Folded fold(Map<String, Object> appConfigs, String journalTopic, int partition, String reason, long nowMs,
            BooleanSupplier cancelled) {
        return fold(appConfigs, journalTopic, partition, reason, nowMs, cancelled, listener);
    }

    /**
     * Folds the task's journal partition as {@link #fold} does, for a snapshot ({@link SnapshotMaker}): its progress is
     * logged, not reported to the listener as a rebuild's.
     */
    Folded foldForSnapshot(Map<String, Object> appConfigs, String journalTopic, int partition, long nowMs,
            BooleanSupplier cancelled) {
        return fold(appConfigs, journalTopic, partition, "snapshot", nowMs, cancelled, DecisionListener.NONE);
    }

    private Folded fold(Map<String, Object> appConfigs, String journalTopic, int partition, String reason, long nowMs,
            BooleanSupplier cancelled, DecisionListener progress) {
        long started = System.nanoTime();
        Snapshot base = snapshots.latest(appConfigs, journalTopic, partition).orElse(null);
        String start = base == null ? "its first record" : "the " + base;
        if (progress == listener) {
            LOG.info("Rebuilding the stores of partition {} from {} ({}), starting at {}", partition, journalTopic,
                    reason, start);
        } else {
            LOG.info("Folding partition {} of {} for a snapshot, starting at {}", partition, journalTopic, start);
        }
        Fold fold = new Fold(journalTopic, partition, base, nowMs, cancelled, progress);
        journal.read(appConfigs, journalTopic, partition, fold.from, fold);
        return new Folded(fold, started);
    }

    /** Writes {@code folded} to the task's stores, in steps ({@link Writer#step}), on the stream thread. */
    Writer writer(Folded folded, Function<String, KeyValueStore<?, ?>> stores) {
        return new Writer(folded, stores);
    }

    /**
     * Empties the stores a rebuild writes and writes them from a fold, a bounded number of store operations at a
     * time, so that no step holds the stream thread's transaction open for long. Its first operation removes the
     * layout entry, its last writes it ({@link StoreLayout#record}): stores left half written by a task closed
     * between steps record no layout, and are rebuilt again. Inputs kept in a backlog ({@link RebuildBacklog}) stay.
     */
    final class Writer {
        private final Folded folded;
        private final Function<String, KeyValueStore<?, ?>> stores;
        private final KeyValueStore<Bytes, Bytes> timers;
        private final Iterator<String> clearing = CoordinatorStores.REBUILT.iterator();
        private final Iterator<StateTable<?, ?>> tables = StateTable.ALL.iterator();
        private KeyValueStore<Object, Object> cleared;
        private Iterator<Object> clearKeys = Collections.emptyIterator();
        private CoordinatorState target;
        private Iterator<? extends Map.Entry<?, ?>> entries = Collections.emptyIterator();
        private StateTable<?, ?> table;
        private Iterator<TimerIndex.Timer> timersLeft;
        private boolean unmarked;
        private boolean done;
        private long written;
        private Result result;

        private Writer(Folded folded, Function<String, KeyValueStore<?, ?>> stores) {
            this.folded = folded;
            this.stores = stores;
            this.timers = cast(stores.apply(CoordinatorStores.TIMERS));
        }

        /**
         * Carries out store operations until {@code deadlineNanos} ({@link System#nanoTime}) passes or the stores are
         * written; whether they are.
         */
        boolean step(long deadlineNanos) {
            if (!unmarked) {
                timers.delete(TimerKeys.timer(StoreLayout.NEVER, StoreLayout.LAYOUT_KEY));
                unmarked = true;
            }
            int operations = 0;
            while (!done) {
                if ((++operations & 0xff) == 0 && System.nanoTime() > deadlineNanos) {
                    return false;
                }
                next();
            }
            return true;
        }

        /** One store operation: a delete, a put or the last bookkeeping. */
        private void next() {
            if (clearKeys.hasNext()) {
                cleared.delete(clearKeys.next());
            } else if (clearing.hasNext()) {
                String name = clearing.next();
                cleared = cast(stores.apply(name));
                List<Object> keys = new ArrayList<>();
                try (KeyValueIterator<Object, Object> it = cleared.all()) {
                    it.forEachRemaining(entry -> {
                        if (!name.equals(CoordinatorStores.TIMERS) || !RebuildBacklog.isEntry((Bytes) entry.key)) {
                            keys.add(entry.key);
                        }
                    });
                }
                clearKeys = keys.iterator();
            } else if (entries.hasNext()) {
                put(table, entries.next());
                written++;
            } else if (tables.hasNext()) {
                if (target == null) {
                    target = CoordinatorState.over(StreamsStorage.forTask(name -> cast(stores.apply(name))));
                }
                table = tables.next();
                entries = folded.state.entries(table).entrySet().iterator();
            } else if (timersLeft == null) {
                timersLeft = folded.timers.iterator();
            } else if (timersLeft.hasNext()) {
                TimerIndex.Timer timer = timersLeft.next();
                timers.put(TimerKeys.timer(timer.dueAtMs(), timer.jobId()), CoordinatorProcessor.NO_VALUE);
            } else {
                StoreLayout.record(timers, folded.inputPositions);
                finish();
            }
        }

        @SuppressWarnings("unchecked")
        private <K, V extends SpecificRecord> void put(StateTable<K, V> table, Map.Entry<?, ?> entry) {
            target.put(table, (K) entry.getKey(), (V) entry.getValue());
        }

        private void finish() {
            done = true;
            long millis = (System.nanoTime() - folded.startedNanos) / 1_000_000;
            LOG.info("Rebuilt the stores of partition {} from {}{} journal records ({} undecodable, skipped) in {} ms: "
                            + "{} entries, {} timers, inputs reflected up to {}", folded.partition,
                    folded.base == null ? "" : "the " + folded.base + " and ", folded.records,
                    folded.undecodable, millis, written, folded.timers.size(), folded.inputPositions);
            listener.rebuilt(folded.partition, folded.records, millis);
            result = new Result(folded.records, folded.undecodable, folded.inputPositions, millis);
        }

        /** What the rebuild folded and how long it took, once {@link #step} answered true. */
        Result result() {
            return result;
        }
    }

    @SuppressWarnings("unchecked")
    private static <K, V> KeyValueStore<K, V> cast(KeyValueStore<?, ?> store) {
        return (KeyValueStore<K, V>) store;
    }

    /** Folds the partition's records as they are read. */
    private final class Fold implements JournalSource.RecordSink {
        private final String topic;
        private final int partition;
        private final long nowMs;
        private final CheckpointEvolver evolver = new CheckpointEvolver(settings);
        /** The state folded into: the base snapshot's own (decoded for this fold alone), else a new one. */
        private final CoordinatorState state;
        private final JournalDecoder decoder = new JournalDecoder(journal.schemas());
        private final Set<TimerIndex.Timer> timers = new HashSet<>();
        private final Map<String, Long> inputPositions = new HashMap<>();
        private final Snapshot base;
        private final long from;
        private long records;
        private long undecodable;
        private long end = -1;
        private long next;
        private long lastProgressMs = System.currentTimeMillis();

        private final BooleanSupplier cancelled;

        private final DecisionListener progress;

        private Fold(String topic, int partition, Snapshot base, long nowMs, BooleanSupplier cancelled,
                DecisionListener progress) {
            this.progress = progress;
            this.topic = topic;
            this.partition = partition;
            this.base = base;
            this.from = base == null ? 0 : base.journalOffset();
            this.next = from;
            this.nowMs = nowMs;
            this.cancelled = cancelled;
            this.state = base == null ? CoordinatorState.inMemory() : base.state();
            if (base != null) {
                base.timers().forEach(t -> timers.add(t.dueAtMs() > nowMs ? t
                        : new TimerIndex.Timer(t.jobId(), nowMs)));
                inputPositions.putAll(base.inputPositions());
            }
        }

        /**
         * Refuses a partition whose head was deleted beyond where the fold starts: what is left would fold into stores
         * without those jobs.
         */
        @Override
        public void start(long firstOffset) {
            if (firstOffset > from) {
                throw new JournalHeadDeletedException(topic, partition, firstOffset, from);
            }
        }

        /** The offset below which the fold reflects every journal record. */
        private long position() {
            return Math.max(next, end);
        }

        /** Refuses a partition that ends before the snapshot the fold starts from: not the journal it came from. */
        @Override
        public void end(long endOffset) {
            if (endOffset < from) {
                throw JournalHeadDeletedException.behindSnapshot(topic, partition, endOffset, from);
            }
            end = endOffset;
        }

        @Override
        public void accept(long offset, Headers headers, byte[] value) {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("the rebuild of partition " + partition + " was cancelled at offset "
                        + offset + ": its task was closed");
            }
            SpecificRecord event;
            try {
                event = decoder.decode("journal", value);
            } catch (EventDecodingException e) {
                if (undecodable++ < LOGGED_UNDECODABLE) {
                    LOG.error("Journal record {}/{} does not decode, so the rebuild skips it: {}", partition, offset,
                            e.getMessage());
                }
                return;
            }
            try {
                evolver.evolve(state, event);
            } catch (RuntimeException e) {
                throw new StreamsException("rebuilding partition " + partition + ": journal record " + offset
                        + " (" + event.getSchema().getName() + ") does not apply: " + e, e);
            }
            TimerIndex.timer(event).ifPresent(t -> timers.add(t.dueAtMs() > nowMs ? t
                    : new TimerIndex.Timer(t.jobId(), nowMs)));
            if (event instanceof JobRemoved removed) {
                timers.removeIf(timer -> timer.jobId().equals(removed.getJobId()));
            }
            StoreLayout.inputOf(headers).ifPresent(input -> inputPositions.merge(input.topic(), input.offset(),
                    Math::max));
            records++;
            next = offset + 1;
            progress(offset);
        }

        private void progress(long offset) {
            long now = System.currentTimeMillis();
            if (now - lastProgressMs >= PROGRESS_EVERY_MS) {
                lastProgressMs = now;
                LOG.info("Rebuilding partition {}: {} journal records folded, at offset {} of {}", partition,
                        records, offset, end);
                progress.rebuilding(partition, records, Math.max(0, end - offset - 1));
            }
        }
    }
}
