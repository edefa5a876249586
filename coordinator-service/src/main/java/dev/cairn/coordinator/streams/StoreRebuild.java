package dev.cairn.coordinator.streams;

import dev.cairn.client.audit.JournalDecoder;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.TimerIndex;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.serde.EventDecodingException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * version), folded with the same {@link CheckpointEvolver} that built the stores, into memory. Out: every store of
 * the task emptied and written with the fold (jobs, specs, vertices, attempts, finished subtasks, acks, summaries,
 * retained checkpoints, request records and indexes); the timers the journal's events set (each one already due
 * becomes one tick of its job now, which decides what is overdue: a timeout or a periodic trigger; none of a job
 * removed since); and the layout and the last input offset of each input topic the journal reflects
 * ({@link StoreLayout#inputPositions}), so that an application that starts reading its inputs from the beginning skips
 * what it already decided. Progress goes to the log and to the {@link DecisionListener} (metrics).
 */
final class StoreRebuild {

    private static final Logger LOG = LoggerFactory.getLogger(StoreRebuild.class);
    private static final long PROGRESS_EVERY_MS = 5_000;
    private static final int LOGGED_UNDECODABLE = 10;

    private final CoordinatorSettings settings;
    private final JournalSource journal;
    private final DecisionListener listener;

    StoreRebuild(CoordinatorSettings settings, JournalSource journal, DecisionListener listener) {
        this.settings = settings;
        this.journal = journal;
        this.listener = listener;
    }

    /** What one rebuild folded. */
    record Result(long records, long undecodable, Map<String, Long> inputPositions, long millis) {
    }

    /**
     * Empties the task's stores and writes them anew from the journal.
     *
     * @param appConfigs the application's Kafka Streams configuration (how the journal is read)
     * @param stores the task's stores by name
     * @param nowMs the wall-clock time: timers due by then become one tick of their job at this time
     */
    Result rebuild(Map<String, Object> appConfigs, String journalTopic, int partition, String reason,
            Function<String, KeyValueStore<?, ?>> stores, long nowMs) {
        long started = System.nanoTime();
        LOG.info("Rebuilding the stores of partition {} from {} ({})", partition, journalTopic, reason);
        Fold fold = new Fold(partition, nowMs);
        journal.read(appConfigs, journalTopic, partition, fold);
        CoordinatorStores.REBUILT.forEach(name -> clear(stores.apply(name)));
        CoordinatorState target = CoordinatorState.over(StreamsStorage.forTask(name -> cast(stores.apply(name))));
        long entries = fold.state.copyTo(target);
        KeyValueStore<Bytes, Bytes> timers = cast(stores.apply(CoordinatorStores.TIMERS));
        fold.timers.forEach(timer -> timers.put(TimerKeys.timer(timer.dueAtMs(), timer.jobId()),
                CoordinatorProcessor.NO_VALUE));
        StoreLayout.record(timers, fold.inputPositions);
        long millis = (System.nanoTime() - started) / 1_000_000;
        LOG.info("Rebuilt the stores of partition {} from {} journal records ({} undecodable, skipped) in {} ms: "
                        + "{} entries, {} timers, inputs reflected up to {}", partition, fold.records, fold.undecodable,
                millis, entries, fold.timers.size(), fold.inputPositions);
        listener.rebuilt(partition, fold.records, millis);
        return new Result(fold.records, fold.undecodable, Map.copyOf(fold.inputPositions), millis);
    }

    private static void clear(KeyValueStore<?, ?> store) {
        KeyValueStore<Object, Object> entries = cast(store);
        List<Object> keys = new ArrayList<>();
        try (KeyValueIterator<Object, Object> it = entries.all()) {
            it.forEachRemaining(entry -> keys.add(entry.key));
        }
        keys.forEach(entries::delete);
    }

    @SuppressWarnings("unchecked")
    private static <K, V> KeyValueStore<K, V> cast(KeyValueStore<?, ?> store) {
        return (KeyValueStore<K, V>) store;
    }

    /** Folds the partition's records as they are read. */
    private final class Fold implements JournalSource.RecordSink {
        private final int partition;
        private final long nowMs;
        private final CheckpointEvolver evolver = new CheckpointEvolver(settings);
        private final CoordinatorState state = CoordinatorState.inMemory();
        private final JournalDecoder decoder = new JournalDecoder(journal.schemas());
        private final Set<TimerIndex.Timer> timers = new HashSet<>();
        private final Map<String, Long> inputPositions = new HashMap<>();
        private long records;
        private long undecodable;
        private long end = -1;
        private long lastProgressMs = System.currentTimeMillis();

        private Fold(int partition, long nowMs) {
            this.partition = partition;
            this.nowMs = nowMs;
        }

        @Override
        public void end(long endOffset) {
            end = endOffset;
        }

        @Override
        public void accept(long offset, Headers headers, byte[] value) {
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
            progress(offset);
        }

        private void progress(long offset) {
            long now = System.currentTimeMillis();
            if (now - lastProgressMs >= PROGRESS_EVERY_MS) {
                lastProgressMs = now;
                LOG.info("Rebuilding partition {}: {} journal records folded, at offset {} of {}", partition,
                        records, offset, end);
                listener.rebuilding(partition, records, Math.max(0, end - offset - 1));
            }
        }
    }
}
