package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.access.AccessPolicy;
import dev.cairn.coordinator.rest.bodies.JobSpecBody;
import dev.cairn.coordinator.rest.bodies.RemoveBody;
import dev.cairn.coordinator.rest.bodies.RescaleBodies;
import dev.cairn.coordinator.rest.bodies.RescaleBodies.SpecTask;
import dev.cairn.coordinator.rest.bodies.RestoreBodies;
import dev.cairn.coordinator.rest.bodies.TriggerBodies;
import dev.cairn.coordinator.rest.sources.HealthSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.RequestPublisher;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.contract.TriggerRequests;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.views.ApiViews;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST API: answers the {@link Route}s it serves, checking who may call them by their {@link Route.Access}.
 * Beside it, {@code dev.cairn.coordinator.http.QueryServer} serves the web page at {@code /} and Prometheus'
 * {@code /metrics}. The bodies are bound by {@link JobSpecBody}, {@link TriggerBodies} and {@link RestoreBodies}
 * and checked by the coordinator's own rules; who may call is the {@link AccessPolicy}'s to say. A method a path
 * does not serve is answered 405 with an {@code Allow} header; a path the API does not serve 404 naming every
 * route; below {@code /jobs/{jobId}} the caller's token is checked first (every method but GET and HEAD as a
 * mutation), so that no mutation added later can skip the check. A GET for a job owned by another instance is
 * forwarded to it (see {@link Forwarder}); every answer names the instance that served it in
 * {@value Forwarder#SERVED_BY}. A PUT, PATCH, POST or DELETE is produced to the requests topic by whichever
 * instance receives it: the topic routes it to the owner. Every route is served under {@code /v1} too. Errors are
 * JSON {@code {"error": "..."}}; no request, however broken, stops the server. It knows nothing of the HTTP
 * server: {@link JettyApiHandler} turns Jetty's requests into {@link ApiRequest}s and writes the {@link HttpAnswer}s
 * back.
 */
public final class QueryApi {

    private static final Logger LOG = LoggerFactory.getLogger(QueryApi.class);
    public static final int MAX_BODY_BYTES = 64 * 1024;
    private static final String AUTHORIZATION = "Authorization";

    private final StateSource source;
    private final HealthSource health;
    private final RequestPublisher publisher;
    private final AccessPolicy access;
    private final Forwarder forwarder;
    private final String self;
    private final LongSupplier clock;
    private final InputLimits limits;
    private final JobsOverview jobs;

    /**
     * @param access who may read and change jobs
     * @param forwarder reaches the instances that own other jobs
     * @param self this instance's host:port, as other instances reach it
     * @param clock the time stamped on trigger requests and job specs
     * @param limits what the coordinator accepts of a request (checked here so that the client hears of it at once)
     */
    public QueryApi(StateSource source, HealthSource health, RequestPublisher publisher, AccessPolicy access,
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
    }

    /** The answer to {@code request}: never throws, every failure becomes an error answer. */
    HttpAnswer answer(ApiRequest request) {
        HttpAnswer answer;
        try {
            answer = route(request);
        } catch (ForwardedRefusal e) {
            answer = e.answer;
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

    /** Checks the caller's token (below a job, before anything else), then hands the call to its route. */
    private HttpAnswer route(ApiRequest request) {
        List<String> path = Route.unversioned(PathValues.segments(request.rawPath()));
        Route found = Route.find(path, request.method());
        Route route = found == null ? null : found.forMethod(request.method());
        if (route == null) {
            if (path.size() >= 2 && path.get(0).equals("jobs")) {
                authorize(Route.Access.ofUnrouted(request.method()), request, path.get(1));
            }
            if (found == null) {
                throw notFound(request);
            }
            throw ApiException.methodNotAllowed(request.method(), found.allowed());
        }
        Map<String, String> values = route.values(path);
        String principal = authorize(route.access(), request, values.get("jobId"));
        return route.handler.answer(this, new Route.Call(request, values, principal));
    }

    private static ApiException notFound(ApiRequest request) {
        return ApiException.notFound("no endpoint " + request.method() + " " + request.rawPath()
                + "; the API serves " + Route.listing());
    }

    HttpAnswer jobs(ApiRequest request) {
        return jobs.answer(request);
    }

    HttpAnswer requestStatus(Route.Call call, boolean savepointPath) {
        String requestId = PathValues.requestId(call.values().get("requestId"));
        return read(call, stores -> JobQueries.request(stores, call.jobId(), requestId, savepointPath));
    }

    HttpAnswer checkpoint(Route.Call call) {
        long checkpointId = PathValues.checkpointId(call.values().get("checkpointId"));
        return read(call, stores -> JobQueries.checkpoint(stores, call.jobId(), checkpointId));
    }

    /** Answers a GET from the job's stores here, or from its owner when another instance has it. */
    HttpAnswer read(Route.Call call, Function<CoordinatorState, Object> query) {
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

    /** {@code GET /openapi.json}: this API as an OpenAPI 3 document ({@link OpenApiDocument}). */
    HttpAnswer openApi() {
        return new HttpAnswer(200, OpenApiDocument.JSON, Map.of());
    }

    /** 200 {@code {"status":"UP"}} or 503 {@code {"status":"DOWN","reason":...}}; answered here, never forwarded. */
    HttpAnswer health(boolean readiness) {
        HealthSource.Health check = readiness ? health.readiness() : health.liveness();
        return check.ok() ? HttpAnswer.json(200, new ApiViews.Health("UP", null))
                : HttpAnswer.json(503, new ApiViews.Health("DOWN", check.reason()));
    }

    /**
     * Reads the body as the coordinator would check it, checks that the job exists (asking its owner if need be),
     * then produces the request it asks for: a checkpoint, a savepoint or a stop-with-savepoint.
     */
    HttpAnswer trigger(Route.Call call, TriggerBodies body) {
        TriggerRequest trigger = body.read(call.request().bodyText(), call.jobId(), clock.getAsLong(),
                PathValues::newRequestId, limits);
        return publishFor(call, () -> publisher.publish(trigger), TriggerRequests.describe(trigger),
                trigger.getRequestId());
    }

    /** {@code POST /jobs/{jobId}/restore}: reads the body, checks that the job exists, produces the RestoreJob. */
    HttpAnswer restore(Route.Call call) {
        RestoreJob restore = RestoreBodies.restore(call.request().bodyText(), call.jobId(), clock.getAsLong(),
                PathValues::newRequestId, limits);
        String from = restore.getCheckpointId() != null ? "checkpoint " + restore.getCheckpointId()
                : restore.getSavepointPath() != null ? restore.getSavepointPath() : "its restore point";
        return publishFor(call, () -> publisher.publish(restore), "a restore from " + from + " ("
                + restore.getRestoreMode() + ")", restore.getRequestId());
    }

    /**
     * {@code POST /jobs/{jobId}/rescaling}: reads the body, checks it against the job's tasks (asking its owner if need
     * be), produces the RescaleJob.
     */
    HttpAnswer rescale(Route.Call call) {
        RescaleJob rescale = RescaleBodies.rescale(call.request().bodyText(), call.jobId(), clock.getAsLong(),
                PathValues::newRequestId, limits);
        return publishFor(call, tasks -> RescaleBodies.requireFits(rescale, tasks), () -> publisher.publish(rescale),
                "a rescale to " + RescaleBodies.describe(rescale) + " (" + rescale.getRestoreMode() + ")",
                rescale.getRequestId());
    }

    /**
     * {@code DELETE /jobs/{jobId}}: reads the optional body (its request id), checks that the job exists (asking its
     * owner if need be), produces the RemoveJob; the coordinator removes the job if it is not RUNNING, and its outcome
     * says so.
     */
    HttpAnswer remove(Route.Call call) {
        RemoveJob remove = RemoveBody.remove(call.request().bodyText(), call.jobId(), clock.getAsLong(),
                PathValues::newRequestId, limits);
        return publishFor(call, () -> publisher.publish(remove), "the removal of the job", remove.getRequestId());
    }

    /** {@code POST /jobs/{jobId}/savepoints/dispose}: the same for a DisposeSavepoint. */
    HttpAnswer dispose(Route.Call call) {
        DisposeSavepoint dispose = RestoreBodies.dispose(call.request().bodyText(), call.jobId(), clock.getAsLong(),
                PathValues::newRequestId, limits);
        String which = dispose.getCheckpointId() != null ? "savepoint " + dispose.getCheckpointId()
                : "the savepoint at " + dispose.getSavepointPath();
        return publishFor(call, () -> publisher.publish(dispose), "the disposal of " + which,
                dispose.getRequestId());
    }

    /**
     * Checks that the job exists (asking its owner if need be), then produces the request the body asked for: a
     * checkpoint, a savepoint, a stop-with-savepoint, a restore, a rescale, a disposal or a removal; answers 202 with
     * its request id.
     */
    private HttpAnswer publishFor(Route.Call call, Runnable publish, String what, String requestId) {
        return publishFor(call, null, publish, what, requestId);
    }

    /**
     * The same, checking the request against the job's tasks with {@code fits} first ({@link JobTasks}; {@code null}
     * checks only that the job exists).
     */
    private HttpAnswer publishFor(Route.Call call, Consumer<List<SpecTask>> fits, Runnable publish, String what,
            String requestId) {
        checkJob(call, fits == null ? JobCheck.EXISTS : new JobCheck(
                (stores, jobId) -> fits.accept(JobTasks.local(stores, jobId)),
                (view, owner) -> fits.accept(JobTasks.ofView(view, owner))));
        publish.run();
        LOG.info("REST: {} requested {} ({}) of job {}", call.principal(), what, requestId, call.jobId());
        return HttpAnswer.json(202, new ApiViews.Triggered(requestId));
    }

    /**
     * {@code PATCH /jobs/{jobId}?mode=cancel}, Flink's cancellation: checks the call ({@link JobCancellation}) and
     * the job's status (asking its owner if need be), produces the JobStatusChange to CANCELED and answers 202
     * {@code {}}, as Flink does.
     */
    HttpAnswer cancel(Route.Call call) {
        JobCancellation.requireCancel(call.request().rawQuery(), call.request().bodyText());
        checkJob(call, new JobCheck(
                (stores, jobId) -> JobCancellation.requireCancellable(jobId,
                        JobQueries.existing(stores, jobId).getStatus().name()),
                (view, owner) -> JobCancellation.requireCancellable(call.jobId(), JobCancellation.statusOfView(view))));
        publisher.publish(JobCancellation.change(call.jobId(), clock.getAsLong()));
        LOG.info("REST: {} cancelled job {}", call.principal(), call.jobId());
        return HttpAnswer.json(202, Map.of());
    }

    /**
     * What a change checks against the job before it is produced: the job in this instance's stores, or the view
     * ({@code GET /jobs/{jobId}}) the instance owning it answered; each throws an {@link ApiException} to refuse.
     */
    private record JobCheck(BiConsumer<CoordinatorState, String> local, BiConsumer<byte[], String> remote) {
        /** Only that the job exists. */
        static final JobCheck EXISTS = new JobCheck(JobQueries::existing, (view, owner) -> { });
    }

    /** Runs {@code check} on the job here, or on its owner's view of it (whose error answers are passed on). */
    private void checkJob(Route.Call call, JobCheck check) {
        String jobId = call.jobId();
        JobLocation location = source.locate(jobId);
        if (location instanceof JobLocation.Remote owner) {
            HttpAnswer answer = forwarder.get(owner, "/jobs/" + PathValues.encode(jobId),
                    passedOnAuthorization(call.request()));
            if (answer.status() != 200) {
                throw new ForwardedRefusal(answer);
            }
            check.remote().accept(answer.body(), owner.authority());
        } else if (location instanceof JobLocation.Local local) {
            check.local().accept(source.reader(local.partition()), jobId);
        } else {
            throw ApiException.unavailable("cannot check that job '" + jobId + "' exists right now: "
                    + ((JobLocation.Unavailable) location).reason());
        }
    }

    /** The owner's answer when it refused to show the job: passed on to the caller as it is. */
    private static final class ForwardedRefusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient HttpAnswer answer;

        ForwardedRefusal(HttpAnswer answer) {
            super(null, null, false, false);
            this.answer = answer;
        }
    }

    /**
     * Validates the body as the coordinator would, then produces the job spec. Registering the same spec
     * again changes nothing (the coordinator ignores it); a different spec replaces the job's. When this instance
     * owns the job and can read its stores, the spec's max parallelism is checked against them as the coordinator
     * will check it ({@link KeptMaxParallelism}); otherwise (another instance owns it, or no instance does right now)
     * the coordinator alone decides, and a refusal is a {@code CommandRejected} in the journal.
     */
    HttpAnswer register(Route.Call call) {
        String jobId = call.jobId();
        JobSpec spec = JobSpecBody.read(call.request().bodyText(), jobId, clock.getAsLong(), limits);
        if (source.locate(jobId) instanceof JobLocation.Local local) {
            checkKeptMaxParallelism(local, spec);
        }
        publisher.publish(spec);
        LOG.info("REST: {} registered job {} ({} tasks)", call.principal(), jobId, spec.getTasks().size());
        return HttpAnswer.json(202, new ApiViews.Registered(jobId));
    }

    /**
     * Answers 400 when the coordinator would refuse the spec's max parallelism; stores that cannot be read right now
     * (moving, restoring) leave the decision to the coordinator, as for a job another instance owns: a registration
     * never waited for the stores.
     */
    private void checkKeptMaxParallelism(JobLocation.Local local, JobSpec spec) {
        try {
            KeptMaxParallelism.require(source.reader(local.partition()), spec, limits);
        } catch (InvalidStateStoreException | ApiException e) {
            if (e instanceof ApiException refused && refused.status() != 503) {
                throw refused;
            }
            LOG.info("REST: cannot read the stores of job {} to check its max parallelism ({}); the coordinator "
                    + "decides", spec.getJobId(), e.getMessage());
        }
    }

    /** @return the principal, or {@code null} when the route is open to anyone */
    private String authorize(Route.Access route, ApiRequest request, String jobId) {
        return switch (route) {
            case JOB_READ -> access.authorizeRead(request.headers(AUTHORIZATION), jobId);
            case JOB_CHANGE -> access.authorizeMutation(request.headers(AUTHORIZATION), jobId);
            case PROBE, ANYONE, LISTING -> null;
        };
    }

    /** The caller's Authorization header, passed on to the owner of the job when reads need a token. */
    private String passedOnAuthorization(ApiRequest request) {
        return access.readsNeedToken() ? request.header(AUTHORIZATION) : null;
    }
}
