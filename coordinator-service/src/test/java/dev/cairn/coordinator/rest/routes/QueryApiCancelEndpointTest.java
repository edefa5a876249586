package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static dev.cairn.coordinator.testbed.RestClient.error;
import static dev.cairn.coordinator.testbed.RestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RequestEnvelope;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Flink's {@code PATCH /jobs/{jobId}?mode=cancel} and the {@code /v1} aliases of every route: what a cancellation
 * publishes, and that a malformed one is told what is wrong and publishes nothing.
 */
class QueryApiCancelEndpointTest {

    private static final String JOB = "job-1";

    @TempDir
    Path stateDir;

    private PublishingApi api;
    private RestClient client;

    @BeforeEach
    void start() {
        api = PublishingApi.start(stateDir, spec(JOB, task("source", 1)));
        client = api.client(TestTokens.OPS);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/jobs/job-1?mode=cancel", "/v1/jobs/job-1?mode=cancel", "/jobs/job-1?mode=CANCEL",
            "/jobs/job-1"})
    void shouldPublishACancellationAndAnswer202WithFlinksEmptyBodyWhenTheModeIsCancel(String path) {
        HttpResponse<String> response = client.send("PATCH", path, "{}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(response.body()).isEqualTo("{}");
        assertThat(api.published()).singleElement().satisfies(envelope -> {
            JobStatusChange change = (JobStatusChange) envelope.getEvent();
            assertThat(change.getJobId()).isEqualTo(JOB);
            assertThat(change.getStatus()).isEqualTo(JobStatus.CANCELED);
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "mode=foo|mode must be cancel (Flink's termination mode), not 'foo'",
            "mode=stop|mode=stop is not supported (Flink removed it too): to stop the job with a savepoint use POST "
                    + "/jobs/{jobId}/stop; to cancel it, mode=cancel",
            "mode=|mode must be cancel (Flink's termination mode), not ''",
            "mode=cancel&mode=cancel|mode is given more than once; give mode=cancel once",
            "force=true|PATCH /jobs/{jobId} takes one query parameter, mode=cancel; unknown parameter 'force'",
            "mode=foo%26bar|mode must be cancel (Flink's termination mode), not 'foo&bar'",
    })
    void shouldRefuseACancellationWhoseQueryIsNotModeCancelAndPublishNothing(String query, String expected) {
        HttpResponse<String> response = client.send("PATCH", "/jobs/" + JOB + "?" + query, null);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).isEqualTo(expected);
        assertThat(api.published()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"drain\":true}", "[]", "not json"})
    void shouldRefuseACancellationWithABodyAndPublishNothing(String body) {
        HttpResponse<String> response = client.send("PATCH", "/jobs/" + JOB + "?mode=cancel", body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).startsWith("PATCH /jobs/{jobId}?mode=cancel takes no body (or {}, Flink's "
                + "empty body), not ");
        assertThat(api.published()).isEmpty();
    }

    @Test
    void shouldAnswer409WhenTheJobAlreadyFinished() {
        api.cairn().send(JOB, new RequestEnvelope(JobStatusChange.newBuilder().setJobId(JOB)
                .setStatus(JobStatus.FINISHED).setTimestampMs(api.cairn().now()).build()));
        assertThat(json(client.get("/jobs/" + JOB)).get("state").asText()).isEqualTo("FINISHED");

        HttpResponse<String> response = client.send("PATCH", "/jobs/" + JOB + "?mode=cancel", null);

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(error(response)).isEqualTo("job 'job-1' is FINISHED already, so it cannot be cancelled");
        assertThat(api.published()).isEmpty();
    }

    @Test
    void shouldAnswer404AndRefuseAnonymousCallersWhenCancellingAJob() {
        HttpResponse<String> unknown = client.send("PATCH", "/jobs/nobody?mode=cancel", null);
        HttpResponse<String> anonymous = api.client(null).send("PATCH", "/v1/jobs/" + JOB + "?mode=cancel", null);

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(api.published()).isEmpty();
    }

    @Test
    void shouldServeEveryRouteUnderV1AsWell() {
        HttpResponse<String> job = client.get("/v1/jobs/" + JOB);
        HttpResponse<String> config = client.get("/v1/jobs/" + JOB + "/checkpoints/config");
        HttpResponse<String> savepoint = client.post("/v1/jobs/" + JOB + "/savepoints", "{\"triggerId\":\"sp-1\"}");
        HttpResponse<String> nowhere = client.get("/v1/v1/jobs");

        assertThat(job.statusCode()).isEqualTo(200);
        assertThat(json(job).get("jid").asText()).isEqualTo(JOB);
        assertThat(config.statusCode()).isEqualTo(200);
        assertThat(savepoint.statusCode()).isEqualTo(202);
        assertThat(json(savepoint).get("request-id").asText()).isEqualTo("sp-1");
        assertThat(nowhere.statusCode()).isEqualTo(404);
    }

    @Test
    void shouldMakeUpRequestIdsOfThirtyTwoHexDigitsAsFlinksTriggerIdsAre() {
        HttpResponse<String> response = client.post("/jobs/" + JOB + "/checkpoints", "");

        assertThat(json(response).get("request-id").asText()).matches("[0-9a-f]{32}");
    }
}
