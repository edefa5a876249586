package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.access.AccessPolicy;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointTriggered;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /jobs} over two instances, each a REST server over the stores of its own TopologyTestDriver: either
 * instance lists the jobs of both.
 */
class JobsOverviewTest {

    @TempDir
    Path dirA;
    @TempDir
    Path dirB;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private CoordinatorDriver cairnA;
    private CoordinatorDriver cairnB;
    private Source sourceA;
    private Source sourceB;
    private QueryServer a;
    private QueryServer b;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    /** Instance A owns {@code jobsOnA}, B owns {@code jobsOnB}; both with {@code access}. */
    private void start(AccessPolicy access, List<String> jobsOnA, List<String> jobsOnB) {
        cairnA = driver(dirA, jobsOnA);
        cairnB = driver(dirB, jobsOnB);
        a = QueryServer.bind(QueryServerConfig.loopback().withAccess(access));
        b = QueryServer.bind(QueryServerConfig.loopback().withAccess(access));
        closing.add(a);
        closing.add(b);
        sourceA = new Source(cairnA, remote(b));
        sourceB = new Source(cairnB, remote(a));
        a.start(sourceA, new AlwaysUp(), (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
        b.start(sourceB, new AlwaysUp(), (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    private CoordinatorDriver driver(Path dir, List<String> jobs) {
        CoordinatorDriver driver = CoordinatorDriver.start(dir);
        closing.add(driver);
        jobs.forEach(job -> driver.register(spec(job, task("source", 1))));
        return driver;
    }

    @Test
    void shouldListTheJobsOfEveryInstanceSortedByIdFromEitherInstance() throws Exception {
        start(TestTokens.mutations(), List.of("d-job", "b-job"), List.of("c-job", "a-job"));

        for (QueryServer server : List.of(a, b)) {
            HttpResponse<String> response = get(server, "/jobs", null);
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode listing = json(response);
            assertThat(ids(listing)).containsExactly("a-job", "b-job", "c-job", "d-job");
            assertThat(listing.get("unreachable")).isEmpty();
            JsonNode first = listing.get("jobs").get(0);
            assertThat(first.get("status").asText()).isEqualTo("RUNNING");
            assertThat(first.get("pending_checkpoints").asInt()).isZero();
            assertThat(first.get("latest_completed_id").isNull()).isTrue();
            assertThat(first.get("counts").get("triggered").asInt()).isZero();
            assertThat(first.get("last_checkpoint").isNull()).isTrue();
        }
    }

    @Test
    void shouldShowTheCountsAndTheNewestEndedCheckpointOfAJob() throws Exception {
        start(TestTokens.mutations(), List.of("busy"), List.of("idle"));
        cairnA.startTask("busy", "source", 0);
        CheckpointTriggered first = cairnA.nextTrigger();
        cairnA.advance(Duration.ofMillis(40));
        cairnA.ack("busy", first.getCheckpointId(), "source", 0, 777);
        CheckpointTriggered second = cairnA.nextTrigger();

        JsonNode busy = json(get(b, "/jobs", null)).get("jobs").get(0);

        assertThat(busy.get("id").asText()).isEqualTo("busy");
        assertThat(busy.get("pending_checkpoints").asInt()).isEqualTo(1);
        assertThat(busy.get("latest_completed_id").asLong()).isEqualTo(first.getCheckpointId());
        assertThat(busy.get("counts").get("triggered").asInt()).isEqualTo(2);
        assertThat(busy.get("counts").get("in_progress").asInt()).isEqualTo(1);
        assertThat(busy.get("counts").get("completed").asInt()).isEqualTo(1);
        assertThat(busy.get("counts").get("failed").asInt()).isZero();
        JsonNode last = busy.get("last_checkpoint");
        assertThat(last.get("id").asLong()).isEqualTo(first.getCheckpointId()).isLessThan(second.getCheckpointId());
        assertThat(last.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(last.get("state_size").asLong()).isEqualTo(777);
        assertThat(last.get("end_to_end_duration").asLong()).isEqualTo(40);
    }

    @Test
    void shouldListOnlyThisInstancesJobsWhenTheScopeIsLocal() throws Exception {
        start(TestTokens.mutations(), List.of("a-job"), List.of("b-job"));

        assertThat(ids(json(get(a, "/jobs?scope=local", null)))).containsExactly("a-job");
        assertThat(ids(json(get(b, "/jobs?scope=local", null)))).containsExactly("b-job");
        assertThat(ids(json(get(b, "/jobs?scope=all", null)))).containsExactly("a-job", "b-job");
    }

    @Test
    void shouldNameAnInstanceThatDoesNotAnswerAndListTheOthers() throws Exception {
        start(TestTokens.mutations(), List.of("a-job"), List.of("b-job"));
        JobLocation.Remote gone;
        try (ServerSocket socket = new ServerSocket(0)) {
            gone = new JobLocation.Remote("127.0.0.1", socket.getLocalPort());
        }
        sourceA.others = List.of(remote(b), gone);

        JsonNode listing = json(get(a, "/jobs", null));

        assertThat(ids(listing)).containsExactly("a-job", "b-job");
        assertThat(listing.get("unreachable")).singleElement().satisfies(entry -> {
            assertThat(entry.get("instance").asText()).isEqualTo(gone.authority());
            assertThat(entry.get("reason").asText()).contains("did not answer");
        });
    }

    @Test
    void shouldNameAPartitionWhoseStoresAreNotQueryable() throws Exception {
        start(TestTokens.mutations(), List.of("a-job"), List.of("b-job"));
        sourceB.brokenStores = true;

        JsonNode listing = json(get(a, "/jobs", null));

        assertThat(ids(listing)).containsExactly("a-job");
        assertThat(listing.get("unreachable")).singleElement().satisfies(entry -> {
            assertThat(entry.get("instance").asText()).isEqualTo(b.applicationServer());
            assertThat(entry.get("reason").asText())
                    .isEqualTo("the stores of partition 0 are not queryable right now: rebalancing");
        });
    }

    @Test
    void shouldListOnlyTheJobsTheTokenCoversWhenReadsNeedAToken() throws Exception {
        start(TestTokens.readsToo(), List.of("ci-1", "prod-1"), List.of("ci-2", "prod-2"));

        HttpResponse<String> anonymous = get(a, "/jobs", null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(json(anonymous).get("error").asText())
                .isEqualTo("this request needs an 'Authorization: Bearer <token>' header");
        assertThat(get(a, "/jobs", "Bearer unknown-token-0123456789").statusCode()).isEqualTo(401);
        assertThat(ids(json(get(a, "/jobs", "Bearer " + TestTokens.CI)))).containsExactly("ci-1", "ci-2");
        assertThat(ids(json(get(b, "/jobs", "Bearer " + TestTokens.OPS))))
                .containsExactly("ci-1", "ci-2", "prod-1", "prod-2");
    }

    @Test
    void shouldAnswer400ForAMalformedQueryParameter() throws Exception {
        start(TestTokens.mutations(), List.of("a-job"), List.of());

        assertThat(error(get(a, "/jobs?scope=everything", null))).isEqualTo("query parameter scope must be 'all' "
                + "or 'local', not 'everything'; GET /jobs takes at most one query parameter, scope=all (default: "
                + "every instance) or scope=local (this instance only)");
        assertThat(error(get(a, "/jobs?scope", null))).startsWith("query parameter scope must be 'all' or 'local', "
                + "not empty");
        assertThat(error(get(a, "/jobs?limit=10", null))).startsWith("unknown query parameter 'limit'");
        assertThat(error(get(a, "/jobs?scope=local&scope=all", null)))
                .startsWith("query parameter 'scope' is given more than once");
        assertThatThrownBy(() -> JobsOverview.localOnly("scope=%zz")).isInstanceOf(ApiException.class)
                .hasMessage("malformed percent-encoding in the query string near '%zz'");
        assertThat(error(get(a, "/jobs?&", null))).startsWith("empty query parameter in '&'");
        assertThat(get(a, "/jobs?scope=loc%61l", null).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswer405WithAnAllowHeaderWhenTheMethodIsNotGet() throws Exception {
        start(TestTokens.mutations(), List.of("a-job"), List.of());

        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(a.uri() + "/jobs"))
                .header("Authorization", "Bearer " + TestTokens.OPS)
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(json(post).get("error").asText()).isEqualTo("POST is not allowed here; allowed: GET");
        assertThat(post.headers().firstValue("Allow")).hasValue("GET");
    }

    private static List<String> ids(JsonNode listing) {
        List<String> ids = new ArrayList<>();
        listing.get("jobs").forEach(job -> ids.add(job.get("id").asText()));
        return ids;
    }

    private static JobLocation.Remote remote(QueryServer server) {
        return new JobLocation.Remote("127.0.0.1", server.port());
    }

    private HttpResponse<String> get(QueryServer server, String path, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.uri() + path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String error(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        return json(response).get("error").asText();
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.MAPPER.readTree(response.body());
    }

    /** One instance: the stores of its driver as partition 0, and the other instances the test names. */
    private static final class Source implements StateSource {

        private final CoordinatorDriver cairn;
        volatile List<JobLocation.Remote> others;
        volatile boolean brokenStores;

        Source(CoordinatorDriver cairn, JobLocation.Remote other) {
            this.cairn = cairn;
            this.others = List.of(other);
        }

        @Override
        public JobLocation locate(String jobId) {
            return new JobLocation.Local(0);
        }

        @Override
        public CoordinatorState reader(int partition) {
            if (brokenStores) {
                throw new InvalidStateStoreException("rebalancing");
            }
            return cairn.reader();
        }

        @Override
        public List<Integer> localPartitions() {
            return List.of(0);
        }

        @Override
        public List<JobLocation.Remote> otherInstances() {
            return others;
        }
    }
}
