package dev.cairn.core.testing;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateKeys;
import dev.cairn.core.state.StateTable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * Every entry a state holds of one job, table by table, found by a scan of every table (tests only: the coordinator
 * never scans a whole table): what a job's removal must leave nothing of, and must not touch of another job.
 */
public final class StoredEntries {

    private StoredEntries() {
    }

    /** By store name, the entries of {@code jobId}'s keys; a table that holds none of them is left out. */
    public static Map<String, Map<Object, Object>> of(CoordinatorState state, String jobId) {
        Map<String, Map<Object, Object>> entries = new TreeMap<>();
        for (StateTable<?, ?> table : StateTable.ALL) {
            Map<Object, Object> ofJob = ofTable(state, table, jobId);
            if (!ofJob.isEmpty()) {
                entries.put(table.store(), ofJob);
            }
        }
        return entries;
    }

    private static <K, V extends SpecificRecord> Map<Object, Object> ofTable(CoordinatorState state,
            StateTable<K, V> table, String jobId) {
        Map<Object, Object> ofJob = new HashMap<>();
        state.storage().scan(table, null).forEach((key, value) -> {
            if (jobId.equals(jobOf(key))) {
                ofJob.put(key, value);
            }
        });
        return ofJob;
    }

    /** The job a key of any table belongs to. */
    private static String jobOf(Object key) {
        if (key instanceof String jobId) {
            return jobId;
        } else if (key instanceof StateKeys.VertexKey k) {
            return k.jobId();
        } else if (key instanceof StateKeys.AttemptKey k) {
            return k.jobId();
        } else if (key instanceof StateKeys.CheckpointKey k) {
            return k.jobId();
        } else if (key instanceof StateKeys.AckKey k) {
            return k.jobId();
        } else if (key instanceof StateKeys.RequestKey k) {
            return k.jobId();
        } else if (key instanceof StateKeys.SharedKey k) {
            return k.jobId();
        }
        throw new IllegalArgumentException("a key of no known table: " + key);
    }
}
