package dev.cairn.coordinator.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.coordinator.domain.JobSpecs;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code PUT /jobs/{jobId}}, the job's tasks, checkpoint configuration and coordinator-side
 * participants:
 * <pre>
 * {"tasks": [{"taskId": "source", "parallelism": 1, "triggered": true, "acknowledges": true, "notified": true}],
 *  "config": {"intervalMs": 2000, "timeoutMs": 10000, "minPauseMs": 0, "maxConcurrent": 1,
 *             "tolerableFailures": 0, "retained": 1, "storageBaseLocation": "file:///tmp/cairn",
 *             "exactlyOnce": true, "unalignedEnabled": false, "alignedTimeoutMs": 0,
 *             "backupType": "FULL"|"INCREMENTAL", "savepointFormat": "CANONICAL"|"NATIVE"},
 *  "participants": ["offsets-hook"]}
 * </pre>
 * The role flags of a task default to true; every config field but {@code intervalMs}, {@code timeoutMs} and
 * {@code storageBaseLocation} defaults to the schema's default (Flink's); {@code participants} (Flink's master
 * hooks and operator coordinators, asked for their state before the tasks are triggered) defaults to none.
 * Reading is strict and names every problem of a body at once, including what the coordinator itself would
 * reject.
 *
 * @param tasks the job's vertices, in the order of the body
 * @param config the job's checkpoint configuration
 * @param participants the job's coordinator-side participants, in the order of the body
 */
public record JobSpecBody(List<TaskVertex> tasks, CheckpointConfig config, List<String> participants) {

    static final List<String> FIELDS = List.of("tasks", "config", "participants");
    static final List<String> TASK_FIELDS = List.of("taskId", "parallelism", "triggered", "acknowledges", "notified");
    static final List<String> CONFIG_FIELDS = List.of("intervalMs", "timeoutMs", "minPauseMs", "maxConcurrent",
            "tolerableFailures", "retained", "storageBaseLocation", "exactlyOnce", "unalignedEnabled",
            "alignedTimeoutMs", "backupType", "savepointFormat");
    private static final String EXAMPLE = "{\"tasks\": [{\"taskId\": \"source\", \"parallelism\": 1}], "
            + "\"config\": {\"intervalMs\": 2000, \"timeoutMs\": 10000, "
            + "\"storageBaseLocation\": \"file:///tmp/cairn\"}}";

    static {
        CairnRecords.trustGeneratedClasses();
    }

    public JobSpecBody {
        tasks = List.copyOf(tasks);
        participants = List.copyOf(participants);
    }

    /**
     * Reads a body.
     *
     * @throws ApiException 400 naming everything that is malformed, missing, unknown, of the wrong type or
     *     out of range
     */
    public static JobSpecBody parse(String text) {
        if (text == null || text.isBlank()) {
            throw ApiException.badRequest("the body must be a job spec like " + EXAMPLE + "; it is empty");
        }
        JsonNode root = Json.readTree(text);
        if (!root.isObject()) {
            throw ApiException.badRequest("the body must be a JSON object like " + EXAMPLE + ", not "
                    + Json.describe(root));
        }
        List<String> problems = new ArrayList<>();
        BodyFields.unknownFields(root, "", FIELDS, problems);
        List<TaskVertex> tasks = tasks(root.get("tasks"), problems);
        CheckpointConfig config = config(root.get("config"), problems);
        List<String> participants = participants(root.get("participants"), problems);
        BodyFields.requireNone(problems);
        return new JobSpecBody(tasks, config, participants);
    }

    /**
     * The event this body asks for.
     *
     * @throws ApiException 400 when the coordinator would reject the spec (see {@link JobSpecs#validate})
     */
    public JobSpec toSpec(String jobId, long nowMs) {
        JobSpec spec = JobSpec.newBuilder().setJobId(jobId).setTasks(tasks).setConfig(config)
                .setParticipants(participants).setTimestampMs(nowMs).build();
        JobSpecs.validate(spec).ifPresent(reason -> {
            throw ApiException.badRequest("the coordinator would reject this job: " + reason);
        });
        return spec;
    }

