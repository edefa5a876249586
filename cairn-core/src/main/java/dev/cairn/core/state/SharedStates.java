package dev.cairn.core.state;

import dev.cairn.coordinator.state.SharedStateEntry;
import dev.cairn.core.state.StateKeys.SharedKey;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A job's shared state objects counted by reference (Flink: SharedStateRegistry). An accepted ack adds one reference
 * to every shared object its state handle names ({@link #register}); a checkpoint that stops being kept (aborted,
 * subsumed, or a savepoint disposed of and not retained) takes its acks' references away ({@link #release}). An object
 * whose count reaches 0 has no entry any more: nothing the coordinator keeps refers to it. The evolver changes the
 * counts; the decider asks beforehand which objects a release leaves without a reference ({@link #orphaned}), with
 * the same arithmetic, so what it reports is what the evolver does.
 */
public final class SharedStates {

    private SharedStates() {
    }

    /** One more reference to each shared object of an accepted ack. */
    public static void register(CoordinatorState state, CheckpointAcknowledged ack) {
        StateHandle handle = ack.getStateHandle();
        if (handle == null || handle.getShared().isEmpty()) {
            return;
        }
        for (SharedState shared : handle.getShared()) {
            SharedKey key = new SharedKey(ack.getJobId(), shared.getLocation());
            Optional<SharedStateEntry> entry = state.get(StateTable.SHARED_STATES, key);
            state.put(StateTable.SHARED_STATES, key, entry.isPresent()
                    ? SharedStateEntry.newBuilder(entry.get())
                            .setReferences(entry.get().getReferences() + 1)
                            .setLastCheckpointId(Math.max(entry.get().getLastCheckpointId(), ack.getCheckpointId()))
                            .build()
                    : SharedStateEntry.newBuilder()
                            .setLocation(shared.getLocation())
                            .setSizeBytes(shared.getSizeBytes())
                            .setTaskId(ack.getTaskId())
                            .setSubtaskIndex(ack.getSubtaskIndex())
                            .setReferences(1)
                            .setLastCheckpointId(ack.getCheckpointId())
                            .build());
        }
    }

    /** Takes away the references of checkpoint {@code checkpointId}'s accepted acks; an entry at 0 goes. */
    public static void release(CoordinatorState state, String jobId, long checkpointId) {
        for (CheckpointAcknowledged ack : state.acks(jobId, checkpointId)) {
            for (SharedState shared : sharedOf(ack)) {
                SharedKey key = new SharedKey(jobId, shared.getLocation());
                Optional<SharedStateEntry> entry = state.get(StateTable.SHARED_STATES, key);
                if (entry.isEmpty()) {
                    continue;
                }
                int left = entry.get().getReferences() - 1;
                if (left <= 0) {
                    state.remove(StateTable.SHARED_STATES, key);
                } else {
                    state.put(StateTable.SHARED_STATES, key,
                            SharedStateEntry.newBuilder(entry.get()).setReferences(left).build());
                }
            }
        }
    }

    /**
     * What releasing one checkpoint's references does: the objects it leaves without a reference, and how many other
     * shared objects it referred to stay, still referred to by something kept.
     */
    public record Release(List<SharedStateEntry> orphans, int stillReferenced) {
    }

    /**
     * What releasing {@code checkpointIds} in this order does, by checkpoint: the objects whose last reference goes
     * with it (what {@link #release} of each, in turn, removes) and how many it referred to stay.
     */
    public static Map<Long, Release> orphaned(CoordinatorState state, String jobId, List<Long> checkpointIds) {
        Map<String, Integer> left = new HashMap<>();
        Map<Long, Release> releases = new LinkedHashMap<>();
        for (long id : checkpointIds) {
            List<SharedStateEntry> orphans = new ArrayList<>();
            Set<String> referred = new HashSet<>();
            for (CheckpointAcknowledged ack : state.acks(jobId, id)) {
                for (SharedState shared : sharedOf(ack)) {
                    Optional<SharedStateEntry> entry = state.sharedState(jobId, shared.getLocation());
                    if (entry.isEmpty()) {
                        continue;
                    }
                    referred.add(shared.getLocation());
                    int count = left.getOrDefault(shared.getLocation(), entry.get().getReferences()) - 1;
                    left.put(shared.getLocation(), count);
                    if (count == 0) {
                        orphans.add(entry.get());
                    }
                }
            }
            releases.put(id, new Release(orphans, referred.size() - orphans.size()));
        }
        return releases;
    }

    /**
     * The first object {@code ack} says it reuses that no kept checkpoint refers to any more (it was discarded, or
     * never was): an ack built on it cannot be restored.
     */
    public static Optional<SharedState> missingReused(CoordinatorState state, CheckpointAcknowledged ack) {
        for (SharedState shared : sharedOf(ack)) {
            if (shared.getReused() && state.sharedState(ack.getJobId(), shared.getLocation()).isEmpty()) {
                return Optional.of(shared);
            }
        }
        return Optional.empty();
    }

    /** Whether a kept checkpoint's ack refers to the shared object at {@code location}. */
    public static boolean isReferenced(CoordinatorState state, String jobId, String location) {
        return state.sharedState(jobId, location).isPresent();
    }

    private static List<SharedState> sharedOf(CheckpointAcknowledged ack) {
        return ack.getStateHandle() == null ? List.of() : ack.getStateHandle().getShared();
    }
}
