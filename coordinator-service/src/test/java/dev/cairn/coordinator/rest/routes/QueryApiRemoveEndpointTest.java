package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static dev.cairn.coordinator.testbed.RestClient.error;
import static dev.cairn.coordinator.testbed.RestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.testing.Events;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code DELETE /jobs/{jobId}}: a removal is checked as every change of a job is (a token whose scope covers the job),
 * published as a {@code RemoveJob} and answered 202 with its request id; a malformed body or an unknown job publishes
 * nothing. Once the coordinator removed the job, its views answer 404 saying so, and the listing leaves it out.
 */
class QueryApiRemoveEndpointTest {

    private static final String JOB = "job-1";

    @TempDir
    Path stateDir;

    private PublishingApi api;
    private CoordinatorDriver cairn;
    private List<RequestEnvelope> published;
    private RestClient ops;

    @BeforeEach
    void start() {
        api = PublishingApi.start(stateDir, spec(JOB, task("source", 1)), spec("job-2", task("source", 1)));
        cairn = api.cairn();
        published = api.published();
        ops = api.client(TestTokens.OPS);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void shouldPublishARemovalAndAnswer202WithItsRequestId() {
        HttpResponse<String> response = ops.send("DELETE", "/jobs/" + JOB, "{\"requestId\":\"remove-1\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(json(response).get("request-id").asText()).isEqualTo("remove-1");
        assertThat(published).singleElement().satisfies(envelope -> {
            RemoveJob remove = (RemoveJob) envelope.getEvent();
            assertThat(remove.getJobId()).isEqualTo(JOB);
            assertThat(remove.getRequestId()).isEqualTo("remove-1");
            assertThat(remove.getRequester()).isEqualTo("rest");
        });
    }

    @Test
    void shouldMakeUpTheRequestIdOfARemovalWithoutABody() {
        HttpResponse<String> response = ops.send("DELETE", "/jobs/" + JOB, null);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        String requestId = json(response).get("request-id").asText();
        assertThat(requestId).isNotBlank();
        assertThat(((RemoveJob) published.get(0).getEvent()).getRequestId()).isEqualTo(requestId);
    }

    @Test
    void shouldAnswer400AndPublishNothingWhenTheBodyIsMalformed() {
        HttpResponse<String> response = ops.send("DELETE", "/jobs/" + JOB, "{\"requestId\":5,\"force\":true}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).contains("requestId").contains("unknown field 'force'");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer400AndPublishNothingWhenTheRequestIdIsOverItsLimit() {
        HttpResponse<String> response = ops.send("DELETE", "/jobs/" + JOB,
                "{\"requestId\":\"" + "r".repeat(257) + "\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).contains("request id is 257");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer404AndPublishNothingForAJobThatDoesNotExist() {
        HttpResponse<String> response = ops.send("DELETE", "/jobs/nobody", null);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(error(response)).isEqualTo("job 'nobody' does not exist (never registered)");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldRefuseARemovalWithoutATokenThatCoversTheJob() {
        HttpResponse<String> unknown = api.client("not-a-token")
                .send("DELETE", "/jobs/" + JOB, null);
        HttpResponse<String> otherScope = api.client(TestTokens.CI)
                .send("DELETE", "/jobs/" + JOB, null);

        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(otherScope.statusCode()).isEqualTo(403);
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer404NamingTheRemovalForTheViewsOfARemovedJobAndListItNoMore() {
        cairn.send(JOB, new RequestEnvelope(Events.statusChange(JOB, JobStatus.CANCELED)));
        cairn.send(JOB, new RequestEnvelope(RemoveJob.newBuilder().setJobId(JOB).setRequestId("remove-1")
                .setRequester("test").setTimestampMs(cairn.now()).build()));

        HttpResponse<String> job = ops.get("/jobs/" + JOB);
        HttpResponse<String> checkpoints = ops.get("/jobs/" + JOB + "/checkpoints");
        HttpResponse<String> status = ops.get("/jobs/" + JOB + "/savepoints/remove-1");
        HttpResponse<String> again = ops.send("DELETE", "/jobs/" + JOB, null);
        JsonNode listing = json(ops.get("/jobs"));

        assertThat(job.statusCode()).isEqualTo(404);
        assertThat(error(job)).startsWith("job 'job-1' was removed at ").contains("(request remove-1)")
                .contains("registered again it takes checkpoint ids from 1 on; its journal keeps its history");
        assertThat(checkpoints.statusCode()).isEqualTo(404);
        assertThat(status.statusCode()).as("the removal's own request names it").isEqualTo(404);
        assertThat(error(status)).contains("(request remove-1)");
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(listing.get("jobs")).extracting(j -> j.get("id").asText()).containsExactly("job-2");
        assertThat(published).isEmpty();
    }
}
