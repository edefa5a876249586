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

    private JobSpecs() {
    }

    /** Why the spec cannot be accepted, or empty when it is valid. */
    public static Optional<String> validate(JobSpec spec) {
        if (spec.getJobId() == null || spec.getJobId().isBlank()) {
            return Optional.of("job id is empty");
        }
        CheckpointConfig config = spec.getConfig();
        if (config == null) {
            return Optional.of("checkpoint config is missing");
        }
        if (config.getIntervalMs() <= 0) {
            return Optional.of("intervalMs must be > 0 but is " + config.getIntervalMs());
        }
        if (config.getTimeoutMs() <= 0) {
            return Optional.of("timeoutMs must be > 0 but is " + config.getTimeoutMs());
        }
        if (config.getMinPauseMs() < 0) {
            return Optional.of("minPauseMs must be >= 0 but is " + config.getMinPauseMs());
        }
        if (config.getMaxConcurrent() < 1) {
            return Optional.of("maxConcurrent must be >= 1 but is " + config.getMaxConcurrent());
        }
        if (config.getTolerableFailures() < 0) {
            return Optional.of("tolerableFailures must be >= 0 but is " + config.getTolerableFailures());
        }
        if (config.getRetained() < 1) {
            return Optional.of("retained must be >= 1 but is " + config.getRetained());
        }
        if (config.getStorageBaseLocation() == null || config.getStorageBaseLocation().isBlank()) {
            return Optional.of("storageBaseLocation is empty");
        }
        return validateTasks(spec.getTasks());
    }

    private static Optional<String> validateTasks(List<TaskVertex> tasks) {
        if (tasks == null || tasks.isEmpty()) {
            return Optional.of("the plan has no task");
        }
        Set<String> ids = new HashSet<>();
        boolean anyAcknowledges = false;
        boolean anyTriggered = false;
        for (TaskVertex task : tasks) {
            if (task.getTaskId() == null || task.getTaskId().isBlank()) {
                return Optional.of("a task id is empty");
            }
            if (!ids.add(task.getTaskId())) {
                return Optional.of("duplicate task id " + task.getTaskId());
            }
            if (task.getParallelism() <= 0) {
                return Optional.of("parallelism of task " + task.getTaskId() + " must be > 0 but is "
                        + task.getParallelism());
            }
            anyAcknowledges |= task.getAcknowledges();
            anyTriggered |= task.getTriggered();
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

    /** How many acks complete a checkpoint of this plan. */
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
                && a.getConfig().equals(b.getConfig());
    }
}
