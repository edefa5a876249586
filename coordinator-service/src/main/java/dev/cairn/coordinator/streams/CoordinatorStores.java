package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The coordinator's state stores (persistent RocksDB, backed by changelog topics):
 * <ul>
 *   <li>{@value #JOBS}: job id to {@link JobState} (spec, status, schedule, queue, pending summaries, stats);</li>
 *   <li>{@value #ATTEMPTS}: (job, task, subtask) to the current attempt id;</li>
 *   <li>{@value #ACKS}: (job, checkpoint, task, subtask) to the accepted {@link CheckpointAcknowledged};</li>
 *   <li>{@value #RETAINED}: job id to its {@link RetainedCheckpoints};</li>
 *   <li>{@value #TIMERS}: (due time, job) to nothing, the index the punctuator range-scans.</li>
 * </ul>
 */
public final class CoordinatorStores {

    public static final String JOBS = "cairn-jobs";
    public static final String ATTEMPTS = "cairn-attempts";
    public static final String ACKS = "cairn-acks";
    public static final String RETAINED = "cairn-retained";
    public static final String TIMERS = "cairn-timers";

    private CoordinatorStores() {}

    static List<StoreBuilder<?>> builders() {
        AvroEventSerde<JobState> jobs = AvroEventSerde.currentOnly(JobState.class);
        AvroEventSerde<CheckpointAcknowledged> acks = AvroEventSerde.currentOnly(CheckpointAcknowledged.class);
        return List.of(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(JOBS), Serdes.String(), jobs),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ATTEMPTS), Serdes.Bytes(), Serdes.String()),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ACKS), Serdes.Bytes(), acks),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RETAINED), Serdes.String(),
                        CairnSerdes.retained()),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TIMERS), Serdes.Bytes(), Serdes.Bytes()));
    }

    /** Names of every store, in the order of {@link #builders()}. */
    static List<String> names() {
        return List.of(JOBS, ATTEMPTS, ACKS, RETAINED, TIMERS);
    }
}
