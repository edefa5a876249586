package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP side of the REST API, without a broker: two servers on loopback over the stores of a
 * TopologyTestDriver, with the location of the job's state set by the test.
 */
class QueryApiTest {

    private static final String JOB = "job-1";

    @TempDir
    Path stateDir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<TriggerRequest> published = new CopyOnWriteArrayList<>();
    private final List<JobSpec> registered = new CopyOnWriteArrayList<>();
    private final List<String> keys = new CopyOnWriteArrayList<>();
    private CoordinatorDriver cairn;
    private Source sourceA;
    private Source sourceB;
    private QueryServer a;
    private QueryServer b;
    private long pendingId;

    @BeforeEach
    void startTwoServersOverOneJob() {
        cairn = CoordinatorDriver.start(stateDir);
        cairn.register(spec(JOB, task("source", 2)));
        cairn.startTask(JOB, "source", 0);
        cairn.startTask(JOB, "source", 1);
        CheckpointTriggered triggered = cairn.nextTrigger();
        cairn.ack(JOB, triggered.getCheckpointId(), "source", 1, 100);
        pendingId = triggered.getCheckpointId();
        a = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        b = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        sourceA = new Source(new JobLocation.Local(0));
        sourceB = new Source(new JobLocation.Local(0));
        a.start(sourceA, new AlwaysUp(), this::publish, InputLimits.DEFAULTS, UnaryOperator.identity());
        b.start(sourceB, new AlwaysUp(), this::publish, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        a.close();
        b.close();
        cairn.close();
    }

    @Test
    void shouldAnswerTheJobAndItsCheckpointsAsJson() throws Exception {
        HttpResponse<String> job = get(a, "/jobs/" + JOB);
        assertThat(job.statusCode()).isEqualTo(200);
        assertThat(job.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(job.headers().firstValue("X-Cairn-Served-By")).hasValue(a.applicationServer());
        assertThat(json(job).get("jid").asText()).isEqualTo(JOB);

        JsonNode stats = json(get(a, "/jobs/" + JOB + "/checkpoints"));
        assertThat(stats.get("counts").get("in_progress").asInt()).isEqualTo(1);

        JsonNode pending = json(get(a, "/jobs/" + JOB + "/checkpoints/" + pendingId));
        assertThat(pending.get("status").asText()).isEqualTo("IN_PROGRESS");
        assertThat(pending.get("missing_subtasks").get(0).get("index").asInt()).isZero();
        assertThat(json(get(a, "/jobs/" + JOB + "/checkpoints/details/" + pendingId))).isEqualTo(pending);
    }

    @Test
    void shouldAnswer404WithAJsonErrorForAnUnknownJob() throws Exception {
        HttpResponse<String> response = get(a, "/jobs/nobody/checkpoints");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response).get("error").asText()).isEqualTo("job 'nobody' does not exist (never registered)");
    }

    @Test
    void shouldAnswer503WithRetryAfterWhileNoInstanceOwnsTheJob() throws Exception {
        sourceA.location = new JobLocation.Unavailable("rebalancing");

        HttpResponse<String> response = get(a, "/jobs/" + JOB);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(json(response).get("error").asText())
                .isEqualTo("the state of job 'job-1' is not queryable right now: rebalancing");
    }

    @Test
    void shouldAnswer503WhenTheStoresMoveAwayDuringTheQuery() throws Exception {
        sourceA.brokenStores = true;

        HttpResponse<String> response = get(a, "/jobs/" + JOB);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(json(response).get("error").asText()).contains("not queryable right now").contains("migrated");
    }

    @Test
    void shouldForwardAQueryToTheInstanceThatOwnsTheJob() throws Exception {
        sourceA.location = remote(b);

        HttpResponse<String> response = get(a, "/jobs/" + JOB + "/checkpoints/" + pendingId);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Cairn-Served-By")).hasValue(b.applicationServer());
        assertThat(json(response)).isEqualTo(json(get(b, "/jobs/" + JOB + "/checkpoints/" + pendingId)));
    }

