package dev.cairn.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.client.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.StreamSupport;

/**
 * What a coordinator's REST API served for each job at one moment: {@code GET /jobs/{id}} (spec, status, next id,
 * queue), {@code GET /jobs/{id}/checkpoints} (counts, latest, pending, history) and
 * {@code GET /jobs/{id}/checkpoints/latest-completed} (the restore point), as JSON, so that what one coordinator
 * served before a stop can be compared with what its successor serves.
 */
final class RestSnapshot {

    /** The three views of one job; {@code latestCompleted} is a JSON null while the job has none (404). */
    record Views(JsonNode job, JsonNode checkpoints, JsonNode latestCompleted) {}

    private static final int MAX_PATHS = 8;

    private final Map<String, Views> views;
    private final long takenAtMs;

    private RestSnapshot(Map<String, Views> views, long takenAtMs) {
        this.views = views;
        this.takenAtMs = takenAtMs;
    }

    /** The views of every job in {@code jobIds}, or empty while any of them is not served (restoring, rebalancing). */
    static Optional<RestSnapshot> take(CoordinatorProcess coordinator, List<String> jobIds) {
        long now = System.currentTimeMillis();
        Map<String, Views> views = new LinkedHashMap<>();
        for (String jobId : jobIds) {
            CoordinatorProcess.HttpAnswer job = coordinator.get("/jobs/" + jobId);
            CoordinatorProcess.HttpAnswer checkpoints = coordinator.get("/jobs/" + jobId + "/checkpoints");
            CoordinatorProcess.HttpAnswer latest = coordinator.get("/jobs/" + jobId + "/checkpoints/latest-completed");
            if (job.status() != 200 || checkpoints.status() != 200
                    || (latest.status() != 200 && latest.status() != 404)) {
                return Optional.empty();
            }
            views.put(jobId, new Views(read(job.body()), read(checkpoints.body()),
                    latest.status() == 200 ? read(latest.body()) : NullNode.getInstance()));
        }
        return Optional.of(new RestSnapshot(views, now));
    }

    /** {@code GET path} as JSON, or empty unless it is answered 200. */
    static Optional<JsonNode> get(CoordinatorProcess coordinator, String path) {
        CoordinatorProcess.HttpAnswer answer = coordinator.get(path);
        return answer.status() == 200 ? Optional.of(read(answer.body())) : Optional.empty();
    }

    Views of(String jobId) {
        Views job = views.get(jobId);
        if (job == null) {
            throw new IllegalArgumentException("no views of " + jobId);
        }
        return job;
    }

    long takenAtMs() {
        return takenAtMs;
    }

    long nextCheckpointId(String jobId) {
        return of(jobId).job().get("next_checkpoint_id").asLong();
    }

    /** The restore point's checkpoint id, or -1 when the job has none. */
    long restorePointId(String jobId) {
        JsonNode latest = of(jobId).latestCompleted();
        return latest.isNull() ? -1 : latest.get("id").asLong();
    }

    long completed(String jobId) {
        return of(jobId).checkpoints().path("counts").path("completed").asLong();
    }

    /** The pending checkpoints, oldest first. */
    List<JsonNode> pending(String jobId) {
        return StreamSupport.stream(of(jobId).checkpoints().path("pending").spliterator(), false)
                .sorted(Comparator.comparingLong(p -> p.get("id").asLong())).toList();
    }

    /** The request ids of the queued requests that are not periodic, in queue order. */
    List<String> queuedRequestIds(String jobId) {
        return StreamSupport.stream(of(jobId).job().path("queued_requests").spliterator(), false)
                .filter(q -> !q.path("periodic").asBoolean()).map(q -> q.path("request_id").asText()).toList();
    }

