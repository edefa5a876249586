package dev.cairn.core.decide;

import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.state.Retention;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TaskParallelism;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A spec that changes a task's max parallelism while the job keeps points to restore from is refused (Flink refuses
 * the restore: the keyed state of those points is split into the old number of key groups). In: the decision's state
 * and the spec as it would be registered (max parallelism resolved); out: why not, naming the task, the values and
 * the point, or empty.
 */
public final class MaxParallelismChanges {

    private MaxParallelismChanges() {
    }

    static Optional<String> problem(Decision d, JobSpec spec) {
        List<CheckpointCompleted> kept = new ArrayList<>(d.state.savepoints(spec.getJobId()));
        Retention.newest(d.state.retained(spec.getJobId())).ifPresent(kept::add);
        return problem(spec, kept);
    }

    /**
     * Why {@code spec} (its max parallelism resolved, {@code JobSpecs.withMaxParallelism}) cannot replace the spec of
     * a job that keeps {@code kept} (its savepoints and restore point), or empty. The REST API answers a spec with it
     * before sending it, and the coordinator refuses it with it.
     */
    public static Optional<String> problem(JobSpec spec, List<CheckpointCompleted> kept) {
        for (CheckpointCompleted point : kept) {
            for (TaskVertex vertex : spec.getTasks()) {
                int wanted = JobSpecs.maxParallelism(vertex);
                Optional<Integer> taken = point.getParallelism().stream()
                        .filter(t -> t.getTaskId().equals(vertex.getTaskId()))
                        .map(TaskParallelism::getMaxParallelism).findFirst();
                if (taken.isPresent() && taken.get() != wanted) {
                    return Optional.of("tasks[" + vertex.getTaskId() + "].maxParallelism: " + wanted + " differs from "
                            + taken.get() + ", the max parallelism " + Restores.describe(point) + " of job "
                            + spec.getJobId() + " was taken with: its keyed state is split into " + taken.get()
                            + " key groups, which a restore cannot change (as in Flink); keep " + taken.get()
                            + ", or register the job under a new id");
                }
            }
        }
        return Optional.empty();
    }
}