    @Test
    void shouldNotForwardAForwardedQueryAgainWhileTheAssignmentMoves() throws Exception {
        sourceA.location = remote(b);
        sourceB.location = remote(a);

        HttpResponse<String> response = get(a, "/jobs/" + JOB);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(json(response).get("error").asText()).contains("the assignment is moving");
    }

    @Test
    void shouldPublishATriggerRequestAndAnswer202WithItsId() throws Exception {
        HttpResponse<String> response = post(a, "/jobs/" + JOB + "/checkpoints",
                "{\"type\":\"SAVEPOINT\",\"targetLocation\":\"s3://sp\",\"requestId\":\"r-1\"}");

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(json(response).get("request-id").asText()).isEqualTo("r-1");
        assertThat(published).singleElement().satisfies(request -> {
            assertThat(request.getJobId()).isEqualTo(JOB);
            assertThat(request.getRequestId()).isEqualTo("r-1");
            assertThat(request.getTargetLocation()).isEqualTo("s3://sp");
            assertThat(request.getRequester()).isEqualTo("rest");
        });
    }

    @Test
    void shouldGenerateARequestIdWhenTheBodyHasNone() throws Exception {
        HttpResponse<String> response = post(a, "/jobs/" + JOB + "/checkpoints", "");

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(json(response).get("request-id").asText()).isNotBlank()
                .isEqualTo(published.get(0).getRequestId());
    }