    /**
     * Every difference between each job's views here and in {@code before}, the whole JSON documents compared
     * except the top-level {@code ignoredFields} of each; empty when they are equal.
     */
    List<String> differencesFrom(RestSnapshot before, Set<String> ignoredFields) {
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, Views> entry : before.views.entrySet()) {
            String jobId = entry.getKey();
            Views was = entry.getValue();
            Views now = views.get(jobId);
            if (now == null) {
                differences.add(jobId + ": not served any more");
                continue;
            }
            compare(jobId + " GET /jobs/{id}", was.job(), now.job(), ignoredFields, differences);
            compare(jobId + " GET /checkpoints", was.checkpoints(), now.checkpoints(), ignoredFields, differences);
            compare(jobId + " GET /checkpoints/latest-completed", was.latestCompleted(), now.latestCompleted(),
                    ignoredFields, differences);
        }
        return differences;
    }

    /**
     * What differs in the state of each job of {@code before} as {@code after} serves it: restore point, pending
     * checkpoints, queued manual requests, counts, next id, status and history (id, status and end of each
     * checkpoint); empty when each is what it was. Unlike {@link #differencesFrom} it leaves out what a view only
     * shows (the periodic requests queued, the order of the pending checkpoints, the fields of a history entry beyond
     * those three), so that it applies across releases that show more or less.
     */
    static List<String> stateDifferences(RestSnapshot before, RestSnapshot after) {
        List<String> differences = new ArrayList<>();
        for (String jobId : before.views.keySet()) {
            Views was = before.of(jobId);
            Views now = after.of(jobId);
            same(differences, jobId + " restore point", restorePoint(was.latestCompleted()),
                    restorePoint(now.latestCompleted()));
            same(differences, jobId + " pending checkpoints", before.pending(jobId).stream()
                    .map(RestSnapshot::pendingFields).toList(), after.pending(jobId).stream()
                    .map(RestSnapshot::pendingFields).toList());
            same(differences, jobId + " queued manual requests", before.queuedRequestIds(jobId),
                    after.queuedRequestIds(jobId));
            same(differences, jobId + " counts", was.checkpoints().get("counts"),
                    servedAs(was.checkpoints().get("counts"), now.checkpoints().get("counts")));
            same(differences, jobId + " next checkpoint id", before.nextCheckpointId(jobId),
                    after.nextCheckpointId(jobId));
            same(differences, jobId + " status", was.job().get("state"), now.job().get("state"));
            same(differences, jobId + " history", history(was), history(now));
        }
        return differences;
    }

    /** Id, status and end of each checkpoint in the history. */
    private static List<List<JsonNode>> history(Views views) {
        List<List<JsonNode>> history = new ArrayList<>();
        views.checkpoints().path("history").forEach(c -> history.add(List.of(c.get("id"), c.get("status"),
                c.get("end_timestamp"))));
        return history;
    }

    private static List<JsonNode> restorePoint(JsonNode latest) {
        return latest.isNull() ? List.of() : List.of(latest.get("id"), latest.get("completion_timestamp"),
                latest.get("external_path"), latest.get("subtask_states"));
    }

    private static List<JsonNode> pendingFields(JsonNode pending) {
        return List.of(pending.get("id"), pending.get("trigger_timestamp"), pending.get("expires_at"),
                pending.get("checkpoint_type"), pending.get("external_path"), pending.get("num_acknowledged_subtasks"));
    }

    private static void same(List<String> differences, String what, Object was, Object now) {
        if (!was.equals(now)) {
            differences.add(what + ": was " + was + ", is " + now);
        }
    }

    private static void compare(String what, JsonNode was, JsonNode now, Set<String> ignored, List<String> out) {
        JsonNode left = without(was, ignored);
        JsonNode right = servedAs(left, without(now, ignored));
        if (!left.equals(right)) {
            List<String> paths = new ArrayList<>();
            diff("", left, right, paths);
            out.add(what + ": " + String.join("; ", paths.subList(0, Math.min(paths.size(), MAX_PATHS)))
                    + (paths.size() > MAX_PATHS ? "; and " + (paths.size() - MAX_PATHS) + " more" : ""));
        }
    }

    /** The paths at which {@code was} and {@code now} differ, each with both values (short ones whole). */
    private static void diff(String path, JsonNode was, JsonNode now, List<String> out) {
        if (was.equals(now)) {
            return;
        }
        if (was.isObject() && now.isObject()) {
            Set<String> fields = new TreeSet<>();
            was.fieldNames().forEachRemaining(fields::add);
            now.fieldNames().forEachRemaining(fields::add);
            fields.forEach(f -> diff(path + "." + f, was.path(f), now.path(f), out));
        } else if (was.isArray() && now.isArray() && was.size() == now.size()) {
            for (int i = 0; i < was.size(); i++) {
                diff(path + "[" + i + "]", was.get(i), now.get(i), out);
            }
        } else {
            out.add(path + " was " + shortly(was) + ", is " + shortly(now));
        }
    }

    /**
     * {@code now} with only the object fields {@code was} has, at every depth: a later release may add fields to an
     * answer (the REST API's compatibility is additive), so the comparison is of what the earlier answer served; a
     * field it served that is missing or different now still differs.
     */
    static JsonNode servedAs(JsonNode was, JsonNode now) {
        if (was == null || now == null) {
            return now;
        }
        if (was.isObject() && now.isObject()) {
            ObjectNode shaped = ((ObjectNode) now).objectNode();
            was.fieldNames().forEachRemaining(f -> {
                if (now.has(f)) {
                    shaped.set(f, servedAs(was.get(f), now.get(f)));
                }
            });
            return shaped;
        }
        if (was.isArray() && now.isArray() && was.size() == now.size()) {
            ArrayNode shaped = ((ArrayNode) now).arrayNode();
            for (int i = 0; i < now.size(); i++) {
                shaped.add(servedAs(was.get(i), now.get(i)));
            }
            return shaped;
        }
        return now;
    }

    private static String shortly(JsonNode node) {
        String text = node.isMissingNode() ? "(absent)" : node.toString();
        return text.length() <= 160 ? text : text.substring(0, 160) + "...";
    }

    private static JsonNode without(JsonNode node, Set<String> fields) {
        if (!(node instanceof ObjectNode object)) {
            return node;
        }
        ObjectNode copy = object.deepCopy();
        copy.remove(fields);
        return copy;
    }

    static JsonNode read(String body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }
}
