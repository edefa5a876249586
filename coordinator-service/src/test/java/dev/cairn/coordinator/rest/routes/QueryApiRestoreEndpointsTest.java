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
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TriggerRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's savepoints over HTTP: the list with its restore point ({@code GET /jobs/{jobId}/savepoints}), a restore
 * ({@code POST /jobs/{jobId}/restore}, Flink's {@code run -s}) and a disposal ({@code POST
 * /jobs/{jobId}/savepoints/dispose}, Flink's {@code POST /savepoint-disposal}): what a well-formed request
 * publishes, and that a malformed one is told what is wrong and publishes nothing.
 */
class QueryApiRestoreEndpointsTest {

    private static final String JOB = "job-1";

    @TempDir
    Path stateDir;

    private PublishingApi api;
    private CoordinatorDriver cairn;
    private List<RequestEnvelope> published;
    private RestClient client;

    @BeforeEach
    void start() {
        api = PublishingApi.start(stateDir, spec(JOB, task("source", 1)));
        cairn = api.cairn();
        published = api.published();
        client = api.client(TestTokens.OPS);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void shouldListTheStopsSavepointAsTheJobsRestorePoint() {
        cairn.startTask(JOB, "source", 0);
        cairn.send(JOB, new RequestEnvelope(TriggerRequest.newBuilder().setJobId(JOB).setRequestId("stop-1")
                .setType(CheckpointType.SAVEPOINT).setTargetLocation("file:///sp/final").setRequester("test")
                .setTimestampMs(cairn.now()).setPostCheckpointAction(PostCheckpointAction.SUSPEND).build()));
        CheckpointTriggered savepoint = cairn.nextTrigger();
        cairn.ack(JOB, savepoint.getCheckpointId(), "source", 0, 100);

        JsonNode view = json(client.send("GET", "/jobs/" + JOB + "/savepoints", null));

        assertThat(view.get("job_id").asText()).isEqualTo(JOB);
        JsonNode listed = view.get("savepoints").get(0);
        assertThat(listed.get("id").asLong()).isEqualTo(savepoint.getCheckpointId());
        assertThat(listed.get("location").asText()).isEqualTo("file:///sp/final");
        assertThat(listed.get("post_checkpoint_action").asText()).isEqualTo("SUSPEND");
        assertThat(listed.get("stopped_job").asBoolean()).isTrue();
        assertThat(listed.get("restore_point").asBoolean()).isTrue();
        assertThat(listed.get("state_size").asLong()).isEqualTo(100);
        assertThat(listed.get("num_subtasks").asInt()).isEqualTo(1);
        assertThat(view.get("restore_point").get("id").asLong()).isEqualTo(savepoint.getCheckpointId());
        assertThat(view.get("restore_point").get("chosen").asBoolean()).isFalse();
    }

    @Test
    void shouldPublishARestoreAndAnswer202WithItsRequestId() {
        HttpResponse<String> response = client.send("POST", "/jobs/" + JOB + "/restore",
                "{\"checkpointId\":4,\"restoreMode\":\"CLAIM\",\"requestId\":\"restore-1\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(json(response).get("request-id").asText()).isEqualTo("restore-1");
        assertThat(published).singleElement().satisfies(envelope -> {
            RestoreJob restore = (RestoreJob) envelope.getEvent();
            assertThat(restore.getJobId()).isEqualTo(JOB);
            assertThat(restore.getCheckpointId()).isEqualTo(4L);
            assertThat(restore.getRestoreMode()).isEqualTo(RestoreMode.CLAIM);
            assertThat(restore.getRequester()).isEqualTo("rest");
        });
    }

    @Test
    void shouldPublishADisposalOfTheSavepointAtFlinksPath() {
        HttpResponse<String> response = client.send("POST", "/jobs/" + JOB + "/savepoints/dispose",
                "{\"savepoint-path\":\"file:///sp/1\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(published).singleElement().satisfies(envelope -> assertThat(
                ((DisposeSavepoint) envelope.getEvent()).getSavepointPath()).isEqualTo("file:///sp/1"));
    }

    @Test
    void shouldAnswer400AndPublishNothingWhenARestoreBodyIsMalformed() {
        HttpResponse<String> response = client.send("POST", "/jobs/" + JOB + "/restore",
                "{\"restoreMode\":\"claim-it\",\"checkpointId\":-1}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).contains("restoreMode must be one of CLAIM, NO_CLAIM")
                .contains("checkpointId must be a checkpoint id (>= 0), not -1");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer404ForARestoreOfAJobThatDoesNotExist() {
        HttpResponse<String> response = client.send("POST", "/jobs/nobody/restore", "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(published).isEmpty();
    }

    @Test
    void shouldReadTheStatusOfARequestNamedDisposeRatherThanRefuseTheMethod() {
        HttpResponse<String> response = client.send("GET", "/jobs/" + JOB + "/savepoints/dispose", null);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(error(response)).contains("request 'dispose' of job '" + JOB + "' is unknown");
    }

    @Test
    void shouldRefuseARestoreWithoutAMutationToken() {
        HttpResponse<String> response = api.client(null).send("POST",
                "/jobs/" + JOB + "/restore", "{}");

        assertThat(response.statusCode()).isIn(401, 403);
        assertThat(published).isEmpty();
    }
}
