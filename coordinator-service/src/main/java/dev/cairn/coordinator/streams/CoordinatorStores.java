package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The coordinator's state stores (persistent RocksDB, backed by changelog topics):
 * <ul>
 *   <li>{@value #JOBS}: job id to {@link JobState} (status, checkpoint config, schedule, queue, pending summaries,
 *       stats; small: no per-task data);</li>
 *   <li>{@value #SPECS}: job id to its registered {@link JobSpec} (every vertex, in spec order), read when a
 *       spec is registered, when a checkpoint is planned and by the REST views;</li>
 *   <li>{@value #VERTICES}: (job, task) to the {@link TaskVertex}, the per-message lookup of acks, declines and
 *       task starts;</li>
 *   <li>{@value #ATTEMPTS}: (job, task, subtask) to the current attempt id;</li>
 *   <li>{@value #ACKS}: (job, checkpoint, task, subtask) to the accepted {@link CheckpointAcknowledged};</li>
 *   <li>{@value #RETAINED}: job id to its {@link RetainedCheckpoints};</li>
 *   <li>{@value #TIMERS}: (due time, job) to nothing, the index the punctuator range-scans.</li>
 * </ul>
 */
public final class CoordinatorStores {

    public static final String JOBS = "cairn-jobs";
    public static final String SPECS = "cairn-specs";
    public static final String VERTICES = "cairn-vertices";
    public static final String ATTEMPTS = "cairn-attempts";
    public static final String ACKS = "cairn-acks";
    public static final String RETAINED = "cairn-retained";
    public static final String TIMERS = "cairn-timers";

    private CoordinatorStores() {}

    static List<StoreBuilder<?>> builders() {
        AvroEventSerde<JobState> jobs = AvroEventSerde.currentOnly(JobState.class);
        AvroEventSerde<JobSpec> specs = AvroEventSerde.currentOnly(JobSpec.class);
        AvroEventSerde<TaskVertex> vertices = AvroEventSerde.currentOnly(TaskVertex.class);
        AvroEventSerde<CheckpointAcknowledged> acks = AvroEventSerde.currentOnly(CheckpointAcknowledged.class);
        return List.of(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(JOBS), Serdes.String(), jobs),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SPECS), Serdes.String(), specs),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(VERTICES), Serdes.Bytes(), vertices),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ATTEMPTS), Serdes.Bytes(), Serdes.String()),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ACKS), Serdes.Bytes(), acks),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RETAINED), Serdes.String(),
                        CairnSerdes.retained()),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TIMERS), Serdes.Bytes(), Serdes.Bytes()));
    }

    /** Names of every store, in the order of {@link #builders()}. */
    static List<String> names() {
        return List.of(JOBS, SPECS, VERTICES, ATTEMPTS, ACKS, RETAINED, TIMERS);
    }
}
