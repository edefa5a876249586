package dev.cairn.kit.sink;

import dev.cairn.events.keygroups.KeyGroupRanges;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestoredState;
import java.util.List;
import java.util.TreeSet;

/**
 * Which new sink subtask resolves the pending epochs of which old one after a rescale, so that each old subtask's
 * snapshot is resolved (its commit marker compared with the restored checkpoint, what its output lacks committed) by
 * exactly one new subtask, under the old subtask's transactional id, before anything new is written under it. Pure.
 *
 * <ul>
 *   <li>An old index that still exists ({@code old < parallelism}) is resolved by the new subtask of the same index,
 *       which goes on under that transactional id: no two producers ever share one. It reads the old snapshot by its
 *       name in the checkpoint's directory, whether or not the coordinator handed it that state.</li>
 *   <li>An old index beyond the new parallelism is resolved by the new subtask whose key groups hold the first key
 *       group of the old state's declared range (the coordinator hands that state to it, their ranges overlap);
 *       nothing is written under that index afterwards.</li>
 * </ul>
 */
public final class SinkHandover {

    private SinkHandover() {
    }

    /** The new subtask of {@code parallelism} that resolves old subtask {@code old}, which held {@code declared}. */
    public static int resolverOf(int old, KeyGroupRange declared, int parallelism, int maxParallelism) {
        if (old < parallelism) {
            return old;
        }
        return KeyGroupRanges.subtaskOf(maxParallelism, parallelism, declared.startKeyGroup());
    }

    /**
     * The old subtasks whose snapshots new subtask {@code subtask} resolves, ascending.
     *
     * @param parallelism the parallelism now
     * @param previousParallelism the parallelism the restored checkpoint was taken with
     * @param maxParallelism the task's max parallelism
     * @param handed the states the coordinator handed this subtask
     */
    public static List<Integer> resolvedBy(int subtask, int parallelism, int previousParallelism, int maxParallelism,
            List<RestoredState> handed) {
        TreeSet<Integer> resolved = new TreeSet<>();
        if (subtask < previousParallelism) {
            resolved.add(subtask);
        }
        for (RestoredState state : handed) {
            int old = state.fromSubtask();
            if (old >= parallelism && old < previousParallelism) {
                KeyGroupRange declared = state.keyGroups() != null ? state.keyGroups()
                        : KeyGroupRange.forSubtask(maxParallelism, previousParallelism, old);
                if (resolverOf(old, declared, parallelism, maxParallelism) == subtask) {
                    resolved.add(old);
                }
            }
        }
        return List.copyOf(resolved);
    }
}
