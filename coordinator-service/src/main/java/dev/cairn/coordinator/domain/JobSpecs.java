package dev.cairn.coordinator.domain;

import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.TaskVertex;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Pure functions over a {@link JobSpec}: validation, plan shape and schedule arithmetic. */
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

    /** Why the spec cannot be accepted under the default {@link InputLimits}, or empty when it is valid. */
    public static Optional<String> validate(JobSpec spec) {
        return validate(spec, InputLimits.DEFAULTS);
    }

    /**
     * Why the spec cannot be accepted, or empty when it is valid. Sizes are checked against {@code limits}
     * before anything is allocated for them (the plan of a trigger allocates per subtask).
     */
    public static Optional<String> validate(JobSpec spec, InputLimits limits) {
        String idProblem = limits.checkId("job id", spec.getJobId());
        if (idProblem != null) {
            return Optional.of(idProblem);
        }
        CheckpointConfig config = spec.getConfig();
        if (config == null) {
            return Optional.of("checkpoint config is missing");
        }
        return validateConfig(config, limits).or(() -> validateTasks(spec.getTasks(), limits))
                .or(() -> validateParticipants(spec.getParticipants(), limits));
    }

    private static Optional<String> validateParticipants(List<String> participants, InputLimits limits) {
        if (participants == null) {
            return Optional.empty();
        }
        if (participants.size() > MAX_PARTICIPANTS) {
            return Optional.of("the job names " + participants.size() + " participants, more than the limit of "
                    + MAX_PARTICIPANTS);
        }
        Set<String> names = new HashSet<>();
        for (String participant : participants) {
            String problem = limits.checkId("a participant", participant);
            if (problem != null) {
                return Optional.of(problem);
            }
            if (!names.add(participant)) {
                return Optional.of("duplicate participant " + participant);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> validateConfig(CheckpointConfig config, InputLimits limits) {
        Optional<String> durations = duration("intervalMs", config.getIntervalMs(), 1, limits)
                .or(() -> duration("timeoutMs", config.getTimeoutMs(), 1, limits))
                .or(() -> duration("minPauseMs", config.getMinPauseMs(), 0, limits))
                .or(() -> duration("alignedTimeoutMs", config.getAlignedTimeoutMs(), 0, limits));
        if (durations.isPresent()) {
            return durations;
        }
        if (config.getMaxConcurrent() < 1) {
            return Optional.of("maxConcurrent must be >= 1 but is " + config.getMaxConcurrent());
        }
        if (config.getTolerableFailures() < 0) {
            return Optional.of("tolerableFailures must be >= 0 but is " + config.getTolerableFailures());
        }
        if (config.getRetained() < 1 || config.getRetained() > limits.maxRetained()) {
            return Optional.of("retained must be in [1, " + limits.maxRetained() + "] but is " + config.getRetained());
        }
        if (config.getStorageBaseLocation() == null || config.getStorageBaseLocation().isBlank()) {
            return Optional.of("storageBaseLocation is empty");
        }
        return Optional.ofNullable(limits.checkLocation("storageBaseLocation", config.getStorageBaseLocation()));
    }

    private static Optional<String> duration(String field, long value, long min, InputLimits limits) {
        if (value < min || value > limits.maxDurationMs()) {
            return Optional.of(field + " must be in [" + min + ", " + limits.maxDurationMs() + "] but is " + value);
        }
        return Optional.empty();
    }

    private static Optional<String> validateTasks(List<TaskVertex> tasks, InputLimits limits) {
        if (tasks == null || tasks.isEmpty()) {
            return Optional.of("the plan has no task");
        }
        if (tasks.size() > limits.maxVertices()) {
            return Optional.of("the plan has " + tasks.size() + " tasks, more than the limit of "
                    + limits.maxVertices());
        }
        Set<String> ids = new HashSet<>();
        boolean anyAcknowledges = false;
        boolean anyTriggered = false;
        long subtasks = 0;
        long rolesBytes = 0;
        for (TaskVertex task : tasks) {
            String idProblem = limits.checkId("a task id", task.getTaskId());
            if (idProblem != null) {
                return Optional.of(idProblem);
            }
            if (!ids.add(task.getTaskId())) {
                return Optional.of("duplicate task id " + task.getTaskId());
            }
            if (task.getParallelism() <= 0 || task.getParallelism() > limits.maxParallelism()) {
                return Optional.of("parallelism of task " + task.getTaskId() + " must be in [1, "
                        + limits.maxParallelism() + "] but is " + task.getParallelism());
            }
            subtasks += task.getParallelism();
            if (!task.getTriggered() || !task.getAcknowledges() || !task.getNotified()) {
                rolesBytes += task.getTaskId().getBytes(java.nio.charset.StandardCharsets.UTF_8).length + ROLE_BYTES;
            }
            anyAcknowledges |= task.getAcknowledges();
            anyTriggered |= task.getTriggered();
        }
        if (subtasks > limits.maxSubtasksPerJob()) {
            return Optional.of("the plan has " + subtasks + " subtasks, more than the limit of "
                    + limits.maxSubtasksPerJob() + " per job");
        }
        if (rolesBytes > MAX_ROLES_BYTES) {
            return Optional.of("the tasks whose roles differ from the default (triggered, acknowledges and notified) "
                    + "take " + rolesBytes + " bytes in every trigger, more than the limit of " + MAX_ROLES_BYTES
                    + " (fewer such tasks or shorter task ids)");
        }
        if (!anyTriggered) {
            return Optional.of("no task is triggered, so no checkpoint could ever start");
        }
        if (!anyAcknowledges) {
            return Optional.of("no task acknowledges checkpoints");
        }
        return Optional.empty();
    }

    /** Whether the vertex (as looked up by task id; empty when the spec has no such task) has that subtask. */
    public static boolean hasSubtask(Optional<TaskVertex> vertex, int subtaskIndex) {
        return vertex.map(v -> subtaskIndex >= 0 && subtaskIndex < v.getParallelism()).orElse(false);
    }

    /** A subtask of this vertex must run for a trigger: it is triggered or acknowledges. */
    public static boolean isRequired(TaskVertex vertex) {
        return vertex.getTriggered() || vertex.getAcknowledges();
    }

    /** How many acks complete a checkpoint of a version 1 trigger's plan. */
    public static int acksExpected(List<PlannedVertex> plan) {
        return plan.stream().filter(PlannedVertex::getAcknowledges).mapToInt(v -> v.getAttemptIds().size()).sum();
    }

    /** Flink raises an interval below minPause to minPause. */
    public static long effectiveIntervalMs(CheckpointConfig config) {
        return Math.max(config.getIntervalMs(), config.getMinPauseMs());
    }

    /** The first periodic trigger delay: minPause + fraction * (interval - minPause), fraction clamped to [0, 1). */
    public static long initialDelayMs(CheckpointConfig config, double fraction) {
        double clamped = Double.isNaN(fraction) ? 0 : Math.min(Math.max(fraction, 0), Math.nextDown(1.0));
        long span = effectiveIntervalMs(config) - config.getMinPauseMs();
        return config.getMinPauseMs() + (long) Math.floor(clamped * span);
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
    public static boolean sameSpec(JobSpec a, JobSpec b) {
        return a.getJobId().equals(b.getJobId()) && a.getTasks().equals(b.getTasks())
                && a.getConfig().equals(b.getConfig()) && a.getParticipants().equals(b.getParticipants());
    }
}
