package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The coordinator's state stores, each backed by a changelog topic:
 * <ul>
 *   <li>{@value #JOBS}: job id to {@link JobState} (status, checkpoint config, schedule, queue, pending summaries,
 *       stats; small: no per-task data);</li>
 *   <li>{@value #SPECS}: job id to its registered {@link JobSpec} (every vertex, in spec order), read when a
 *       spec is registered, when a checkpoint is planned and by the REST views;</li>
 *   <li>{@value #VERTICES}: (job, task) to the {@link TaskVertex}, the per-message lookup of acks, declines and
 *       task starts;</li>
 *   <li>{@value #ATTEMPTS}: (job, task, subtask) to the {@link CurrentAttempt}: its id and start time;</li>
 *   <li>{@value #FINISHED}: (job, task, subtask) to the {@link TaskFinished} of a subtask that finished for good
 *       (its final state), until a new attempt of it starts;</li>
 *   <li>{@value #ACKS}: (job, checkpoint, task, subtask) to the accepted {@link CheckpointAcknowledged}, kept as its
 *       encoded bytes ({@link #ACK_VALUES}): scanning a checkpoint's keys to delete them decodes nothing, and
 *       readers decode what they look at;</li>
 *   <li>{@value #SUMMARIES}: (job, checkpoint) to the {@link CheckpointSummary} of an ended checkpoint in the
 *       job's history;</li>
 *   <li>{@value #RETAINED}: job id to its {@link RetainedCheckpoints};</li>
 *   <li>{@value #REQUESTS}: (job, request id) to the {@link RequestRecord} of a trigger request, its latest
 *       outcome, for the status queries of {@code GET /jobs/{id}/savepoints/{requestId}};</li>
 *   <li>{@value #REQUEST_INDEX}: job id to its {@link RequestIndex}, the requests whose records are kept, oldest
 *       first (bounded);</li>
 *   <li>{@value #TIMERS}: (due time, job) to nothing, the index the punctuator range-scans; and, due never, the
 *       layout version of these stores and the input positions of the last rebuild ({@link StoreLayout}): stores
 *       of another layout are rebuilt from the journal ({@link StoreRebuild}).</li>
 * </ul>
 *
 * <p>These stores live in memory. Under exactly-once, Kafka Streams wipes and restores persistent stores after
 * an unclean stop anyway, and opening, wiping and reopening RocksDB took about 2 s of a restart after SIGKILL
 * here, against well under a second to restore a coordinator's changelogs into memory.
 *
 * <p>One more store, {@value #INSTANCE}, is persistent and stays empty: Kafka Streams keeps an instance's
 * process id in its state directory only when the topology has a persistent store, and the process id makes
 * the transactional id. With it, a restarted instance fences its killed predecessor's open transaction at
 * once, instead of leaving every read_committed reader (sidecars, the restore of the changelogs) waiting for
 * that transaction to time out. Being empty, it is never wiped.
 */
public final class CoordinatorStores {

    public static final String JOBS = "cairn-jobs";
    public static final String SPECS = "cairn-specs";
    public static final String VERTICES = "cairn-vertices";
    public static final String ATTEMPTS = "cairn-attempts";
    public static final String FINISHED = "cairn-finished";
    public static final String ACKS = "cairn-acks";
    /** How the values of {@value #ACKS} are encoded: the single-object encoding of the current schema. */
    static final AvroEventSerde<CheckpointAcknowledged> ACK_VALUES =
            AvroEventSerde.currentOnly(CheckpointAcknowledged.class);
    public static final String SUMMARIES = "cairn-summaries";
    public static final String RETAINED = "cairn-retained";
    public static final String REQUESTS = "cairn-requests";
    public static final String REQUEST_INDEX = "cairn-request-index";
    public static final String TIMERS = "cairn-timers";
    /** Persistent, never written: keeps the process id (and the transactional id) across restarts. */
    public static final String INSTANCE = "cairn-instance";

    /** Every store a rebuild from the journal empties and writes anew: all but the always empty instance store. */
    static final List<String> REBUILT = List.of(JOBS, SPECS, VERTICES, ATTEMPTS, FINISHED, ACKS, SUMMARIES, RETAINED,
            REQUESTS, REQUEST_INDEX, TIMERS);

    private CoordinatorStores() {}

    static List<StoreBuilder<?>> builders() {
        AvroEventSerde<JobState> jobs = AvroEventSerde.currentOnly(JobState.class);
        AvroEventSerde<JobSpec> specs = AvroEventSerde.currentOnly(JobSpec.class);
        AvroEventSerde<TaskVertex> vertices = AvroEventSerde.currentOnly(TaskVertex.class);
        AvroEventSerde<CurrentAttempt> attempts = AvroEventSerde.currentOnly(CurrentAttempt.class);
        AvroEventSerde<TaskFinished> finished = AvroEventSerde.currentOnly(TaskFinished.class);
        AvroEventSerde<CheckpointSummary> summaries = AvroEventSerde.currentOnly(CheckpointSummary.class);
        AvroEventSerde<RequestRecord> requests = AvroEventSerde.currentOnly(RequestRecord.class);
        AvroEventSerde<RequestIndex> requestIndex = AvroEventSerde.currentOnly(RequestIndex.class);
        return List.of(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(JOBS), Serdes.String(), jobs),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(SPECS), Serdes.String(), specs),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(VERTICES), Serdes.Bytes(), vertices),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(ATTEMPTS), Serdes.Bytes(), attempts),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(FINISHED), Serdes.Bytes(), finished),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(ACKS), Serdes.Bytes(), Serdes.ByteArray()),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(SUMMARIES), Serdes.Bytes(), summaries),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(RETAINED), Serdes.String(),
                        CairnSerdes.retained()),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(REQUESTS), Serdes.Bytes(), requests),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(REQUEST_INDEX), Serdes.String(),
                        requestIndex),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TIMERS), Serdes.Bytes(), Serdes.Bytes()),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INSTANCE), Serdes.Bytes(), Serdes.Bytes())
                        .withLoggingDisabled());
    }
}
