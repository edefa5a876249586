package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.contract.SpecProblem;
import dev.cairn.core.decide.MaxParallelismChanges;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.Retention;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code PUT /jobs/{jobId}} checks of a spec in the stores of the instance that owns the job, before producing
 * it, so that the caller hears at once what the coordinator would refuse: the spec as the coordinator would register
 * it (every task's max parallelism resolved against the job's registered spec, {@link JobSpecs#withMaxParallelism})
 * must keep each task's parallelism within its max parallelism, and must not change a task's max parallelism while
 * the job keeps a savepoint or restore point taken with another ({@link MaxParallelismChanges}). The cost is three
 * point reads: the job's spec, its savepoints and its retained checkpoints.
 */
final class KeptMaxParallelism {

    private KeptMaxParallelism() {
    }

    /**
     * @param spec the spec of the body, valid on its own ({@link JobSpecs#problems})
     * @throws ApiException 400 naming every task whose resolved max parallelism the coordinator would refuse
     */
    static void require(CoordinatorState stores, JobSpec spec, InputLimits limits) {
        String jobId = spec.getJobId();
        JobSpec resolved = JobSpecs.withMaxParallelism(spec, stores.spec(jobId));
        List<String> problems = new ArrayList<>();
        for (SpecProblem problem : JobSpecs.problems(resolved, limits)) {
            problems.add(problem.path() + ": " + problem.message() + " the task keeps from the job's registered "
                    + "spec (a task that leaves maxParallelism out keeps it)");
        }
        if (problems.isEmpty()) {
            List<CheckpointCompleted> kept = new ArrayList<>(stores.savepoints(jobId));
            Retention.newest(stores.retained(jobId)).ifPresent(kept::add);
            MaxParallelismChanges.problem(resolved, kept).ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(String.join("; ", problems));
        }
    }
}