    private static List<TaskVertex> tasks(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            problems.add("tasks is missing: list the job's tasks, like "
                    + "[{\"taskId\": \"source\", \"parallelism\": 1}]");
            return List.of();
        }
        if (!node.isArray()) {
            problems.add("tasks must be an array of tasks, not " + Json.describe(node));
            return List.of();
        }
        if (node.isEmpty()) {
            problems.add("tasks must not be empty: a job has at least one task");
            return List.of();
        }
        List<TaskVertex> tasks = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            String at = "tasks[" + i + "].";
            JsonNode task = node.get(i);
            if (!task.isObject()) {
                problems.add("tasks[" + i + "] must be an object like {\"taskId\": \"source\", \"parallelism\": 1}, "
                        + "not " + Json.describe(task));
                continue;
            }
            BodyFields.unknownFields(task, at, TASK_FIELDS, problems);
            String taskId = text(task, at, "taskId", problems);
            Long parallelism = BodyFields.number(task, at, "parallelism", 1, Integer.MAX_VALUE, true, problems);
            Boolean triggered = BodyFields.flag(task, at, "triggered", problems);
            Boolean acknowledges = BodyFields.flag(task, at, "acknowledges", problems);
            Boolean notified = BodyFields.flag(task, at, "notified", problems);
            if (taskId != null && !ids.add(taskId)) {
                problems.add(at + "taskId '" + taskId + "' is declared twice; give each task one entry");
            }
            if (taskId != null && parallelism != null) {
                TaskVertex.Builder vertex = TaskVertex.newBuilder().setTaskId(taskId)
                        .setParallelism(parallelism.intValue());
                if (triggered != null) {
                    vertex.setTriggered(triggered);
                }
                if (acknowledges != null) {
                    vertex.setAcknowledges(acknowledges);
                }
                if (notified != null) {
                    vertex.setNotified(notified);
                }
                tasks.add(vertex.build());
            }
        }
        if (tasks.size() == node.size()) {
            if (tasks.stream().noneMatch(TaskVertex::getTriggered)) {
                problems.add("no task is triggered, so no checkpoint could ever start; "
                        + "set \"triggered\": true on at least one task (usually the sources)");
            }
            if (tasks.stream().noneMatch(TaskVertex::getAcknowledges)) {
                problems.add("no task acknowledges, so no checkpoint could ever complete; "
                        + "set \"acknowledges\": true on at least one task");
            }
        }
        return tasks;
    }

    private static CheckpointConfig config(JsonNode node, List<String> problems) {
        String like = " like {\"intervalMs\": 2000, \"timeoutMs\": 10000, "
                + "\"storageBaseLocation\": \"file:///tmp/cairn\"}";
        if (node == null || node.isNull()) {
            problems.add("config is missing: give the checkpoint configuration" + like);
            return null;
        }
        if (!node.isObject()) {
            problems.add("config must be an object" + like + ", not " + Json.describe(node));
            return null;
        }
        String at = "config.";
        BodyFields.unknownFields(node, at, CONFIG_FIELDS, problems);
        CheckpointConfig.Builder config = CheckpointConfig.newBuilder();
        Long interval = BodyFields.number(node, at, "intervalMs", 1, Long.MAX_VALUE, true, problems);
        Long timeout = BodyFields.number(node, at, "timeoutMs", 1, Long.MAX_VALUE, true, problems);
        Long minPause = BodyFields.number(node, at, "minPauseMs", 0, Long.MAX_VALUE, false, problems);
        Long maxConcurrent = BodyFields.number(node, at, "maxConcurrent", 1, Integer.MAX_VALUE, false, problems);
        Long tolerable = BodyFields.number(node, at, "tolerableFailures", 0, Integer.MAX_VALUE, false, problems);
        Long retained = BodyFields.number(node, at, "retained", 1, Integer.MAX_VALUE, false, problems);
        String storage = text(node, at, "storageBaseLocation", problems);
        Boolean exactlyOnce = BodyFields.flag(node, at, "exactlyOnce", problems);
        Boolean unaligned = BodyFields.flag(node, at, "unalignedEnabled", problems);
        Long alignedTimeout = BodyFields.number(node, at, "alignedTimeoutMs", 0, Long.MAX_VALUE, false, problems);
        BackupType backupType = BodyFields.choice(node, at, "backupType", BackupType.class, problems);
        SavepointFormat format = BodyFields.choice(node, at, "savepointFormat", SavepointFormat.class, problems);
        if (interval == null || timeout == null || storage == null) {
            return null;
        }
        if (exactlyOnce != null) {
            config.setExactlyOnce(exactlyOnce);
        }
        if (unaligned != null) {
            config.setUnalignedEnabled(unaligned);
        }
        if (alignedTimeout != null) {
            config.setAlignedTimeoutMs(alignedTimeout);
        }
        if (backupType != null) {
            config.setBackupType(backupType);
        }
        if (format != null) {
            config.setSavepointFormat(format);
        }
        config.setIntervalMs(interval).setTimeoutMs(timeout).setStorageBaseLocation(storage);
        if (minPause != null) {
            config.setMinPauseMs(minPause);
        }
        if (maxConcurrent != null) {
            config.setMaxConcurrent(maxConcurrent.intValue());
        }
        if (tolerable != null) {
            config.setTolerableFailures(tolerable.intValue());
        }
        if (retained != null) {
            config.setRetained(retained.intValue());
        }
        return config.build();
    }

    /**
     * The participants' names: non-blank strings, each once. How many a job may have and what a name may
     * contain is the coordinator's rule, checked by {@link #toSpec}.
     */
    private static List<String> participants(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            problems.add("participants must be an array of names, like [\"offsets-hook\"], not "
                    + Json.describe(node));
            return List.of();
        }
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode name = node.get(i);
            String at = "participants[" + i + "]";
            if (!name.isTextual()) {
                problems.add(at + " must be a string, not " + Json.describe(name));
            } else if (name.textValue().isBlank()) {
                problems.add(at + " must not be blank");
            } else if (name.textValue().length() > TriggerBody.MAX_TEXT_LENGTH) {
                problems.add(at + " must be at most " + TriggerBody.MAX_TEXT_LENGTH + " characters, not "
                        + name.textValue().length());
            } else if (!seen.add(name.textValue())) {
                problems.add(at + " '" + name.textValue() + "' is named twice; name each participant once");
            } else {
                names.add(name.textValue());
            }
        }
        return names;
    }

    /** A required, non-blank string of at most {@link TriggerBody#MAX_TEXT_LENGTH} characters, or null. */
    private static String text(JsonNode object, String at, String field, List<String> problems) {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            problems.add(at + field + " is missing");
        } else if (!node.isTextual()) {
            problems.add(at + field + " must be a string, not " + Json.describe(node));
        } else if (node.textValue().isBlank()) {
            problems.add(at + field + " must not be blank");
        } else if (node.textValue().length() > TriggerBody.MAX_TEXT_LENGTH) {
            problems.add(at + field + " must be at most " + TriggerBody.MAX_TEXT_LENGTH + " characters, not "
                    + node.textValue().length());
        } else {
            return node.textValue();
        }
        return null;
    }
}
