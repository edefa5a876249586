package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static dev.cairn.coordinator.testbed.RestClient.error;
import static dev.cairn.coordinator.testbed.RestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.TaskVertex;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /jobs/{jobId}/rescaling} over HTTP, on two servers over one job's stores: what a well-formed rescale
 * publishes, and that a malformed one, one of a job that does not exist and one that does not fit the job's tasks
 * are told what is wrong and publish nothing, whichever instance receives them.
 */
class QueryApiRescalingEndpointTest {

    private static final String JOB = "job-1";

    @TempDir
    Path stateDir;

    private final List<RequestEnvelope> published = new CopyOnWriteArrayList<>();
    private CoordinatorDriver cairn;
    private QueryServer owner;
    private QueryServer other;
    private final RestClient client = new RestClient(() -> owner.uri(), TestTokens.OPS);
    private final RestClient viaOther = new RestClient(() -> other.uri(), TestTokens.OPS);

    @BeforeEach
    void start() {
        cairn = CoordinatorDriver.start(stateDir);
        cairn.register(spec(JOB, task("source", 1), TaskVertex.newBuilder(task("count", 2)).setMaxParallelism(4)
                .build(), task("sink", 1)));
        owner = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        other = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        owner.start(new Stores(new JobLocation.Local(0)), new AlwaysUp(), (jobId, request) -> published.add(request),
                InputLimits.DEFAULTS, UnaryOperator.identity());
        other.start(new Stores(new JobLocation.Remote("127.0.0.1", owner.port())), new AlwaysUp(),
                (jobId, request) -> published.add(request), InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        other.close();
        owner.close();
        cairn.close();
    }

    @Test
    void shouldPublishARescaleAndAnswer202WithItsRequestId() {
        HttpResponse<String> response = client.send("POST", "/jobs/" + JOB + "/rescaling",
                "{\"parallelism\":{\"count\":3,\"sink\":2},\"target-directory\":\"s3://bucket/sp\","
                        + "\"restoreMode\":\"CLAIM\",\"requestId\":\"rescale-1\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(json(response).get("request-id").asText()).isEqualTo("rescale-1");
        assertThat(published).singleElement().satisfies(envelope -> {
            RescaleJob rescale = (RescaleJob) envelope.getEvent();
            assertThat(rescale.getJobId()).isEqualTo(JOB);
            assertThat(rescale.getTasks()).extracting(TaskRescale::getTaskId, TaskRescale::getParallelism)
                    .containsExactly(tuple("count", 3), tuple("sink", 2));
            assertThat(rescale.getTargetLocation()).isEqualTo("s3://bucket/sp");
            assertThat(rescale.getRestoreMode()).isEqualTo(RestoreMode.CLAIM);
            assertThat(rescale.getRequester()).isEqualTo("rest");
        });
    }

    @Test
    void shouldAnswer404ForARescaleOfAJobThatDoesNotExist() {
        HttpResponse<String> response = client.send("POST", "/jobs/nobody/rescaling", "{\"parallelism\":{\"a\":2}}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(error(response)).isEqualTo("job 'nobody' does not exist (never registered)");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer400AndPublishNothingWhenTheBodyIsMalformed() {
        HttpResponse<String> response = client.send("POST", "/jobs/" + JOB + "/rescaling",
                "{\"parallelism\":{\"count\":0,\"sink\":\"x\"},\"restoreMode\":\"LEGACY\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).contains("parallelism.count must be a whole number from 1 to 32768, not 0")
                .contains("parallelism.sink must be a whole number, not the string \"x\"")
                .contains("restoreMode must be one of CLAIM, NO_CLAIM");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer400AndPublishNothingWhenTheJobHasNoSuchTaskOrItsMaxParallelismIsLower() {
        HttpResponse<String> unknown = client.send("POST", "/jobs/" + JOB + "/rescaling",
                "{\"parallelism\":{\"map\":2}}");
        HttpResponse<String> tooMany = client.send("POST", "/jobs/" + JOB + "/rescaling",
                "{\"parallelism\":{\"count\":5,\"source\":129}}");

        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(error(unknown)).isEqualTo("parallelism.map: job 'job-1' has no task 'map' (its tasks: source, "
                + "count, sink)");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(error(tooMany)).contains("parallelism.count must be at most 4, the task's max parallelism")
                .contains("parallelism.source must be at most 128, the task's max parallelism");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAskTheOwnerForTheJobsTasksWhenAnotherInstanceReceivesTheRescale() {
        HttpResponse<String> unknownJob = viaOther.send("POST", "/jobs/nobody/rescaling",
                "{\"parallelism\":{\"count\":2}}");
        HttpResponse<String> unknownTask = viaOther.send("POST", "/jobs/" + JOB + "/rescaling",
                "{\"parallelism\":{\"map\":2}}");
        HttpResponse<String> accepted = viaOther.send("POST", "/jobs/" + JOB + "/rescaling",
                "{\"parallelism\":{\"count\":3},\"requestId\":\"via-other\"}");

        assertThat(unknownJob.statusCode()).isEqualTo(404);
        assertThat(unknownTask.statusCode()).isEqualTo(400);
        assertThat(error(unknownTask)).contains("job 'job-1' has no task 'map' (its tasks: source, count, sink)");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(published).extracting(e -> ((RescaleJob) e.getEvent()).getRequestId())
                .containsExactly("via-other");
    }

    @Test
    void shouldRefuseARescaleWithoutAMutationToken() {
        HttpResponse<String> response = new RestClient(() -> owner.uri(), null).send("POST",
                "/jobs/" + JOB + "/rescaling", "{\"parallelism\":{\"count\":3}}");

        assertThat(response.statusCode()).isIn(401, 403);
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer405ForAGetOfTheRescalingPath() {
        HttpResponse<String> response = client.send("GET", "/jobs/" + JOB + "/rescaling", null);

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
    }

    /** The driver's stores, the job at {@code location}. */
    private final class Stores implements StateSource {

        private final JobLocation location;

        Stores(JobLocation location) {
            this.location = location;
        }

        @Override
        public JobLocation locate(String jobId) {
            return location;
        }

        @Override
        public CoordinatorState reader(int partition) {
            return cairn.reader();
        }

        @Override
        public List<Integer> localPartitions() {
            return location instanceof JobLocation.Local ? List.of(0) : List.of();
        }

        @Override
        public List<JobLocation.Remote> otherInstances() {
            return List.of();
        }
    }
}
