package dev.cairn.kit.operator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The key group objects of a confirmed checkpoint that snapshots planned at their barrier, and not written yet, reuse;
 * and the coordinator's discards of such objects, which wait until no planned snapshot reuses them.
 *
 * <p>A snapshot is planned at its barrier against the newest completed checkpoint the subtask knows of, and written
 * when the sidecar's request is there too. Meanwhile a later checkpoint may complete and the coordinator discard the
 * planned snapshot's base (subsumed), which the sidecar hands to the worker to delete: a FULL checkpoint or a
 * savepoint, which copies the reused objects, would then find them gone and be declined (a stop-with-savepoint
 * declined so fails the job), and an incremental checkpoint would name objects that no longer exist. So a discard of
 * an object that a planned snapshot reuses is deferred ({@link #deferIfLeased}); the snapshot copies it into its own
 * objects ({@link #discarded}); once the plan is written or dropped, the deferred object is handed back for deletion
 * ({@link #release}). In: plans (loop thread), discards (the sidecar's notification thread); out: what may be deleted.
 * Thread-safe.
 */
final class ReusedObjects {

    private final Map<Long, Set<String>> leased = new HashMap<>();
    private final Set<String> deferred = new LinkedHashSet<>();

    /**
     * Plans the snapshot of {@code checkpointId} with {@code planner} and leases the objects it reuses, in one step
     * that no discard comes between.
     */
    synchronized IncrementalSnapshots.Plan planned(long checkpointId, Supplier<IncrementalSnapshots.Plan> planner) {
        IncrementalSnapshots.Plan plan = planner.get();
        Set<String> locations = new HashSet<>();
        plan.reused().forEach(object -> locations.add(object.location()));
        if (!locations.isEmpty()) {
            leased.computeIfAbsent(checkpointId, id -> new HashSet<>()).addAll(locations);
        }
        return plan;
    }

    /**
     * The coordinator discarded the object at {@code location}: answers {@code true}, and keeps it to hand back by
     * {@link #release}, when a planned snapshot reuses it; {@code false} when it may be deleted now.
     */
    synchronized boolean deferIfLeased(String location) {
        for (Set<String> locations : leased.values()) {
            if (locations.contains(location)) {
                deferred.add(location);
                return true;
            }
        }
        return false;
    }

    /** Whether the coordinator discarded the object at {@code location} while a planned snapshot reused it. */
    synchronized boolean discarded(String location) {
        return deferred.contains(location);
    }

    /**
     * The plans of checkpoints other than {@code held} were written or dropped: their leases end. Answers the
     * deferred objects no plan reuses any more, which the caller deletes now.
     */
    synchronized List<String> release(Set<Long> held) {
        leased.keySet().retainAll(held);
        List<String> free = new ArrayList<>();
        for (String location : deferred) {
            if (leased.values().stream().noneMatch(locations -> locations.contains(location))) {
                free.add(location);
            }
        }
        free.forEach(deferred::remove);
        return free;
    }
}