    @Test
    void shouldRejectAMalformedBodyAndKeepServing() throws Exception {
        HttpResponse<String> rejected = post(a, "/jobs/" + JOB + "/checkpoints", "{\"type\":\"SAVEPIONT\"}");

        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(json(rejected).get("error").asText())
                .isEqualTo("type must be one of CHECKPOINT, SAVEPOINT, not the string \"SAVEPIONT\"");
        assertThat(published).isEmpty();
        assertThat(get(a, "/jobs/" + JOB).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldNotTriggerACheckpointOfAJobThatDoesNotExist() throws Exception {
        HttpResponse<String> response = post(a, "/jobs/nobody/checkpoints", "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response).get("error").asText()).contains("job 'nobody' does not exist");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAskTheOwnerWhetherTheJobExistsBeforeTriggering() throws Exception {
        sourceA.location = remote(b);

        assertThat(post(a, "/jobs/nobody/checkpoints", "{}").statusCode()).isEqualTo(404);
        assertThat(post(a, "/jobs/" + JOB + "/checkpoints", "{\"requestId\":\"r-2\"}").statusCode()).isEqualTo(202);
        assertThat(published).extracting(TriggerRequest::getRequestId).containsExactly("r-2");
    }

    @Test
    void shouldExplainUnknownEndpointsWrongMethodsAndBadCheckpointIds() throws Exception {
        HttpResponse<String> unknown = get(a, "/overview");
        HttpResponse<String> wrongMethod = post(a, "/jobs/" + JOB, "{}");
        HttpResponse<String> badId = get(a, "/jobs/" + JOB + "/checkpoints/details/latest");

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("error").asText()).startsWith("no endpoint GET /overview; the API serves");
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
        assertThat(json(wrongMethod).get("error").asText())
                .isEqualTo("POST is not allowed here; allowed: DELETE, GET, PATCH, PUT");
        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(json(badId).get("error").asText())
                .isEqualTo("checkpoint id must be a number (or 'latest-completed'), not 'latest'");
    }

    @Test
    void shouldPublishTheJobSpecOfAPutAndAnswer202WithTheJobId() throws Exception {
        HttpResponse<String> response = put(a, "/jobs/new%2Djob",
                "{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":2},"
                + "{\"taskId\":\"sink\",\"parallelism\":1,\"triggered\":false}],"
                + "\"config\":{\"intervalMs\":2000,\"timeoutMs\":10000,\"retained\":3,"
                + "\"storageBaseLocation\":\"file:///tmp/cairn\"}}");

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(json(response).get("job-id").asText()).isEqualTo("new-job");
        assertThat(keys).containsExactly("new-job");
        assertThat(registered).singleElement().satisfies(spec -> {
            assertThat(spec.getJobId()).isEqualTo("new-job");
            assertThat(spec.getTasks()).extracting(TaskVertex::getTaskId, TaskVertex::getParallelism,
                    TaskVertex::getTriggered).containsExactly(tuple("source", 2, true), tuple("sink", 1, false));
            assertThat(spec.getConfig().getRetained()).isEqualTo(3);
            assertThat(spec.getConfig().getMaxConcurrent()).isEqualTo(1);
            assertThat(spec.getTimestampMs()).isPositive();
        });
        assertThat(published).isEmpty();
    }

    @Test
    void shouldRejectAnInvalidJobSpecNamingEveryProblemAndKeepServing() throws Exception {
        HttpResponse<String> rejected = put(a, "/jobs/" + JOB, "{\"tasks\":[{\"taskId\":\"source\","
                + "\"parallelism\":0}],\"config\":{\"intervalMs\":\"2s\",\"timeoutMs\":10000},\"owner\":\"me\"}");
        HttpResponse<String> malformed = put(a, "/jobs/" + JOB, "{\"tasks\": [");

        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(json(rejected).get("error").asText())
                .isEqualTo("config.intervalMs must be a whole number, not the string \"2s\"; "
                + "unknown field 'owner' (known fields: config, masterHooks, participants, tasks); "
                + "config.storageBaseLocation is missing; "
                + "tasks[0].parallelism must be in [1, 32768] but is 0");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(json(malformed).get("error").asText()).startsWith("malformed JSON at line 1");
        assertThat(registered).isEmpty();
        assertThat(get(a, "/jobs/" + JOB).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswer400AndPublishNothingWhenThePutChangesAMaxParallelismTheJobKeepsAPointOf() throws Exception {
        cairn.ack(JOB, pendingId, "source", 0, 100);

        HttpResponse<String> changed = put(a, "/jobs/" + JOB, putBody("{\"taskId\":\"source\",\"parallelism\":2,"
                + "\"maxParallelism\":256}"));
        HttpResponse<String> aboveKept = put(a, "/jobs/" + JOB, putBody("{\"taskId\":\"source\",\"parallelism\":200}"));

        assertThat(changed.statusCode()).isEqualTo(400);
        assertThat(json(changed).get("error").asText()).isEqualTo("tasks[source].maxParallelism: 256 differs from "
                + "128, the max parallelism checkpoint " + pendingId + " (file:///cp/job-1/chk-" + pendingId
                + ") of job job-1 was taken with: its keyed state is split into 128 key groups, which a restore "
                + "cannot change (as in Flink); keep 128, or register the job under a new id");
        assertThat(aboveKept.statusCode()).isEqualTo(400);
        assertThat(json(aboveKept).get("error").asText()).isEqualTo("tasks[0].maxParallelism: parallelism 200 "
                + "exceeds the max parallelism 128 the task keeps from the job's registered spec (a task that leaves "
                + "maxParallelism out keeps it)");
        assertThat(registered).isEmpty();
    }

    @Test
    void shouldPublishAPutThatKeepsTheMaxParallelismOfTheJobsPoints() throws Exception {
        cairn.ack(JOB, pendingId, "source", 0, 100);

        HttpResponse<String> same = put(a, "/jobs/" + JOB, putBody("{\"taskId\":\"source\",\"parallelism\":4,"
                + "\"maxParallelism\":128}"));
        HttpResponse<String> leftOut = put(a, "/jobs/" + JOB, putBody("{\"taskId\":\"source\",\"parallelism\":3}"));

        assertThat(same.statusCode()).as(same.body()).isEqualTo(202);
        assertThat(leftOut.statusCode()).as(leftOut.body()).isEqualTo(202);
        assertThat(registered).extracting(s -> s.getTasks().get(0).getMaxParallelism())
                .as("published as given: the coordinator resolves a max parallelism left out")
                .containsExactly(128, null);
    }

    @Test
    void shouldLeaveAMaxParallelismChangeToTheCoordinatorWhenAnotherInstanceOwnsTheJob() throws Exception {
        cairn.ack(JOB, pendingId, "source", 0, 100);
        sourceA.location = remote(b);
        String body = putBody("{\"taskId\":\"source\",\"parallelism\":2,\"maxParallelism\":256}");

        HttpResponse<String> viaOther = put(a, "/jobs/" + JOB, body);
        HttpResponse<String> viaOwner = put(b, "/jobs/" + JOB, body);

        assertThat(viaOther.statusCode()).as(viaOther.body()).isEqualTo(202);
        assertThat(viaOwner.statusCode()).isEqualTo(400);
        assertThat(registered).singleElement().satisfies(spec -> assertThat(spec.getTasks().get(0)
                .getMaxParallelism()).isEqualTo(256));
    }

    @Test
    void shouldLeaveAMaxParallelismChangeToTheCoordinatorWhenTheStoresCannotBeReadNow() throws Exception {
        cairn.ack(JOB, pendingId, "source", 0, 100);
        sourceA.brokenStores = true;

        HttpResponse<String> response = put(a, "/jobs/" + JOB, putBody("{\"taskId\":\"source\",\"parallelism\":2,"
                + "\"maxParallelism\":256}"));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(registered).hasSize(1);
    }

    @Test
    void shouldAnswer503WhenTheJobSpecCannotBeSent() throws Exception {
        QueryServer failing = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        failing.start(sourceA, new AlwaysUp(), (jobId, request) -> {
            throw ApiException.unavailable("cannot send the request to cairn.requests: broker down");
        }, InputLimits.DEFAULTS, UnaryOperator.identity());
        try {
            HttpResponse<String> response = put(failing, "/jobs/" + JOB, "{\"tasks\":[{\"taskId\":\"s\","
                    + "\"parallelism\":1}],\"config\":{\"intervalMs\":1,\"timeoutMs\":1,"
                    + "\"storageBaseLocation\":\"file:///x\"}}");

            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(json(response).get("error").asText()).contains("broker down");
        } finally {
            failing.close();
        }
    }

    /** A PUT body with one task, {@code task}, and a valid configuration. */
    private static String putBody(String task) {
        return "{\"tasks\":[" + task + "],\"config\":{\"intervalMs\":2000,\"timeoutMs\":10000,"
                + "\"storageBaseLocation\":\"file:///tmp/cairn\"}}";
    }

    /** What the publisher of the servers records, by kind of request. */
    private void publish(String jobId, RequestEnvelope request) {
        keys.add(jobId);
        if (request.getEvent() instanceof TriggerRequest trigger) {
            published.add(trigger);
        } else if (request.getEvent() instanceof JobSpec spec) {
            registered.add(spec);
        } else {
            throw new AssertionError("unexpected request " + request);
        }
    }

    private HttpResponse<String> put(QueryServer server, String path, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(server.uri() + path))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TestTokens.OPS)
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JobLocation.Remote remote(QueryServer server) {
        return new JobLocation.Remote("127.0.0.1", server.port());
    }

    private HttpResponse<String> get(QueryServer server, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(server.uri() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(QueryServer server, String path, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(server.uri() + path))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TestTokens.OPS)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.MAPPER.readTree(response.body());
    }

    /** The driver's stores, at a location the test chooses. */
    private final class Source implements StateSource {

        volatile JobLocation location;
        volatile boolean brokenStores;

        Source(JobLocation location) {
            this.location = location;
        }

        @Override
        public JobLocation locate(String jobId) {
            return location;
        }

        @Override
        public CoordinatorState reader(int partition) {
            if (brokenStores) {
                throw new InvalidStateStoreException("the store migrated to another instance");
            }
            return cairn.reader();
        }

        @Override
        public java.util.List<Integer> localPartitions() {
            return java.util.List.of(0);
        }

        @Override
        public java.util.List<JobLocation.Remote> otherInstances() {
            return java.util.List.of();
        }
    }
}
