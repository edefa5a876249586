package dev.cairn.coordinator.streams;

import dev.cairn.core.state.StateTable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The coordinator's state stores, each backed by a changelog topic: one store of bytes per {@link StateTable}
 * (named by {@link StateTable#store()}; keys and values encoded by the table's codecs, see {@link StreamsStorage}),
 * and two of the shell's own:
 * <ul>
 *   <li>{@value #TIMERS}: (due time, job) to nothing, the index the punctuator range-scans; and, due never, the
 *       layout version of these stores and the input positions of the last rebuild ({@link StoreLayout}): stores
 *       of another layout are rebuilt from the journal ({@link StoreRebuild}).</li>
 *   <li>{@value #INSTANCE}: persistent and always empty. Kafka Streams keeps an instance's process id in its state
 *       directory only when the topology has a persistent store, and the process id makes the transactional id.
 *       With it, a restarted instance fences its killed predecessor's open transaction at once, instead of leaving
 *       every read_committed reader (sidecars, the restore of the changelogs) waiting for that transaction to
 *       time out. Being empty, it is never wiped.</li>
 * </ul>
 *
 * <p>The other stores live in memory. Under exactly-once, Kafka Streams wipes and restores persistent stores after
 * an unclean stop anyway, and opening, wiping and reopening RocksDB took about 2 s of a restart after SIGKILL
 * here, against well under a second to restore a coordinator's changelogs into memory.
 */
public final class CoordinatorStores {

    /** The store of job records: the one interactive queries locate a job by. */
    public static final String JOBS = StateTable.JOBS.store();
    public static final String TIMERS = "cairn-timers";
    /** Persistent, never written: keeps the process id (and the transactional id) across restarts. */
    public static final String INSTANCE = "cairn-instance";

    /** Every store a rebuild from the journal empties and writes anew: all but the always empty instance store. */
    static final List<String> REBUILT = Stream.concat(StateTable.ALL.stream().map(StateTable::store),
            Stream.of(TIMERS)).toList();

    private CoordinatorStores() {}

    static List<StoreBuilder<?>> builders() {
        List<StoreBuilder<?>> builders = new ArrayList<>();
        StateTable.ALL.forEach(table -> builders.add(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(table.store()), Serdes.Bytes(), Serdes.ByteArray())));
        builders.add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TIMERS), Serdes.Bytes(), Serdes.Bytes()));
        builders.add(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INSTANCE), Serdes.Bytes(),
                Serdes.Bytes()).withLoggingDisabled());
        return builders;
    }
}
