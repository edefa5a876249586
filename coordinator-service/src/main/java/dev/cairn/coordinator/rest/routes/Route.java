package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.rest.bodies.BodyTypes;
import dev.cairn.coordinator.rest.bodies.TriggerBodies;
import dev.cairn.core.views.ApiViews;
import dev.cairn.core.views.SavepointViews;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Every route of a coordinator's HTTP surface, in the order docs/rest.md lists them: its method and path, who may
 * call it, what {@link QueryApi} does with it, what it answers and Flink's REST equivalent. The API dispatches on
 * it and checks access by it, the probes port serves its {@link Access#PROBE} routes, and {@code RestReferenceTest}
 * writes the "Routes" table of docs/rest.md from it. In a path, {@code {name}} stands for one segment; a number
 * there is a {@code {checkpointId}}, anything else goes to a route with {@code {requestId}} in that place if one
 * fits. The routes without a handler are served beside the API: {@code /metrics} and the web page.
 */
public enum Route {
    JOBS("GET", "/jobs", Access.LISTING, (api, c) -> api.jobs(c.request()),
            "every job of every instance: status, counts, last checkpoint", "`GET /jobs`",
            Shape.read(JobsOverview.Listing.class).withQuery("scope", "all", "local")),
    JOB("GET", "/jobs/{jobId}", Access.JOB_READ, (api, c) -> api.read(c, s -> JobQueries.job(s, c.jobId())),
            "spec, status, next id, schedule, queue", "`GET /jobs/:jobid`", Shape.read(ApiViews.Job.class)),
    REGISTER("PUT", "/jobs/{jobId}", Access.JOB_CHANGE, QueryApi::register,
            "register a job or replace its spec", "none: Flink submits a job graph",
            Shape.change(BodyTypes.JOB_SPEC, ApiViews.Registered.class)),
    CANCEL("PATCH", "/jobs/{jobId}", Access.JOB_CHANGE, QueryApi::cancel,
            "cancel the job (`?mode=cancel`): it stops checkpointing, its pending checkpoints are aborted",
            "`PATCH /jobs/:jobid?mode=cancel`", Shape.change(null, null).withQuery("mode", "cancel")),
    REMOVE("DELETE", "/jobs/{jobId}", Access.JOB_CHANGE, QueryApi::remove,
            "remove a job that is not RUNNING: its state leaves the stores, its journal and files stay",
            "none: Flink cleans a job up once it is globally terminal",
            Shape.change(BodyTypes.REMOVE, ApiViews.Triggered.class)),
    CHECKPOINTS("GET", "/jobs/{jobId}/checkpoints", Access.JOB_READ,
            (api, c) -> api.read(c, s -> JobQueries.checkpoints(s, c.jobId())),
            "counts, summary (p50/p90/p95/p99/p999), latest, pending, history", "`GET /jobs/:jobid/checkpoints`",
            Shape.read(ApiViews.CheckpointStats.class)),
    TRIGGER("POST", "/jobs/{jobId}/checkpoints", Access.JOB_CHANGE,
            (api, c) -> api.trigger(c, TriggerBodies.CHECKPOINT),
            "trigger a checkpoint or a savepoint", "`POST /jobs/:jobid/checkpoints`",
            Shape.change(BodyTypes.of(TriggerBodies.CHECKPOINT), ApiViews.Triggered.class)),
    SAVEPOINT("POST", "/jobs/{jobId}/savepoints", Access.JOB_CHANGE,
            (api, c) -> api.trigger(c, TriggerBodies.SAVEPOINT),
            "trigger a savepoint, Flink's body", "`POST /jobs/:jobid/savepoints`",
            Shape.change(BodyTypes.of(TriggerBodies.SAVEPOINT), ApiViews.Triggered.class)),
    STOP("POST", "/jobs/{jobId}/stop", Access.JOB_CHANGE, (api, c) -> api.trigger(c, TriggerBodies.STOP),
            "stop the job with a savepoint", "`POST /jobs/:jobid/stop`",
            Shape.change(BodyTypes.of(TriggerBodies.STOP), ApiViews.Triggered.class)),
    RESTORE("POST", "/jobs/{jobId}/restore", Access.JOB_CHANGE, QueryApi::restore,
            "restore a job that is not RUNNING from a savepoint or retained checkpoint, in CLAIM or NO_CLAIM mode",
            "none: `flink run -s <path> --restoreMode` (Flink's `POST /jars/:jarid/run` with `savepointPath`)",
            Shape.change(BodyTypes.RESTORE, ApiViews.Triggered.class)),
    RESCALING("POST", "/jobs/{jobId}/rescaling", Access.JOB_CHANGE, QueryApi::rescale,
            "change the parallelism of some of the job's tasks: stop with a savepoint if RUNNING, resume from it",
            "none: the Kubernetes operator's savepoint upgrade (Flink's old `PATCH /jobs/:jobid/rescaling` is "
                    + "disabled)", Shape.change(BodyTypes.RESCALE, ApiViews.Triggered.class)),
    SAVEPOINTS("GET", "/jobs/{jobId}/savepoints", Access.JOB_READ,
            (api, c) -> api.read(c, s -> JobQueries.savepoints(s, c.jobId())),
            "the savepoints the job keeps, newest first, and its restore point", "none",
            Shape.read(SavepointViews.Savepoints.class)),
    DISPOSE("POST", "/jobs/{jobId}/savepoints/dispose", Access.JOB_CHANGE, QueryApi::dispose,
            "dispose of one of the job's savepoints", "`POST /savepoint-disposal`",
            Shape.change(BodyTypes.DISPOSE, ApiViews.Triggered.class)),
    CHECKPOINT("GET", "/jobs/{jobId}/checkpoints/{checkpointId}", Access.JOB_READ, QueryApi::checkpoint,
            "one checkpoint: per-subtask figures, subtasks not yet acknowledged",
            "`GET /jobs/:jobid/checkpoints/details/:checkpointid` (served too)",
            Shape.read(ApiViews.CheckpointDetail.class)),
    /** Flink's path of {@link #CHECKPOINT}, named in that route's row of the docs rather than a row of its own. */
    CHECKPOINT_DETAILS("GET", "/jobs/{jobId}/checkpoints/details/{checkpointId}", Access.JOB_READ,
            QueryApi::checkpoint, null, null, null, Shape.read(ApiViews.CheckpointDetail.class)),
    LATEST_COMPLETED("GET", "/jobs/{jobId}/checkpoints/latest-completed", Access.JOB_READ,
            (api, c) -> api.read(c, s -> JobQueries.latestCompleted(s, c.jobId())),
            "what to restore from", "none: `latest.completed` of `GET /jobs/:jobid/checkpoints`",
            Shape.read(ApiViews.Restore.class)),
    CONFIG("GET", "/jobs/{jobId}/checkpoints/config", Access.JOB_READ,
            (api, c) -> api.read(c, s -> JobQueries.config(s, c.jobId())),
            "the checkpoint configuration, Flink's `CheckpointConfigInfo` names",
            "`GET /jobs/:jobid/checkpoints/config`", Shape.read(ApiViews.Config.class)),
    SAVEPOINT_STATUS("GET", "/jobs/{jobId}/savepoints/{requestId}", Access.JOB_READ,
            (api, c) -> api.requestStatus(c, true), "what became of a request: Flink's `SavepointInfo`",
            "`GET /jobs/:jobid/savepoints/:triggerid`", Shape.read(ApiViews.Operation.class)),
    CHECKPOINT_STATUS("GET", "/jobs/{jobId}/checkpoints/{requestId}", Access.JOB_READ,
            (api, c) -> api.requestStatus(c, false), "the same, as Flink's `CheckpointInfo`",
            "`GET /jobs/:jobid/checkpoints/:triggerid`", Shape.read(ApiViews.Operation.class)),
    HEALTH("GET", "/health", Access.PROBE, (api, c) -> api.health(false), "liveness of this instance", "none",
            "Health and readiness", Shape.read(ApiViews.Health.class)),
    READY("GET", "/ready", Access.PROBE, (api, c) -> api.health(true), "readiness of this instance", "none",
            "Health and readiness", Shape.read(ApiViews.Health.class)),
    OPENAPI("GET", "/openapi.json", Access.ANYONE, (api, c) -> api.openApi(),
            "this API as an OpenAPI 3 document, generated from this table", "none", "The OpenAPI document",
            Shape.text(Shape.JSON)),
    METRICS("GET", "/metrics", Access.PROBE, null, "Prometheus' text format ([monitoring.md](monitoring.md#metrics))",
            "none: Flink's Prometheus reporter has its own port", null, Shape.text("text/plain")),
    WEB_PAGE("GET", "/", Access.ANYONE, null, "the web page ([monitoring.md](monitoring.md#the-web-page))",
            "Flink's web UI", null, Shape.text("text/html"));

    /** Who may call a route. */
    public enum Access {
        /** Anyone, on the API's port and on the probes port. */
        PROBE,
        /** Anyone, on the API's port. */
        ANYONE,
        /** Anyone when reads are open; else a known token, and the answer lists only the jobs its scope covers. */
        LISTING,
        /** Anyone when reads are open; else a token whose scope covers the job. */
        JOB_READ,
        /** A token whose scope covers the job; nobody without a tokens file. */
        JOB_CHANGE;

        /** What a call of {@code method} on a path below a job that no route serves is checked as. */
        static Access ofUnrouted(String method) {
            return method.equals("GET") || method.equals("HEAD") ? JOB_READ : JOB_CHANGE;
        }
    }

    /** What {@link QueryApi} does on a route. */
    @FunctionalInterface
    interface Handler {
        HttpAnswer answer(QueryApi api, Call call);
    }

    /** A routed request: the path's values by placeholder name, and the caller's principal ({@code null}: open). */
    record Call(ApiRequest request, Map<String, String> values, String principal) {

        String jobId() {
            return values.get("jobId");
        }
    }

    /** The version prefix of Flink's REST API, under which every route is served too. */
    static final String VERSION = "v1";
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+");
    /** The routes the API serves, those with fewer placeholders first, so that a literal segment wins. */
    private static final List<Route> DISPATCH_ORDER = Arrays.stream(values()).filter(r -> r.handler != null)
            .sorted(Comparator.comparingLong(r -> r.segments.stream().filter(Route::placeholder).count())).toList();

    private final String method;
    private final String path;
    private final Access access;
    final Handler handler;
    /** What it answers, in Markdown; {@code null} for a second path of another route. */
    final String summary;
    /** Flink's REST path of the same, in Markdown, or what Flink has instead. */
    final String flink;
    /** The heading of docs/rest.md that describes it; {@code null} when none does. */
    final String section;
    private final List<String> segments;
    /** What it takes and answers. */
    final Shape shape;

    Route(String method, String path, Access access, Handler handler, String summary, String flink, Shape shape) {
        this(method, path, access, handler, summary, flink, method + " " + path, shape);
    }

    Route(String method, String path, Access access, Handler handler, String summary, String flink, String section,
            Shape shape) {
        this.shape = shape;
        this.method = method;
        this.path = path;
        this.access = access;
        this.handler = handler;
        this.summary = summary;
        this.flink = flink;
        this.section = section;
        this.segments = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }

    public String method() {
        return method;
    }

    /** The path, {@code {name}} for a segment that varies. */
    public String path() {
        return path;
    }

    public Access access() {
        return access;
    }

    /**
     * The segments of a path with Flink's version prefix {@code v1} taken off: every route is also served under
     * {@code /v1}, as Flink serves its API (and its REST client sends every request there).
     */
    static List<String> unversioned(List<String> segments) {
        return !segments.isEmpty() && segments.get(0).equals(VERSION) ? segments.subList(1, segments.size())
                : segments;
    }

    /**
     * The route the API serves for {@code method} whose path fits {@code segments} best; when none serves the
     * method there, the best fit whatever its method (answered 405); {@code null}: no path fits. So a literal segment
     * ({@code /savepoints/dispose}) takes only its own method, and a GET of the same path is a request id's status.
     */
    static Route find(List<String> segments, String method) {
        Route anyMethod = null;
        for (boolean numbersOnly : new boolean[] {true, false}) {
            for (Route route : DISPATCH_ORDER) {
                if (route.fits(segments, numbersOnly)) {
                    if (route.method.equals(method)) {
                        return route;
                    }
                    anyMethod = anyMethod == null ? route : anyMethod;
                }
            }
        }
        return anyMethod;
    }

    /** The route of the same path for {@code method}; {@code null} when the API serves none. */
    Route forMethod(String method) {
        return DISPATCH_ORDER.stream().filter(r -> r.path.equals(path) && r.method.equals(method)).findFirst()
                .orElse(null);
    }

    /** The methods the API serves on this route's path, for an {@code Allow} header. */
    String allowed() {
        return DISPATCH_ORDER.stream().filter(r -> r.path.equals(path)).map(r -> r.method).sorted()
                .collect(Collectors.joining(", "));
    }

    /** The values of {@code segments}, which fit this route's path, by placeholder name. */
    Map<String, String> values(List<String> segments) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < this.segments.size(); i++) {
            String pattern = this.segments.get(i);
            if (placeholder(pattern)) {
                values.put(pattern.substring(1, pattern.length() - 1), segments.get(i));
            }
        }
        return values;
    }

    /** Every route, {@code METHOD path}, for the answer to a path nobody serves. */
    static String listing() {
        return Arrays.stream(values()).map(r -> r.method + " " + r.path).collect(Collectors.joining(", "));
    }

    private boolean fits(List<String> path, boolean numbersOnly) {
        if (path.size() != segments.size()) {
            return false;
        }
        for (int i = 0; i < segments.size(); i++) {
            String pattern = segments.get(i);
            boolean fits = placeholder(pattern) ? !(numbersOnly && pattern.equals("{checkpointId}"))
                    || NUMBER.matcher(path.get(i)).matches() : pattern.equals(path.get(i));
            if (!fits) {
                return false;
            }
        }
        return true;
    }

    private static boolean placeholder(String segment) {
        return segment.startsWith("{");
    }
}
