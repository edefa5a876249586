package dev.cairn.core.contract;

import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.keygroups.KeyGroupRanges;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pure functions over a {@link JobSpec}: its rules ({@link #problems}, the one place a spec is checked, by the
 * coordinator and by every front end), plan shape and schedule arithmetic.
 */
public final class JobSpecs {

    /**
     * A trigger carries the roles of the tasks whose roles differ from the default; their ids and flags may take
     * this many bytes at most, so a trigger stays far below Kafka's 1 MiB record limit whatever the job.
     */
    public static final int MAX_ROLES_BYTES = 256 * 1024;
    /** The most coordinator-side participants a job may name: each is asked before every checkpoint. */
    public static final int MAX_PARTICIPANTS = 16;
    /** What one task's roles add to a trigger besides its id: a length prefix and three booleans, rounded up. */
    private static final int ROLE_BYTES = 8;

    private JobSpecs() {
    }

    /** Every problem of the spec under the default {@link InputLimits}; empty when it is valid. */
    public static List<SpecProblem> problems(JobSpec spec) {
        return problems(spec, InputLimits.DEFAULTS);
    }

    /**
     * Every problem of the spec, each with the path of its field (see {@link SpecProblem}); empty when it is
     * valid. Sizes are checked against {@code limits} before anything is allocated for them (the plan of a
     * trigger allocates per subtask).
     */
    public static List<SpecProblem> problems(JobSpec spec, InputLimits limits) {
        List<SpecProblem> problems = new ArrayList<>();
        add(problems, "jobId", limits.jobIdProblem(spec.getJobId()));
        if (spec.getConfig() == null) {
            problems.add(new SpecProblem("config", "is missing"));
        } else {
            configProblems(spec.getConfig(), limits, problems);
        }
        taskProblems(spec.getTasks(), limits, problems);
        participantProblems(spec, limits, problems);
        return problems;
    }

    /**
     * Why the coordinator rejects the spec (its problems, see {@link SpecProblem#describe}), or empty when it is
     * valid.
     */
    public static Optional<String> validate(JobSpec spec, InputLimits limits) {
        List<SpecProblem> problems = problems(spec, limits);
        return problems.isEmpty() ? Optional.empty() : Optional.of(SpecProblem.describe(problems, path -> path));
    }

    private static void configProblems(CheckpointConfig config, InputLimits limits, List<SpecProblem> problems) {
        duration(problems, "config.intervalMs", config.getIntervalMs(), 1, limits);
        duration(problems, "config.timeoutMs", config.getTimeoutMs(), 1, limits);
        duration(problems, "config.minPauseMs", config.getMinPauseMs(), 0, limits);
        duration(problems, "config.alignedTimeoutMs", config.getAlignedTimeoutMs(), 0, limits);
        if (config.getMaxConcurrent() < 1) {
            problems.add(new SpecProblem("config.maxConcurrent", "must be >= 1 but is " + config.getMaxConcurrent()));
        }
        if (config.getTolerableFailures() < 0) {
            problems.add(new SpecProblem("config.tolerableFailures",
                    "must be >= 0 but is " + config.getTolerableFailures()));
        }
        if (config.getRetained() < 1 || config.getRetained() > limits.maxRetained()) {
            problems.add(new SpecProblem("config.retained",
                    "must be in [1, " + limits.maxRetained() + "] but is " + config.getRetained()));
        }
        String storage = config.getStorageBaseLocation() == null ? null : config.getStorageBaseLocation().toString();
        if (storage == null || storage.isBlank()) {
            problems.add(new SpecProblem("config.storageBaseLocation", "is empty"));
        } else {
            add(problems, "config.storageBaseLocation", limits.targetProblem(storage));
        }
    }

    private static void duration(List<SpecProblem> problems, String path, long value, long min, InputLimits limits) {
        if (value < min || value > limits.maxDurationMs()) {
            problems.add(new SpecProblem(path, "must be in [" + min + ", " + limits.maxDurationMs() + "] but is "
                    + value));
        }
    }

    private static void taskProblems(List<TaskVertex> tasks, InputLimits limits, List<SpecProblem> problems) {
        if (tasks == null || tasks.isEmpty()) {
            problems.add(new SpecProblem("tasks", "is empty: a job has at least one task"));
            return;
        }
        if (tasks.size() > limits.maxVertices()) {
            problems.add(new SpecProblem("tasks", "has " + tasks.size() + " tasks, more than the limit of "
                    + limits.maxVertices()));
            return;
        }
        Map<String, Integer> firstIndex = new HashMap<>();
        long subtasks = 0;
        long rolesBytes = 0;
        for (int i = 0; i < tasks.size(); i++) {
            TaskVertex task = tasks.get(i);
            String at = "tasks[" + i + "].";
            String taskId = task.getTaskId() == null ? null : task.getTaskId().toString();
            String idProblem = limits.idProblem(taskId);
            add(problems, at + "taskId", idProblem);
            Integer first = idProblem == null ? firstIndex.putIfAbsent(taskId, i) : null;
            if (first != null) {
                problems.add(new SpecProblem(at + "taskId", "'" + taskId + "' is declared twice (first as task "
                        + (first + 1) + "); give each task one entry"));
            }
            if (task.getParallelism() <= 0 || task.getParallelism() > limits.maxParallelism()) {
                problems.add(new SpecProblem(at + "parallelism", "must be in [1, " + limits.maxParallelism()
                        + "] but is " + task.getParallelism()));
            } else {
                subtasks += task.getParallelism();
                if (task.getMaxParallelism() != null) {
                    add(problems, at + "maxParallelism", KeyGroupRanges.problem(task.getMaxParallelism(),
                            task.getParallelism()));
                }
            }
            if (idProblem == null && !(task.getTriggered() && task.getAcknowledges() && task.getNotified())) {
                rolesBytes += taskId.getBytes(StandardCharsets.UTF_8).length + ROLE_BYTES;
            }
        }
        planProblems(tasks, limits, subtasks, rolesBytes, problems);
    }

    private static void planProblems(List<TaskVertex> tasks, InputLimits limits, long subtasks, long rolesBytes,
            List<SpecProblem> problems) {
        if (subtasks > limits.maxSubtasksPerJob()) {
            problems.add(new SpecProblem("tasks", "have " + subtasks + " subtasks, more than the limit of "
                    + limits.maxSubtasksPerJob() + " per job"));
        }
        if (rolesBytes > MAX_ROLES_BYTES) {
            problems.add(new SpecProblem("tasks", "whose roles differ from the default (triggered, acknowledges and "
                    + "notified) take " + rolesBytes + " bytes in every trigger, more than the limit of "
                    + MAX_ROLES_BYTES + " (fewer such tasks or shorter task ids)"));
        }
        if (tasks.stream().noneMatch(TaskVertex::getTriggered)) {
            problems.add(new SpecProblem("tasks[*].triggered", "is false for every task, so no checkpoint could "
                    + "ever start; make at least one task triggered (usually the sources)"));
        }
        if (tasks.stream().noneMatch(TaskVertex::getAcknowledges)) {
            problems.add(new SpecProblem("tasks[*].acknowledges", "is false for every task, so no checkpoint could "
                    + "ever complete; make at least one task acknowledge"));
        }
    }

    /** The participants and master hooks: within the limit together, each a valid id, every name once in both. */
    private static void participantProblems(JobSpec spec, InputLimits limits, List<SpecProblem> problems) {
        List<String> participants = spec.getParticipants() == null ? List.of() : spec.getParticipants();
        List<String> hooks = spec.getMasterHooks() == null ? List.of() : spec.getMasterHooks();
        if (participants.size() + hooks.size() > MAX_PARTICIPANTS) {
            problems.add(new SpecProblem(hooks.isEmpty() ? "participants" : "masterHooks", "names "
                    + (participants.size() + hooks.size()) + " participants and master hooks, more than the limit of "
                    + MAX_PARTICIPANTS));
            return;
        }
        Set<String> names = new HashSet<>();
        names(participants, "participants", limits, names, problems);
        names(hooks, "masterHooks", limits, names, problems);
    }

    private static void names(List<String> named, String field, InputLimits limits, Set<String> names,
            List<SpecProblem> problems) {
        for (int i = 0; i < named.size(); i++) {
            String name = named.get(i);
            String problem = limits.idProblem(name);
            add(problems, field + "[" + i + "]", problem);
            if (problem == null && !names.add(name)) {
                problems.add(new SpecProblem(field + "[" + i + "]",
                        "is named twice; name each participant once"));
            }
        }
    }

    private static void add(List<SpecProblem> problems, String path, String problem) {
        if (problem != null) {
            problems.add(new SpecProblem(path, problem));
        }
    }

    /** Flink raises an interval below minPause to minPause. */
    public static long effectiveIntervalMs(CheckpointConfig config) {
        return Math.max(config.getIntervalMs(), config.getMinPauseMs());
    }

    /**
     * The first periodic trigger delay, in [minPause, interval] both included as Flink draws it:
     * minPause + floor(fraction * (interval - minPause + 1)), fraction clamped to [0, 1).
     */
    public static long initialDelayMs(CheckpointConfig config, double fraction) {
        double clamped = Double.isNaN(fraction) ? 0 : Math.min(Math.max(fraction, 0), Math.nextDown(1.0));
        long span = effectiveIntervalMs(config) - config.getMinPauseMs();
        return config.getMinPauseMs() + (long) Math.floor(clamped * (span + 1));
    }

    /** The smallest {@code dueAt + k * interval} (k >= 1) after {@code now}: fixed rate, no burst. */
    public static long nextFixedRateDue(long dueAtMs, long intervalMs, long nowMs) {
        long missed = Math.max(0, nowMs - dueAtMs) / intervalMs;
        return dueAtMs + (missed + 1) * intervalMs;
    }

    /** {@code <base>/<job>/chk-<id>}. */
    public static String checkpointLocation(String jobId, CheckpointConfig config, long checkpointId) {
        return base(jobId, config) + "/chk-" + checkpointId;
    }

    /** The requested target, else {@code <base>/<job>/savepoint-<id>}. */
    public static String savepointLocation(String jobId, CheckpointConfig config, long checkpointId, String target) {
        return target != null && !target.isBlank() ? target : base(jobId, config) + "/savepoint-" + checkpointId;
    }

    private static String base(String jobId, CheckpointConfig config) {
        String base = config.getStorageBaseLocation();
        while (base.length() > 1 && base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return base + "/" + jobId;
    }

    /** Equal apart from the timestamp: re-registering it changes nothing. */
    /**
     * A task's max parallelism: as its vertex sets it, else Flink's default from its parallelism (a vertex of a spec
     * registered before max parallelism existed; the coordinator sets it on every spec it registers now).
     */
    public static int maxParallelism(TaskVertex vertex) {
        return vertex.getMaxParallelism() != null ? vertex.getMaxParallelism()
                : KeyGroupRanges.defaultMaxParallelism(vertex.getParallelism());
    }

    /**
     * The spec as the coordinator registers it: every task's max parallelism set, so that it never changes silently
     * (Flink fixes it when a job first runs). A task that does not set it keeps the value it has in the job's
     * {@code current} spec, and a new task takes the default from its parallelism ({@link #maxParallelism}).
     */
    public static JobSpec withMaxParallelism(JobSpec spec, Optional<JobSpec> current) {
        Map<String, Integer> known = new HashMap<>();
        current.ifPresent(c -> c.getTasks().forEach(v -> known.put(v.getTaskId(), maxParallelism(v))));
        List<TaskVertex> tasks = new ArrayList<>(spec.getTasks().size());
        for (TaskVertex vertex : spec.getTasks()) {
            Integer max = vertex.getMaxParallelism() != null ? vertex.getMaxParallelism()
                    : known.getOrDefault(vertex.getTaskId(), maxParallelism(vertex));
            tasks.add(max.equals(vertex.getMaxParallelism()) ? vertex
                    : TaskVertex.newBuilder(vertex).setMaxParallelism(max).build());
        }
        return JobSpec.newBuilder(spec).setTasks(tasks).build();
    }

    public static boolean sameSpec(JobSpec a, JobSpec b) {
        return a.getJobId().equals(b.getJobId()) && a.getTasks().equals(b.getTasks())
                && a.getConfig().equals(b.getConfig()) && a.getParticipants().equals(b.getParticipants())
                && a.getMasterHooks().equals(b.getMasterHooks());
    }
}
