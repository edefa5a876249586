package dev.cairn.core.state;

import dev.cairn.coordinator.state.AdmittedRequests;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.KeptSavepoints;
import dev.cairn.coordinator.state.RemovedJob;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.coordinator.state.SharedStateEntry;
import dev.cairn.core.state.StateKeys.AckKey;
import dev.cairn.core.state.StateKeys.AttemptKey;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateKeys.RequestKey;
import dev.cairn.core.state.StateKeys.SharedKey;
import dev.cairn.core.state.StateKeys.VertexKey;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The catalogue of the coordinator's state: every table, declared once, with the name of the store that holds
 * it, how its keys and values are encoded, whether its entries are ever removed, and how the decider reads it (a
 * store backing keeps the values of the tables read on every message decoded, and the keys of those read mostly
 * for keys they do not hold), and where a job's entries are when the job is removed ({@link JobEntries}).
 * {@link CoordinatorState} reads and writes any table; a backing ({@link Storage}) keeps every table of {@link #ALL}.
 * Adding a table is one line here and its codec.
 *
 * @param <K> the key: a job id or one of {@link StateKeys}
 * @param <V> the value, an Avro record (immutable by convention: writers put new values)
 */
public final class StateTable<K, V extends SpecificRecord> {

    /** Status, checkpoint config, schedule, queue, pending summaries, counters: small, nothing per task. */
    public static final StateTable<String, JobState> JOBS = new StateTable<>("cairn-jobs", StateKeys.JOB,
            JobState.class, Removal.NEVER, Reads.OFTEN, JobEntries.KEY);
    /** The registered spec, every vertex in spec order: read at registration, triggering and by the REST views. */
    public static final StateTable<String, JobSpec> SPECS = new StateTable<>("cairn-specs", StateKeys.JOB,
            JobSpec.class, Removal.NEVER, Reads.OFTEN, JobEntries.KEY);
    /** The spec's vertices one key each: the per-message lookup of acks, declines and task starts. */
    public static final StateTable<VertexKey, TaskVertex> VERTICES = new StateTable<>("cairn-vertices",
            StateKeys.VERTEX, TaskVertex.class, Removal.BY_KEY, Reads.OFTEN, JobEntries.GROUP);
    /**
     * A subtask's current attempt, the start time its TaskStarted carried and the host it named; values written
     * before the host existed decode with none ({@link #attempts()}).
     */
    public static final StateTable<AttemptKey, CurrentAttempt> ATTEMPTS = new StateTable<>("cairn-attempts",
            StateKeys.SUBTASK, attempts(), Removal.NEVER, Reads.OFTEN, JobEntries.GROUP);
    /** A subtask that finished for good, with its final state, until a new attempt of it starts. */
    public static final StateTable<AttemptKey, TaskFinished> FINISHED = new StateTable<>("cairn-finished",
            StateKeys.SUBTASK, TaskFinished.class, Removal.BY_KEY, Reads.WHEN_NEEDED, JobEntries.GROUP);
    /**
     * The accepted acks, read a checkpoint at a time; they double as per-subtask stats while their checkpoint is
     * pending or in the job's history. A checkpoint's progress is derived from them ({@link CoordinatorState}).
     */
    public static final StateTable<AckKey, CheckpointAcknowledged> ACKS = new StateTable<>("cairn-acks",
            StateKeys.ACK, CheckpointAcknowledged.class, Removal.BY_GROUP, Reads.MOSTLY_ABSENT,
            JobEntries.CHECKPOINTS);
    /** One ended checkpoint of the job's history. */
    public static final StateTable<CheckpointKey, CheckpointSummary> SUMMARIES = new StateTable<>("cairn-summaries",
            StateKeys.CHECKPOINT, CheckpointSummary.class, Removal.BY_KEY, Reads.WHEN_NEEDED, JobEntries.CHECKPOINTS);
    /** The retained completed checkpoints, written only at completion; read with the schemas of older releases. */
    public static final StateTable<String, RetainedCheckpoints> RETAINED = new StateTable<>("cairn-retained",
            StateKeys.JOB, CairnSerdes.retained(), Removal.NEVER, Reads.WHEN_NEEDED, JobEntries.KEY);
    /** What became of one trigger request (its latest outcome), for the status queries. */
    public static final StateTable<RequestKey, RequestRecord> REQUESTS = new StateTable<>("cairn-requests",
            StateKeys.REQUEST, RequestRecord.class, Removal.BY_KEY, Reads.WHEN_NEEDED, JobEntries.GROUP);
    /** The job's requests whose records are kept, oldest first (bounded). */
    public static final StateTable<String, RequestIndex> REQUEST_INDEXES = new StateTable<>("cairn-request-index",
            StateKeys.JOB, RequestIndex.class, Removal.NEVER, Reads.WHEN_NEEDED, JobEntries.KEY);

    /** The job's savepoints that are points to restore from, oldest first, until a user disposes of one. */
    public static final StateTable<String, KeptSavepoints> SAVEPOINTS = new StateTable<>("cairn-savepoints",
            StateKeys.JOB, KeptSavepoints.class, Removal.NEVER, Reads.WHEN_NEEDED, JobEntries.KEY);

    /**
     * The job's shared state objects and how many acks of kept checkpoints refer to each ({@link SharedStates}):
     * read for the shared objects an ack names, and when a checkpoint's state is discarded.
     */
    public static final StateTable<SharedKey, SharedStateEntry> SHARED_STATES = new StateTable<>("cairn-shared",
            StateKeys.SHARED, SharedStateEntry.class, Removal.BY_KEY, Reads.WHEN_NEEDED, JobEntries.GROUP);

    /**
     * What is kept of a removed job ({@link RemovedJob}): where its checkpoint id counter had got to. It outlives the
     * job, and stays when the id is registered again (a later removal replaces it).
     */
    public static final StateTable<String, RemovedJob> REMOVED = new StateTable<>("cairn-removed", StateKeys.JOB,
            RemovedJob.class, Removal.NEVER, Reads.WHEN_NEEDED, JobEntries.KEPT);

    /**
     * The keys of the job's requests admitted within the last two freshness windows, which a replay or retry would
     * repeat; they outlive the job's removal.
     */
    public static final StateTable<String, AdmittedRequests> ADMISSIONS = new StateTable<>("cairn-admissions",
            StateKeys.JOB, AdmittedRequests.class, Removal.NEVER, Reads.WHEN_NEEDED, JobEntries.KEPT);

    /** Every table, in the order a state lists them. */
    public static final List<StateTable<?, ?>> ALL = List.of(JOBS, SPECS, VERTICES, ATTEMPTS, FINISHED, ACKS,
            SUMMARIES, RETAINED, REQUESTS, REQUEST_INDEXES, SAVEPOINTS, SHARED_STATES, REMOVED, ADMISSIONS);

    /**
     * Which entries of a table are ever removed while their job lives. A job's removal removes every entry of the
     * job, whatever its table's removal ({@link CoordinatorState#removeJob}, by {@link JobEntries}).
     */
    public enum Removal {
        /** None: the entry lives as long as the job; removing one otherwise is a bug. */
        NEVER,
        /** One key at a time. */
        BY_KEY,
        /** A group of keys at once ({@link KeyCodec#group}). */
        BY_GROUP
    }

    /** Where a job's entries are in a table, for the job's removal to find every one of them. */
    public enum JobEntries {
        /** Under the job id: one entry per job. */
        KEY,
        /** In the group of the job id ({@link KeyCodec#group}). */
        GROUP,
        /**
         * One entry (or group) per checkpoint of the job, under its {@link StateKeys.CheckpointKey}: found through the
         * checkpoints the job may keep something of.
         */
        CHECKPOINTS,
        /** None: the table keeps what outlives a removed job. */
        KEPT
    }

    /** How often the decider reads a table. */
    public enum Reads {
        /**
         * On every message (an ack reads its job, vertex and attempt) or every trigger (the spec): a store backing
         * keeps the values it read or wrote decoded.
         */
        OFTEN,
        /** Once per checkpoint, request or subtask's end: decoded each time it is read. */
        WHEN_NEEDED,
        /**
         * On every message, for a key that is almost never there (an ack looks for an earlier one of its subtask):
         * a store backing keeps the table's keys in memory, so that a key it does not hold reads no store; values
         * are decoded each time they are read.
         */
        MOSTLY_ABSENT
    }

    private static int tables;

    private final String store;
    private final KeyCodec<K> keys;
    private final AvroEventSerde<V> values;
    private final Removal removal;
    private final Reads reads;
    private final JobEntries jobEntries;
    private final int index;

    private StateTable(String store, KeyCodec<K> keys, Class<V> type, Removal removal, Reads reads,
            JobEntries jobEntries) {
        this(store, keys, AvroEventSerde.currentOnly(type), removal, reads, jobEntries);
    }

    private StateTable(String store, KeyCodec<K> keys, AvroEventSerde<V> values, Removal removal, Reads reads,
            JobEntries jobEntries) {
        this.store = store;
        this.keys = keys;
        this.values = values;
        this.removal = removal;
        this.reads = reads;
        this.jobEntries = jobEntries;
        this.index = nextIndex();
    }

    /**
     * The attempts' codec: writes the current {@link CurrentAttempt}, reads it and its first schema (attempt id and
     * start time, without the host), so that stores and snapshots written before the host existed need no rebuild.
     */
    private static AvroEventSerde<CurrentAttempt> attempts() {
        Schema first = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"CurrentAttempt\","
                + "\"namespace\":\"dev.cairn.coordinator.state\",\"fields\":[{\"name\":\"attemptId\","
                + "\"type\":\"string\"},{\"name\":\"startedAtMs\",\"type\":\"long\"}]}");
        return new AvroEventSerde<>(CurrentAttempt.class, List.of(first), Map.of());
    }

    private static int nextIndex() {
        return tables++;
    }

    /** The name of the store (and of its changelog topic's suffix) that holds this table. */
    public String store() {
        return store;
    }

    public KeyCodec<K> keys() {
        return keys;
    }

    /** Encodes a value to its store's bytes: the single-object encoding of its current schema. */
    public byte[] encode(V value) {
        return values.serialize(store, value);
    }

    public V decode(byte[] bytes) {
        return values.deserialize(store, bytes);
    }

    /** Whether a store backing keeps the values it has read or written decoded. */
    public boolean keptDecoded() {
        return reads == Reads.OFTEN;
    }

    /** Whether a store backing keeps every key of this table in memory, to answer a read of an absent key. */
    public boolean keysKept() {
        return reads == Reads.MOSTLY_ABSENT;
    }

    /** Where a job's entries are in this table, for the job's removal. */
    public JobEntries jobEntries() {
        return jobEntries;
    }

    /** Whether this table is read and removed a group of keys at a time. */
    public boolean grouped() {
        return keys.grouped();
    }

    /**
     * This table's place in {@link #ALL}, from 0: the states keep their tables in arrays by it, so that finding a
     * table on the per-ack path is an array access, not a map lookup.
     */
    public int index() {
        return index;
    }

    /**
     * The key of an entry to remove.
     *
     * @throws IllegalStateException for a table whose entries are never removed one by one: removing one is a bug
     */
    public K removable(K key) {
        if (removal != Removal.BY_KEY) {
            throw new IllegalStateException("the " + store + " table never removes a single entry: " + key);
        }
        return key;
    }

    /**
     * A group of keys to remove.
     *
     * @throws IllegalStateException for a table whose entries are not removed by group
     */
    public Object removableGroup(Object group) {
        if (removal != Removal.BY_GROUP) {
            throw new IllegalStateException("the " + store + " table never removes a group: " + group);
        }
        return group;
    }

    @Override
    public String toString() {
        return store;
    }
}
