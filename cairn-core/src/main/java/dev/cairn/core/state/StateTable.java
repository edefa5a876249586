package dev.cairn.core.state;

import dev.cairn.core.state.StateKeys.AttemptKey;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateKeys.RequestKey;
import dev.cairn.core.state.StateKeys.VertexKey;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskVertex;
import java.util.List;

/**
 * One keyed table of the {@link CoordinatorState} (every one but the acks, which are also scanned by
 * checkpoint): its key and value types, and whether its entries are ever removed. The states implement
 * get, put and remove once over any table; {@link CoordinatorState}'s named methods say which table and key.
 *
 * @param <K> the key: a job id or one of {@link StateKeys}
 * @param <V> the value
 */
public final class StateTable<K, V> {

    public static final StateTable<String, JobState> JOBS = new StateTable<>("jobs", false);
    public static final StateTable<String, JobSpec> SPECS = new StateTable<>("specs", false);
    public static final StateTable<VertexKey, TaskVertex> VERTICES = new StateTable<>("vertices", true);
    public static final StateTable<AttemptKey, CurrentAttempt> ATTEMPTS = new StateTable<>("attempts", false);
    public static final StateTable<AttemptKey, TaskFinished> FINISHED = new StateTable<>("finished", true);
    public static final StateTable<CheckpointKey, CheckpointSummary> SUMMARIES =
            new StateTable<>("summaries", true);
    public static final StateTable<String, RetainedCheckpoints> RETAINED = new StateTable<>("retained", false);
    public static final StateTable<RequestKey, RequestRecord> REQUESTS = new StateTable<>("requests", true);
    public static final StateTable<String, RequestIndex> REQUEST_INDEXES =
            new StateTable<>("request indexes", false);

    /** Every table, in the order a state lists them. */
    public static final List<StateTable<?, ?>> ALL = List.of(JOBS, SPECS, VERTICES, ATTEMPTS, FINISHED, SUMMARIES,
            RETAINED, REQUESTS, REQUEST_INDEXES);

    private static int tables;

    private final String name;
    private final boolean removable;
    private final int index;

    private StateTable(String name, boolean removable) {
        this.name = name;
        this.removable = removable;
        this.index = nextIndex();
    }

    private static int nextIndex() {
        return tables++;
    }

    /**
     * This table's place in {@link #ALL}, from 0: the states keep their tables in arrays by it, so that finding
     * a table on the per-ack path is an array access, not a map lookup.
     */
    public int index() {
        return index;
    }

    /**
     * The key of an entry to remove.
     *
     * @throws IllegalStateException for a table whose entries are never removed (a job, its spec, attempts,
     *     retained checkpoints and request index live as long as the job): removing one is a bug
     */
    public K removable(K key) {
        if (!removable) {
            throw new IllegalStateException("the " + name + " table never removes an entry: " + key);
        }
        return key;
    }

    @Override
    public String toString() {
        return name;
    }
}
