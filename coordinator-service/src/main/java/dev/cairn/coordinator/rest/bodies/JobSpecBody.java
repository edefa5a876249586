package dev.cairn.coordinator.rest.bodies;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.contract.SpecProblem;
import dev.cairn.core.events.CairnRecords;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The body of {@code PUT /jobs/{jobId}}, the job's tasks, checkpoint configuration and coordinator-side
 * participants, as Jackson binds it:
 * <pre>
 * {"tasks": [{"taskId": "source", "parallelism": 1, "maxParallelism": 128, "triggered": true, "acknowledges": true,
 *             "notified": true}],
 *  "config": {"intervalMs": 2000, "timeoutMs": 10000, "minPauseMs": 0, "maxConcurrent": 1,
 *             "tolerableFailures": 0, "retained": 1, "storageBaseLocation": "file:///tmp/cairn",
 *             "exactlyOnce": true, "unalignedEnabled": false, "alignedTimeoutMs": 0,
 *             "backupType": "FULL"|"INCREMENTAL", "savepointFormat": "CANONICAL"|"NATIVE"},
 *  "participants": ["enumerator"], "masterHooks": ["offsets-hook"]}
 * </pre>
 * {@code taskId}, {@code parallelism}, {@code intervalMs}, {@code timeoutMs} and {@code storageBaseLocation} are
 * required; a task's {@code maxParallelism} (its number of key groups) is optional: left out, the coordinator keeps the
 * task's current one, or gives a new task Flink's default for its parallelism ({@link JobSpecs#withMaxParallelism});
 * the role flags of a task default to true, the other config fields to the schema's defaults (Flink's),
 * {@code participants} (asked first; Flink's operator coordinators) and {@code masterHooks} (asked after them;
 * Flink's master hooks) to none. What a valid spec is, is the
 * coordinator's rule ({@link JobSpecs#problems}): a body is answered with every problem at once, each named by
 * its JSON field.
 *
 * @param tasks the job's vertices, in the order of the body
 * @param config the job's checkpoint configuration
 * @param participants the job's coordinator-side participants asked first, in the order of the body
 * @param masterHooks the job's coordinator-side participants asked after them, in the order of the body
 */
public record JobSpecBody(List<Task> tasks, Config config, List<String> participants, List<String> masterHooks) {

    private static final String EXAMPLE = "{\"tasks\": [{\"taskId\": \"source\", \"parallelism\": 1}], "
            + "\"config\": {\"intervalMs\": 2000, \"timeoutMs\": 10000, "
            + "\"storageBaseLocation\": \"file:///tmp/cairn\"}}";
    private static final String MISSING = "is missing";

    static {
        CairnRecords.trustGeneratedClasses();
    }

    /**
     * One task of the body; {@code null} flags take the schema's default (true), a {@code null} max parallelism is
     * left for the coordinator to resolve.
     */
    public record Task(String taskId, Long parallelism, Long maxParallelism, Boolean triggered, Boolean acknowledges,
            Boolean notified) {
    }

    /** The checkpoint configuration of the body; {@code null} fields take the schema's defaults. */
    public record Config(Long intervalMs, Long timeoutMs, Long minPauseMs, Long maxConcurrent, Long tolerableFailures,
            Long retained, String storageBaseLocation, Boolean exactlyOnce, Boolean unalignedEnabled,
            Long alignedTimeoutMs, BackupType backupType, SavepointFormat savepointFormat) {
    }

    /**
     * The job spec a body asks for, stamped {@code nowMs}, checked under {@code limits} (the coordinator's, e.g.
     * the location schemes it allows).
     *
     * @throws ApiException 400 naming everything that is malformed, missing, unknown, of the wrong type, or that
     *     the coordinator would reject (see {@link JobSpecs#problems})
     */
    public static JobSpec read(String text, String jobId, long nowMs, InputLimits limits) {
        if (text == null || text.isBlank()) {
            throw ApiException.badRequest("the body must be a job spec like " + EXAMPLE + "; it is empty");
        }
        BodyReader.Bound<JobSpecBody> bound = BodyReader.read(text, JobSpecBody.class, EXAMPLE);
        return bound.value().toSpec(jobId, nowMs, bound.problems(), limits);
    }

    /**
     * The event this body asks for.
     *
     * @param refused the values Jackson refused, by path: each is a problem, and left out of this body
     * @throws ApiException 400 naming every refused value, every required field left out and every problem of the
     *     spec
     */
    JobSpec toSpec(String jobId, long nowMs, Map<String, String> refused, InputLimits limits) {
        Map<String, String> missing = new LinkedHashMap<>(refused);
        JobSpec spec = JobSpec.newBuilder().setJobId(jobId).setTasks(vertices(missing)).setConfig(config(missing))
                .setParticipants(participants == null ? List.of() : participants)
                .setMasterHooks(masterHooks == null ? List.of() : masterHooks).setTimestampMs(nowMs).build();
        List<String> problems = new ArrayList<>();
        missing.forEach((path, problem) -> problems.add(refused.containsKey(path) ? problem
                : path + " " + problem));
        for (SpecProblem problem : JobSpecs.problems(spec, limits)) {
            if (!covered(problem.path(), missing.keySet())) {
                problems.add(field(problem.path()) + " " + problem.message());
            }
        }
        BodyReader.requireNone(problems);
        return spec;
    }

    /** Whether the path is one of {@code paths} or a field inside one: its problem is already named. */
    private static boolean covered(String path, Set<String> paths) {
        return paths.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + ".") || path.startsWith(p + "["));
    }

    /** The JSON name of a spec field: the body's names are the event's, but the job id is in the path. */
    static String field(String path) {
        return path.equals("jobId") ? "the job id in the path" : path;
    }

    /** The vertices; a task left out or without its id or parallelism is noted in {@code missing} (by path). */
    private List<TaskVertex> vertices(Map<String, String> missing) {
        if (tasks == null) {
            missing.putIfAbsent("tasks", MISSING);
            return List.of();
        }
        List<TaskVertex> vertices = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            Task task = tasks.get(i);
            String at = "tasks[" + i + "]";
            if (task == null) {
                missing.putIfAbsent(at, MISSING);
                task = new Task("", 1L, null, null, null, null);
            }
            long parallelism = required(task.parallelism(), at + ".parallelism", 1L, missing);
            TaskVertex.Builder vertex = TaskVertex.newBuilder()
                    .setTaskId(required(task.taskId(), at + ".taskId", "", missing))
                    .setParallelism(toInt(parallelism, at + ".parallelism", missing));
            set(task.maxParallelism(), max -> vertex.setMaxParallelism(toInt(max, at + ".maxParallelism", missing)));
            set(task.triggered(), vertex::setTriggered);
            set(task.acknowledges(), vertex::setAcknowledges);
            set(task.notified(), vertex::setNotified);
            vertices.add(vertex.build());
        }
        return vertices;
    }

    /** The configuration; a required field left out is noted in {@code missing}; a placeholder stands in. */
    private CheckpointConfig config(Map<String, String> missing) {
        Config given = config != null ? config : new Config(null, null, null, null, null, null, null, null, null,
                null, null, null);
        if (config == null) {
            missing.putIfAbsent("config", MISSING);
        }
        CheckpointConfig.Builder built = CheckpointConfig.newBuilder()
                .setIntervalMs(required(given.intervalMs(), "config.intervalMs", 1L, missing))
                .setTimeoutMs(required(given.timeoutMs(), "config.timeoutMs", 1L, missing))
                .setStorageBaseLocation(required(given.storageBaseLocation(), "config.storageBaseLocation", "-",
                        missing));
        if (config == null) {
            missing.entrySet().removeIf(e -> e.getKey().startsWith("config.") && e.getValue().equals(MISSING));
        }
        set(given.minPauseMs(), built::setMinPauseMs);
        set(given.maxConcurrent(), value -> built.setMaxConcurrent(toInt(value, "config.maxConcurrent", missing)));
        set(given.tolerableFailures(),
                value -> built.setTolerableFailures(toInt(value, "config.tolerableFailures", missing)));
        set(given.retained(), value -> built.setRetained(toInt(value, "config.retained", missing)));
        set(given.exactlyOnce(), built::setExactlyOnce);
        set(given.unalignedEnabled(), built::setUnalignedEnabled);
        set(given.alignedTimeoutMs(), built::setAlignedTimeoutMs);
        return built.setBackupType(given.backupType()).setSavepointFormat(given.savepointFormat()).build();
    }

    private static <T> T required(T value, String path, T placeholder, Map<String, String> missing) {
        if (value != null) {
            return value;
        }
        missing.putIfAbsent(path, MISSING);
        return placeholder;
    }

    private static <T> void set(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /** A whole number as an int; one beyond an int is noted in {@code problems} and stands in for by 1. */
    private static int toInt(long value, String path, Map<String, String> problems) {
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            problems.put(path, "must be a whole number of at most " + Integer.MAX_VALUE + ", not " + value);
            return 1;
        }
        return (int) value;
    }
}
