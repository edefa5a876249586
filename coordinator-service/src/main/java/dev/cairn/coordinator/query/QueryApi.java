package dev.cairn.coordinator.query;

import dev.cairn.core.rules.InputLimits;
import dev.cairn.core.rules.TriggerRequests;
import dev.cairn.coordinator.streams.StoreReader;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TriggerRequest;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST API's routes:
 * <pre>
 *   GET  /jobs[?scope=all|local]                        every job of every instance (see {@link JobsOverview})
 *   GET  /jobs/{jobId}                                  spec, status, schedule
 *   PUT  /jobs/{jobId}                                  register a job or replace its spec (202)
 *   GET  /jobs/{jobId}/checkpoints                      counts, summary, latest, pending, history
 *   POST /jobs/{jobId}/checkpoints                      trigger a checkpoint or savepoint (202)
 *   POST /jobs/{jobId}/savepoints                       trigger a savepoint, Flink's body (202)
 *   POST /jobs/{jobId}/stop                             stop the job with a savepoint (202)
 *   GET  /jobs/{jobId}/checkpoints/{checkpointId}       one checkpoint with per-subtask stats
 *   GET  /jobs/{jobId}/checkpoints/details/{id}         the same, at Flink's path
 *   GET  /jobs/{jobId}/checkpoints/latest-completed     what to restore from
 *   GET  /jobs/{jobId}/checkpoints/config               the checkpoint configuration, Flink's names
 *   GET  /jobs/{jobId}/checkpoints/{requestId}          status of a trigger request, Flink's CheckpointInfo
 *   GET  /jobs/{jobId}/savepoints/{requestId}           status of a trigger request, Flink's SavepointInfo
 *   GET  /health                                        liveness of this instance (200 UP, 503 DOWN)
 *   GET  /ready                                         readiness of this instance (200 UP, 503 DOWN)
 * </pre>
 * Beside it, {@link QueryServer} serves the web page at {@code /} ({@link WebPageHandler}) and Prometheus'
 * {@code /metrics} ({@code dev.cairn.coordinator.metrics.MetricsHandler}).
 * After {@code /checkpoints/}, a number (digits, optionally after a '-') is a checkpoint id and anything else a
 * request id; a request whose id is a number is found at {@code /savepoints/{requestId}} (any request is, whatever
 * its type). The bodies are bound by {@link JobSpecBody}, {@link CheckpointBody}, {@link SavepointBody} and
 * {@link StopBody} and checked by the coordinator's own rules. A method a path does not serve is answered 405 with
 * an {@code Allow} header; a path the API does not serve 404 naming {@link #ENDPOINTS}.
 * A GET for a job owned by another instance is forwarded to it (see {@link Forwarder}); every answer names
 * the instance that served it in {@value Forwarder#SERVED_BY}. A PUT or POST is produced to the requests topic
 * by whichever instance receives it: the topic routes it to the owner. Errors are JSON {@code {"error": "..."}}; no
 * request, however broken, stops the server. PUT and POST need a bearer token whose scope covers the job,
 * GETs only when the {@link AccessPolicy} says so (see there). It knows nothing of the HTTP server:
 * {@link JettyApiHandler} turns Jetty's requests into {@link ApiRequest}s and writes the {@link HttpAnswer}s back.
 */
final class QueryApi {

    private static final Logger LOG = LoggerFactory.getLogger(QueryApi.class);
    static final int MAX_BODY_BYTES = 64 * 1024;
    private static final String AUTHORIZATION = "Authorization";
    /** A checkpoint id after {@code /checkpoints/}; anything else there is a request id. */
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+");
    /** In a route's path, any one segment. */
    private static final String ANY = "{}";
    /** The routes in the table above, named in the answer to a path the API does not serve. */
    static final String ENDPOINTS = "GET /jobs, GET|PUT /jobs/{jobId}, GET|POST /jobs/{jobId}/checkpoints, "
            + "POST /jobs/{jobId}/savepoints, POST /jobs/{jobId}/stop, "
            + "GET /jobs/{jobId}/checkpoints/{checkpointId}, GET /jobs/{jobId}/checkpoints/details/{checkpointId}, "
            + "GET /jobs/{jobId}/checkpoints/latest-completed, "
            + "GET /jobs/{jobId}/checkpoints/config, GET /jobs/{jobId}/checkpoints/{requestId}, "
            + "GET /jobs/{jobId}/savepoints/{requestId}, GET /health, GET /ready; and beside the API "
            + "GET /metrics (Prometheus) and GET / (the web page)";

    private final StateSource source;
    private final HealthSource health;
    private final RequestPublisher publisher;
    private final AccessPolicy access;
    private final Forwarder forwarder;
    private final String self;
    private final LongSupplier clock;
    private final InputLimits limits;
    private final JobsOverview jobs;
    private final List<JobRoute> jobRoutes;

    /**
     * @param access who may read and change jobs
     * @param forwarder reaches the instances that own other jobs
     * @param self this instance's host:port, as other instances reach it
     * @param clock the time stamped on trigger requests and job specs
     * @param limits what the coordinator accepts of a request (checked here so that the client hears of it at once)
     */
    QueryApi(StateSource source, HealthSource health, RequestPublisher publisher, AccessPolicy access,
            Forwarder forwarder, String self, LongSupplier clock, InputLimits limits) {
        this.limits = limits;
        this.source = source;
        this.health = health;
        this.publisher = publisher;
        this.access = access;
        this.forwarder = forwarder;
        this.self = self;
        this.clock = clock;
        this.jobs = new JobsOverview(source, access, forwarder, self);
        this.jobRoutes = jobRoutes();
    }

    /** The answer to {@code request}: never throws, every failure becomes an error answer. */
    HttpAnswer answer(ApiRequest request) {
        HttpAnswer answer;
        try {
            answer = route(request);
        } catch (ApiException e) {
            answer = HttpAnswer.error(e);
        } catch (InvalidStateStoreException e) {
            answer = HttpAnswer.error(ApiException.unavailable("the job's stores are not queryable right now ("
                    + e.getMessage() + ")"));
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed", request.method(), request.rawPath(), e);
            answer = HttpAnswer.error(new ApiException(500, "internal error: " + e));
        }
        return answer.servedBy(self);
    }

    private HttpAnswer route(ApiRequest request) {
        List<String> path = segments(request.rawPath());
        String first = path.isEmpty() ? "" : path.get(0);
        if (path.size() == 1 && first.equals("health")) {
            return health(request, health.liveness());
        }
        if (path.size() == 1 && first.equals("ready")) {
            return health(request, health.readiness());
        }
        if (path.size() == 1 && first.equals("jobs")) {
            return jobs.answer(request);
        }
        if (path.size() >= 2 && first.equals("jobs")) {
            return routeJob(request, path.get(1), path.subList(2, path.size()));
        }
        throw notFound(request);
    }

    /** Checks the caller's token, then hands the call to the first route of {@link #jobRoutes} its path matches. */
    private HttpAnswer routeJob(ApiRequest request, String jobId, List<String> rest) {
        JobCall call = new JobCall(request, jobId, authorize(request, jobId), rest);
        for (JobRoute route : jobRoutes) {
            if (route.matches().test(rest)) {
                return route.dispatch(call);
            }
        }
        throw notFound(request);
    }

    /** The routes below {@code /jobs/{jobId}}, matched in this order against the segments after the job id. */
    private List<JobRoute> jobRoutes() {
        return List.of(
                JobRoute.of(path(), "GET", c -> read(c, stores -> JobQueries.job(stores, c.jobId())),
                        "PUT", this::register),
                JobRoute.of(path("stop"), "POST", c -> trigger(c, StopBody.class)),
                JobRoute.of(path("savepoints"), "POST", c -> trigger(c, SavepointBody.class)),
                JobRoute.of(path("savepoints", ANY), "GET", c -> requestStatus(c, true)),
                JobRoute.of(path("checkpoints"),
                        "GET", c -> read(c, stores -> JobQueries.checkpoints(stores, c.jobId())),
                        "POST", c -> trigger(c, CheckpointBody.class)),
                JobRoute.of(path("checkpoints", "latest-completed"), "GET",
                        c -> read(c, stores -> JobQueries.latestCompleted(stores, c.jobId()))),
                JobRoute.of(path("checkpoints", "config"), "GET",
                        c -> read(c, stores -> JobQueries.config(stores, c.jobId()))),
                JobRoute.of(path("checkpoints", ANY).and(rest -> !NUMBER.matcher(rest.get(1)).matches()), "GET",
                        c -> requestStatus(c, false)),
                JobRoute.of(path("checkpoints", ANY), "GET", c -> checkpoint(c, c.rest().get(1))),
                JobRoute.of(path("checkpoints", "details", ANY), "GET", c -> checkpoint(c, c.rest().get(2))));
    }

    /** Matches exactly these segments; {@link #ANY} matches any one segment. */
    private static Predicate<List<String>> path(String... pattern) {
        return rest -> {
            if (rest.size() != pattern.length) {
                return false;
            }
            for (int i = 0; i < pattern.length; i++) {
                if (!pattern[i].equals(ANY) && !pattern[i].equals(rest.get(i))) {
                    return false;
                }
            }
            return true;
        };
    }

    private static ApiException notFound(ApiRequest request) {
        return ApiException.notFound("no endpoint " + request.method() + " " + request.rawPath()
                + "; the API serves " + ENDPOINTS);
    }

    private HttpAnswer requestStatus(JobCall call, boolean savepointPath) {
        String requestId = requestId(call.rest().get(1));
        return read(call, stores -> JobQueries.request(stores, call.jobId(), requestId, savepointPath));
    }

    private HttpAnswer checkpoint(JobCall call, String segment) {
        long checkpointId = checkpointId(segment);
        return read(call, stores -> JobQueries.checkpoint(stores, call.jobId(), checkpointId));
    }

    /** Answers a GET from the job's stores here, or from its owner when another instance has it. */
    private HttpAnswer read(JobCall call, Function<StoreReader, Object> query) {
        String jobId = call.jobId();
        JobLocation location = source.locate(jobId);
        if (location instanceof JobLocation.Remote owner) {
            return forward(call.request(), jobId, owner);
        }
        if (location instanceof JobLocation.Unavailable unavailable) {
            throw ApiException.unavailable("the state of job '" + jobId + "' is not queryable right now: "
                    + unavailable.reason());
        }
        int partition = ((JobLocation.Local) location).partition();
        return HttpAnswer.json(200, query.apply(source.reader(partition)));
    }

    private HttpAnswer forward(ApiRequest request, String jobId, JobLocation.Remote owner) {
        String forwardedBy = request.header(Forwarder.FORWARDED_BY);
        if (forwardedBy != null) {
            throw ApiException.unavailable("instance " + forwardedBy + " sent job '" + jobId + "' here, but "
                    + owner.authority() + " owns it now (the assignment is moving)");
        }
        return forwarder.get(owner, request.rawPathAndQuery(), passedOnAuthorization(request));
    }

    /** 200 {@code {"status":"UP"}} or 503 {@code {"status":"DOWN","reason":...}}; answered here, never forwarded. */
    private static HttpAnswer health(ApiRequest request, HealthSource.Health check) {
        if (!request.method().equals("GET")) {
            throw ApiException.methodNotAllowed(request.method(), "GET");
        }
        return check.ok() ? HttpAnswer.json(200, new ApiViews.Health("UP", null))
                : HttpAnswer.json(503, new ApiViews.Health("DOWN", check.reason()));
    }

    /**
     * Reads the body as the coordinator would check it, checks that the job exists (asking its owner if need be),
     * then produces the request it asks for: a checkpoint, a savepoint or a stop-with-savepoint.
     */
    private HttpAnswer trigger(JobCall call, Class<? extends TriggerBody> type) {
        ApiRequest request = call.request();
        String jobId = call.jobId();
        TriggerRequest trigger = TriggerBody.read(request.bodyText(), type, jobId, clock.getAsLong(),
                () -> UUID.randomUUID().toString(), limits);
        JobLocation location = source.locate(jobId);
        if (location instanceof JobLocation.Remote owner) {
            HttpAnswer answer = forwarder.get(owner, "/jobs/" + encode(jobId), passedOnAuthorization(request));
            if (answer.status() != 200) {
                return answer;
            }
        } else if (location instanceof JobLocation.Local local) {
            JobQueries.job(source.reader(local.partition()), jobId);
        } else {
            throw ApiException.unavailable("cannot check that job '" + jobId + "' exists right now: "
                    + ((JobLocation.Unavailable) location).reason());
        }
        publisher.publish(trigger);
        LOG.info("REST: {} requested {} ({}) of job {}", call.principal(), TriggerRequests.describe(trigger),
                trigger.getRequestId(), jobId);
        return HttpAnswer.json(202, new ApiViews.Triggered(trigger.getRequestId()));
    }

    /**
     * Validates the body as the coordinator would, then produces the job spec. Registering the same spec
     * again changes nothing (the coordinator ignores it); a different spec replaces the job's.
     */
    private HttpAnswer register(JobCall call) {
        String jobId = call.jobId();
        JobSpec spec = JobSpecBody.read(call.request().bodyText(), jobId, clock.getAsLong(), limits);
        publisher.publish(spec);
        LOG.info("REST: {} registered job {} ({} tasks)", call.principal(), jobId, spec.getTasks().size());
        return HttpAnswer.json(202, new ApiViews.Registered(jobId));
    }

    /**
     * Checks the caller's token before any route of a job is looked at: every method but GET and HEAD is
     * a mutation, so that no mutation added later can skip the check.
     *
     * @return the principal, or {@code null} for a read when reads are open
     */
    private String authorize(ApiRequest request, String jobId) {
        boolean read = request.method().equals("GET") || request.method().equals("HEAD");
        return read ? access.authorizeRead(request.headers(AUTHORIZATION), jobId)
                : access.authorizeMutation(request.headers(AUTHORIZATION), jobId);
    }

    /** The caller's Authorization header, passed on to the owner of the job when reads need a token. */
    private String passedOnAuthorization(ApiRequest request) {
        return access.readsNeedToken() ? request.header(AUTHORIZATION) : null;
    }

    private static long checkpointId(String segment) {
        try {
            return Long.parseLong(segment);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("checkpoint id must be a number (or 'latest-completed'), not '"
                    + segment + "'");
        }
    }

    /** A request id from the path: what the coordinator accepts as one (no control characters, bounded length). */
    private static String requestId(String segment) {
        if (segment.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badRequest("request id must not contain control characters");
        }
        int max = InputLimits.DEFAULTS.maxIdLength();
        if (segment.length() > max) {
            throw ApiException.badRequest("request id is " + segment.length() + " characters long, more than the "
                    + "limit of " + max + ", so no request has it");
        }
        return segment;
    }

    /** Path segments, percent-decoded one by one (so that an encoded '/' stays inside its segment). */
    static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String raw : rawPath.split("/")) {
            if (raw.isEmpty()) {
                continue;
            }
            try {
                segments.add(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("malformed percent-encoding in path segment '" + raw + "'");
            }
        }
        return segments;
    }

    static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A request below {@code /jobs/{jobId}}: the caller's principal ({@code null} for an open read), the rest. */
    private record JobCall(ApiRequest request, String jobId, String principal, List<String> rest) {
    }

    /** What one method does on a route. */
    @FunctionalInterface
    private interface JobHandler {
        HttpAnswer handle(JobCall call);
    }

    /**
     * One route below {@code /jobs/{jobId}}: the paths it matches and the methods it serves; any other method is
     * answered 405 with an {@code Allow} header naming the served ones.
     */
    private record JobRoute(Predicate<List<String>> matches, SortedMap<String, JobHandler> methods) {

        static JobRoute of(Predicate<List<String>> matches, String method, JobHandler handler) {
            return new JobRoute(matches, new TreeMap<>(Map.of(method, handler)));
        }

        static JobRoute of(Predicate<List<String>> matches, String method, JobHandler handler,
                String otherMethod, JobHandler otherHandler) {
            return new JobRoute(matches, new TreeMap<>(Map.of(method, handler, otherMethod, otherHandler)));
        }

        HttpAnswer dispatch(JobCall call) {
            JobHandler handler = methods.get(call.request().method());
            if (handler == null) {
                throw ApiException.methodNotAllowed(call.request().method(), String.join(", ", methods.keySet()));
            }
            return handler.handle(call);
        }
    }
}
