package dev.cairn.coordinator.rest.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.access.AccessPolicy;
import dev.cairn.coordinator.rest.access.JobScope;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.views.ApiViews;
import dev.cairn.core.views.JobViews;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /jobs}: every job of every coordinator instance, sorted by id. This instance lists the jobs of the
 * partitions it owns and asks each other instance for its own ({@code GET /jobs?scope=local}, passing the caller's
 * {@code Authorization} on when reads need a token); an instance that does not answer, or a partition whose stores
 * are not queryable, is named in {@code unreachable} instead of failing the whole listing. When reads need a
 * token, only the jobs its scope covers are listed. The answer is {@link Listing}; {@code id} and {@code status}
 * are the names of Flink's {@code /jobs}, the rest are Cairn's. Asking the other instances is sequential: a dead
 * one costs the forwarder's connect timeout, a hung one its request timeout.
 */
final class JobsOverview {

    static final String SCOPE = "scope";
    private static final String USAGE = "GET /jobs takes at most one query parameter, scope=all (default: every "
            + "instance) or scope=local (this instance only)";

    /**
     * One job as {@code GET /jobs} lists it.
     *
     * @param id the job id (Flink: {@code id})
     * @param status RUNNING, SUSPENDED, CANCELED, FINISHED or FAILED (Flink: {@code status})
     * @param pendingCheckpoints checkpoints in progress now
     * @param latestCompletedId the newest completed checkpoint (not savepoint), {@code null} when none
     * @param counts checkpoints triggered, in progress, completed and failed since the job was registered
     * @param lastCheckpoint the newest ended (completed or failed) checkpoint in the history, {@code null} when none
     */
    record JobSummary(String id, String status, int pendingCheckpoints, Long latestCompletedId,
            ApiViews.Counts counts, ApiViews.Checkpoint lastCheckpoint) {
    }

    /** An instance, or a partition of one, whose jobs are missing from the listing, and why. */
    record Unreachable(String instance, String reason) {
    }

    /** The answer: the jobs found, sorted by id, and what could not be asked. */
    record Listing(List<JsonNode> jobs, List<Unreachable> unreachable) {
    }

    private final StateSource source;
    private final AccessPolicy access;
    private final Forwarder forwarder;
    private final String self;

    JobsOverview(StateSource source, AccessPolicy access, Forwarder forwarder, String self) {
        this.source = source;
        this.access = access;
        this.forwarder = forwarder;
        this.self = self;
    }

    /** The answer to {@code GET /jobs[?scope=all|local]}. */
    HttpAnswer answer(ApiRequest request) {
        boolean localOnly = localOnly(request.rawQuery());
        JobScope scope = access.readScope(request.headers("Authorization"));
        Map<String, JsonNode> jobs = new LinkedHashMap<>();
        List<Unreachable> unreachable = new ArrayList<>();
        for (JobSummary job : local(unreachable)) {
            if (scope.covers(job.id())) {
                jobs.putIfAbsent(job.id(), Json.MAPPER.valueToTree(job));
            }
        }
        if (!localOnly) {
            for (JobLocation.Remote other : source.otherInstances()) {
                askOther(request, other, scope, jobs, unreachable);
            }
        }
        List<JsonNode> sorted = new ArrayList<>(jobs.values());
        sorted.sort(Comparator.comparing(job -> job.path("id").asText()));
        return HttpAnswer.json(200, new Listing(sorted, unreachable));
    }

    /** The jobs of every partition this instance owns; a partition that cannot be read is noted as unreachable. */
    private List<JobSummary> local(List<Unreachable> unreachable) {
        return source.localJobs(JobsOverview::summary, (reason, partition) -> unreachable.add(new Unreachable(self,
                "the stores of partition " + partition + " are not queryable right now: " + reason)));
    }

    private static JobSummary summary(CoordinatorState stores, JobState job) {
        List<Long> history = job.getHistoryIds();
        ApiViews.Checkpoint last = history.isEmpty() ? null
                : stores.summary(job.getJobId(), history.get(history.size() - 1)).map(JobViews::ended).orElse(null);
        return new JobSummary(job.getJobId(), job.getStatus().name(), job.getPending().size(),
                job.getLatestCompletedId() < 0 ? null : job.getLatestCompletedId(), ApiViews.Counts.of(job.getCounts()),
                last);
    }

    /** Adds the local jobs of {@code other} (and what it could not read itself), or notes it as unreachable. */
    private void askOther(ApiRequest request, JobLocation.Remote other, JobScope scope, Map<String, JsonNode> jobs,
            List<Unreachable> unreachable) {
        HttpAnswer answer;
        try {
            answer = forwarder.get(other, "/jobs?" + SCOPE + "=local",
                    access.readsNeedToken() ? request.header("Authorization") : null);
        } catch (ApiException e) {
            unreachable.add(new Unreachable(other.authority(), e.getMessage()));
            return;
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(answer.body());
        } catch (IOException e) {
            unreachable.add(new Unreachable(other.authority(), "answered " + answer.status()
                    + " with a body that is not JSON: " + e.getMessage()));
            return;
        }
        if (answer.status() != 200 || !body.path("jobs").isArray()) {
            String why = body.path("error").isTextual() ? body.path("error").asText() : "no job list";
            unreachable.add(new Unreachable(other.authority(), "answered " + answer.status() + ": " + why));
            return;
        }
        for (JsonNode job : (ArrayNode) body.get("jobs")) {
            String id = job.path("id").asText(null);
            if (job instanceof ObjectNode && id != null && scope.covers(id)) {
                jobs.putIfAbsent(id, job);
            }
        }
        for (JsonNode missing : body.path("unreachable")) {
            unreachable.add(new Unreachable(missing.path("instance").asText(other.authority()),
                    missing.path("reason").asText("")));
        }
    }

    /**
     * Reads the query string: nothing, {@code scope=all} or {@code scope=local}.
     *
     * @throws ApiException 400 naming what is wrong
     */
    static boolean localOnly(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return false;
        }
        String scope = null;
        for (String pair : rawQuery.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? null : decode(pair.substring(eq + 1));
            if (!name.equals(SCOPE)) {
                throw ApiException.badRequest(name.isEmpty() ? "empty query parameter in '" + rawQuery + "'; " + USAGE
                        : "unknown query parameter '" + name + "'; " + USAGE);
            }
            if (scope != null) {
                throw ApiException.badRequest("query parameter 'scope' is given more than once; " + USAGE);
            }
            if (value == null || !(value.equals("all") || value.equals("local"))) {
                throw ApiException.badRequest("query parameter scope must be 'all' or 'local', not "
                        + (value == null ? "empty" : "'" + value + "'") + "; " + USAGE);
            }
            scope = value;
        }
        return scope.equals("local");
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("malformed percent-encoding in the query string near '" + raw + "'");
        }
    }
}
