package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.RestorePoints;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's change of the parallelism of some of a job's tasks (Flink's Kubernetes operator: a savepoint upgrade of
 * the parallelism). In: a {@code RescaleJob}. A RUNNING job first stops with a savepoint (SUSPEND, as
 * {@code cairn stop}), whose trigger request carries the rescale's request id; when that savepoint completes, the
 * job's spec takes the new parallelism (every task's max parallelism kept) and the job resumes from the savepoint,
 * its states handed out by {@link StateAssignment}. A job that is not RUNNING does both at once from its latest
 * restore point. Out: the request, then the stop's events, or the new {@code JobSpec}, {@code JobRestored} and the
 * job RUNNING; the requester is told by one {@code RequestOutcome}: COMPLETED once the job runs with the new
 * parallelism, or FAILED with the reason (an unknown task, a parallelism the task's max parallelism does not allow,
 * states that cannot be split, a failed stop; the job then keeps its parallelism).
 */
final class Rescales {

    private Rescales() {
    }

    static void rescale(Decision d, Command.Rescale command) {
        RescaleJob request = command.event();
        String jobId = request.getJobId();
        if (!Restores.acceptable(d, command, jobId, request.getRequestId())
                || CheckpointRequestDecider.isKnownRequest(d.job(jobId), request.getRequestId())) {
            return;
        }
        d.emit(request);
        Optional<JobSpec> spec = d.state.spec(jobId);
        Optional<String> invalid = spec.isEmpty() ? Optional.of("job " + jobId + " is not registered")
                : problem(spec.get(), request);
        if (invalid.isPresent()) {
            Restores.fail(d, jobId, request.getRequestId(), invalid.get());
            return;
        }
        JobSpec rescaled = rescaled(spec.get(), request, d.now);
        if (d.job(jobId).getStatus() == JobStatus.RUNNING) {
            Optional<String> unassignable = RestorePoints.find(d.state, jobId, null, null)
                    .flatMap(newest -> StateAssignment.problem(newest, RestorePoints.statesOf(newest,
                            d.state.acks(jobId, newest.getCheckpointId()), () -> d.state.finished(jobId),
                            taskId -> d.state.vertex(jobId, taskId)), rescaled));
            if (unassignable.isPresent()) {
                Restores.fail(d, jobId, request.getRequestId(), "job " + jobId + " keeps running with its"
                        + " parallelism: " + unassignable.get());
                return;
            }
            CheckpointRequestDecider.submitManual(d, stop(request, d.now));
            CheckpointRequestDecider.run(d, jobId);
            return;
        }
        Optional<CheckpointCompleted> point = RestorePoints.find(d.state, jobId, null, null);
        if (point.isEmpty()) {
            Restores.fail(d, jobId, request.getRequestId(), "job " + jobId + " keeps no restore point to resume"
                    + " from with the new parallelism");
            return;
        }
        Restores.resume(d, jobId, request.getRequestId(), point.get(), request.getRestoreMode(), rescaled,
                command.initialDelayFraction());
    }

    /** Whether {@code pending} is the stop-with-savepoint of the job's rescale: its outcome waits for the resume. */
    static boolean waitsFor(JobState job, PendingCheckpoint pending) {
        RescaleJob rescale = job.getPendingRescale();
        return rescale != null && pending.getRequestId() != null
                && pending.getRequestId().equals(rescale.getRequestId());
    }

    /** The rescale's stop-with-savepoint completed: the job resumes from it with the new parallelism. */
    static void afterStop(Decision d, String jobId, CheckpointCompleted savepoint) {
        RescaleJob request = d.job(jobId).getPendingRescale();
        Optional<JobSpec> spec = d.state.spec(jobId);
        Optional<String> invalid = spec.isEmpty() ? Optional.of("job " + jobId + " is not registered")
                : problem(spec.get(), request);
        if (invalid.isPresent()) {
            Restores.fail(d, jobId, request.getRequestId(), invalid.get() + "; job " + jobId + " stays FINISHED"
                    + " with savepoint " + savepoint.getCheckpointId() + " as its restore point");
            return;
        }
        Restores.resume(d, jobId, request.getRequestId(), savepoint, request.getRestoreMode(),
                rescaled(spec.get(), request, d.now), 0);
    }

    /** What is wrong with the request for the job's spec: unknown or repeated tasks, a parallelism out of bounds. */
    static Optional<String> problem(JobSpec spec, RescaleJob request) {
        if (request.getTasks().isEmpty()) {
            return Optional.of("a rescale names at least one task and its new parallelism");
        }
        Map<String, TaskVertex> vertices = new HashMap<>();
        spec.getTasks().forEach(v -> vertices.put(v.getTaskId(), v));
        Map<String, Integer> seen = new HashMap<>();
        boolean changes = false;
        for (TaskRescale task : request.getTasks()) {
            TaskVertex vertex = vertices.get(task.getTaskId());
            if (vertex == null) {
                return Optional.of("job " + spec.getJobId() + " has no task " + task.getTaskId() + " (its tasks: "
                        + String.join(", ", vertices.keySet().stream().sorted().toList()) + ")");
            }
            if (seen.put(task.getTaskId(), task.getParallelism()) != null) {
                return Optional.of("task " + task.getTaskId() + " is named twice");
            }
            int max = JobSpecs.maxParallelism(vertex);
            if (task.getParallelism() < 1 || task.getParallelism() > max) {
                return Optional.of("task " + task.getTaskId() + " can run with a parallelism from 1 to its max"
                        + " parallelism " + max + ", not " + task.getParallelism());
            }
            changes |= task.getParallelism() != vertex.getParallelism();
        }
        return changes ? Optional.empty() : Optional.of("the tasks named already run with that parallelism");
    }

    /** The spec with the request's parallelism, every task's max parallelism set to what it is now. */
    static JobSpec rescaled(JobSpec spec, RescaleJob request, long now) {
        Map<String, Integer> parallelism = new HashMap<>();
        request.getTasks().forEach(t -> parallelism.put(t.getTaskId(), t.getParallelism()));
        List<TaskVertex> tasks = new ArrayList<>(spec.getTasks().size());
        for (TaskVertex vertex : spec.getTasks()) {
            tasks.add(TaskVertex.newBuilder(vertex)
                    .setParallelism(parallelism.getOrDefault(vertex.getTaskId(), vertex.getParallelism()))
                    .setMaxParallelism(JobSpecs.maxParallelism(vertex))
                    .build());
        }
        return JobSpec.newBuilder(spec).setTasks(tasks).setTimestampMs(now).build();
    }

    /** The stop-with-savepoint a rescale of a RUNNING job starts with: SUSPEND, under the rescale's request id. */
    private static TriggerRequest stop(RescaleJob request, long now) {
        return TriggerRequest.newBuilder()
                .setJobId(request.getJobId())
                .setRequestId(request.getRequestId())
                .setType(CheckpointType.SAVEPOINT)
                .setForce(null)
                .setTargetLocation(request.getTargetLocation())
                .setRequester(request.getRequester())
                .setTimestampMs(now)
                .setPostCheckpointAction(PostCheckpointAction.SUSPEND)
                .build();
    }
}
