package dev.cairn.coordinator.rest.bodies;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.contract.SpecProblem;
import dev.cairn.core.contract.TriggerRequests;
import dev.cairn.core.events.BoundedText;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The body of {@code POST /jobs/{jobId}/rescaling} ({@link Rescale}): the new parallelism of some of a job's tasks,
 * where the stop's savepoint goes and the restore mode. Read in two steps: {@link #rescale} checks the body alone as
 * a restore body is checked (every problem at once, each named by its JSON field: what Jackson refuses, a parallelism
 * that is not a whole number from 1 to the coordinator's limit, no task named, and the ids and the target as the
 * coordinator's rules of a savepoint request check them, {@link TriggerRequests#boundsProblems}); {@link #requireFits}
 * then checks it against the job's tasks (a task the job has, a parallelism within the task's max parallelism).
 */
public final class RescaleBodies {

    private static final String TARGET = "targetDirectory";
    private static final String FLINK_TARGET = "target-directory";

    private RescaleBodies() {
    }

    /**
     * {@code {"parallelism": {"count": 3, "sink": 1}, "targetDirectory": "s3://bucket/savepoints", "restoreMode":
     * "NO_CLAIM", "requestId": "..."}}: {@code parallelism} names at least one task; {@code targetDirectory} (or
     * Flink's {@code target-directory}) left out writes the stop's savepoint under the job's storage base location;
     * {@code restoreMode} left out is NO_CLAIM.
     */
    record Rescale(Map<String, Long> parallelism, String targetDirectory,
            @JsonProperty(FLINK_TARGET) String flinkTargetDirectory, RestoreMode restoreMode, String requestId) {
        static final String EXAMPLE = "{\"parallelism\": {\"count\": 3, \"sink\": 1}, \"targetDirectory\": "
                + "\"s3://bucket/savepoints\"}";
    }

    /**
     * A task of the job's spec as a rescale is checked against it.
     *
     * @param taskId the task
     * @param maxParallelism the most subtasks it may have (its key groups); {@code null} when not known here
     */
    public record SpecTask(String taskId, Integer maxParallelism) {

        /**
         * A vertex of the job's spec: its max parallelism, which the coordinator sets when it registers the spec, or
         * Flink's default for its parallelism for a spec registered before ({@link JobSpecs#maxParallelism}).
         */
        public static SpecTask of(TaskVertex vertex) {
            return new SpecTask(vertex.getTaskId(), JobSpecs.maxParallelism(vertex));
        }
    }

    /**
     * The rescale a body asks for, in the order the body names the tasks.
     *
     * @throws ApiException 400 naming everything that is wrong with the body
     */
    public static RescaleJob rescale(String text, String jobId, long nowMs, Supplier<String> ids, InputLimits limits) {
        BodyReader.Bound<Rescale> bound = BodyReader.read(text == null || text.isBlank() ? "{}" : text,
                Rescale.class, Rescale.EXAMPLE);
        Rescale body = bound.value();
        List<String> problems = new ArrayList<>(bound.problems().values());
        List<TaskRescale> tasks = tasks(body.parallelism(), bound.problems(), limits, problems);
        if (body.targetDirectory() != null && body.flinkTargetDirectory() != null) {
            problems.add(TARGET + " and " + FLINK_TARGET + " both name where the savepoint goes; give one of them");
        }
        String targetField = body.flinkTargetDirectory() != null ? FLINK_TARGET : TARGET;
        String target = body.flinkTargetDirectory() != null ? body.flinkTargetDirectory() : body.targetDirectory();
        RescaleJob rescale = RescaleJob.newBuilder().setJobId(jobId)
                .setRequestId(body.requestId() != null ? body.requestId() : ids.get()).setTasks(tasks)
                .setTargetLocation(target)
                .setRestoreMode(body.restoreMode() == null ? RestoreMode.NO_CLAIM : body.restoreMode())
                .setRequester(RestoreBodies.REQUESTER).setTimestampMs(nowMs).build();
        Function<String, String> field = path -> path.equals("targetLocation") ? targetField
                : path.equals("jobId") ? "the job id in the path" : path;
        for (SpecProblem problem : TriggerRequests.boundsProblems(stopWithSavepoint(rescale), limits)) {
            problems.add(field.apply(problem.path()) + " " + problem.message());
        }
        BodyReader.requireNone(problems);
        return rescale;
    }

    /**
     * Checks a rescale against the job's tasks: each task it names is one of them, and its new parallelism is within
     * the task's max parallelism where that is known.
     *
     * @throws ApiException 400 naming every task that does not fit
     */
    public static void requireFits(RescaleJob rescale, List<SpecTask> tasks) {
        Map<String, SpecTask> byId = tasks.stream().collect(Collectors.toMap(SpecTask::taskId, t -> t, (a, b) -> a));
        List<String> problems = new ArrayList<>();
        for (TaskRescale task : rescale.getTasks()) {
            String field = "parallelism." + BoundedText.quoted(task.getTaskId());
            SpecTask known = byId.get(task.getTaskId());
            if (known == null) {
                problems.add(field + ": job '" + rescale.getJobId() + "' has no task '"
                        + BoundedText.quoted(task.getTaskId()) + "' (its tasks: " + tasks.stream()
                        .map(SpecTask::taskId).collect(Collectors.joining(", ")) + ")");
            } else if (known.maxParallelism() != null && task.getParallelism() > known.maxParallelism()) {
                problems.add(field + " must be at most " + known.maxParallelism() + ", the task's max parallelism "
                        + "(its number of key groups, which a rescale does not change), not " + task.getParallelism());
            }
        }
        BodyReader.requireNone(problems);
    }

    /** {@code count x3, sink x1}, for the log. */
    public static String describe(RescaleJob rescale) {
        return rescale.getTasks().stream().map(t -> t.getTaskId() + " x" + t.getParallelism())
                .collect(Collectors.joining(", "));
    }

    /** The parallelism of each task the body names, each problem added to {@code problems} by its JSON field. */
    private static List<TaskRescale> tasks(Map<String, Long> parallelism, Map<String, String> refused,
            InputLimits limits, List<String> problems) {
        List<TaskRescale> tasks = new ArrayList<>();
        if (parallelism == null || parallelism.isEmpty()) {
            if (refused.keySet().stream().noneMatch(path -> path.startsWith("parallelism"))) {
                problems.add("parallelism names no task; give the new parallelism of at least one, like "
                        + Rescale.EXAMPLE);
            }
            return tasks;
        }
        parallelism.forEach((taskId, count) -> {
            String field = "parallelism." + BoundedText.quoted(taskId);
            if (taskId.isBlank()) {
                problems.add("parallelism names a task with an empty id");
            } else if (count == null || count < 1 || count > limits.maxParallelism()) {
                problems.add(field + " must be a whole number from 1 to " + limits.maxParallelism() + ", not "
                        + count);
            } else {
                tasks.add(new TaskRescale(taskId, count.intValue()));
            }
        });
        return tasks;
    }

    /** The stop the coordinator takes of a RUNNING job, whose ids and target the coordinator's rules check. */
    private static TriggerRequest stopWithSavepoint(RescaleJob rescale) {
        return TriggerRequest.newBuilder().setJobId(rescale.getJobId()).setRequestId(rescale.getRequestId())
                .setType(CheckpointType.SAVEPOINT).setTargetLocation(rescale.getTargetLocation())
                .setRequester(rescale.getRequester()).setTimestampMs(rescale.getTimestampMs())
                .setPostCheckpointAction(PostCheckpointAction.SUSPEND).build();
    }
}
