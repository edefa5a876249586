package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static dev.cairn.coordinator.testbed.RestClient.error;
import static dev.cairn.coordinator.testbed.RestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.CheckpointTriggered;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink's asynchronous-operation status ({@code GET /jobs/{id}/savepoints/{requestId}},
 * {@code GET /jobs/{id}/checkpoints/{requestId}}) and {@code GET /jobs/{id}/checkpoints/config} over HTTP: what the
 * API publishes for a POST goes into the real topology on a TopologyTestDriver, so each status is what the
 * coordinator made of the request.
 */
class QueryApiRequestStatusTest {

    private static final String JOB = "job-1";

    @TempDir
    Path stateDir;

    private CoordinatorDriver cairn;
    private QueryServer server;
    private final RestClient client = new RestClient(() -> server.uri(), TestTokens.OPS);

    @BeforeEach
    void start() {
        cairn = CoordinatorDriver.start(stateDir);
        cairn.register(spec(JOB, task("source", 1)));
        server = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        server.start(cairn.localSource(), new AlwaysUp(), cairn::send, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        server.close();
        cairn.close();
    }

    @Test
    void shouldAnswerTheCheckpointConfigWithFlinksFieldNames() throws Exception {
        HttpResponse<String> response = send("GET", "/jobs/" + JOB + "/checkpoints/config", null);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode config = json(response);
        assertThat(config.get("mode").asText()).isEqualTo("exactly_once");
        assertThat(config.get("interval").asLong()).isEqualTo(1_000);
        assertThat(config.get("timeout").asLong()).isEqualTo(60_000);
        assertThat(config.get("min_pause").asLong()).isZero();
        assertThat(config.get("max_concurrent").asInt()).isEqualTo(1);
        assertThat(config.get("tolerable_failed_checkpoints").asInt()).isEqualTo(5);
        assertThat(config.get("unaligned_checkpoints").asBoolean()).isFalse();
        assertThat(config.get("aligned_checkpoint_timeout").asLong()).isZero();
        assertThat(config.get("checkpoints_after_tasks_finish").asBoolean()).isTrue();
        assertThat(config.get("retained").asInt()).isEqualTo(2);
        assertThat(config.get("storage_base_location").asText()).isEqualTo("file:///cp");
        assertThat(json(send("GET", "/jobs/" + JOB, null)).get("config")).isEqualTo(config);
    }

    @Test
    void shouldRefuseTheConfigOfAnUnknownJobAndAnyMethodButGet() throws Exception {
        HttpResponse<String> unknown = send("GET", "/jobs/nobody/checkpoints/config", null);
        HttpResponse<String> post = send("POST", "/jobs/" + JOB + "/checkpoints/config", "{}");

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(error(unknown)).isEqualTo("job 'nobody' does not exist (never registered)");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(error(post)).isEqualTo("POST is not allowed here; allowed: GET");
    }

    @Test
    void shouldShowASavepointInProgressThenCompletedWithItsLocation() throws Exception {
        cairn.startTask(JOB, "source", 0);
        HttpResponse<String> triggered = send("POST", "/jobs/" + JOB + "/savepoints",
                "{\"targetDirectory\":\"s3://bucket/sp-1\",\"triggerId\":\"sp-1\"}");
        assertThat(triggered.statusCode()).as(triggered.body()).isEqualTo(202);

        JsonNode inProgress = json(send("GET", "/jobs/" + JOB + "/savepoints/sp-1", null));
        assertThat(inProgress.get("status").get("id").asText()).isEqualTo("IN_PROGRESS");
        assertThat(inProgress.has("operation")).as("Flink gives no operation while in progress").isFalse();
        assertThat(inProgress.get("stage").asText()).isEqualTo("TRIGGERED");
        assertThat(inProgress.get("checkpoint_type").asText()).isEqualTo("SAVEPOINT");
        assertThat(inProgress.get("checkpoint_id").asLong()).isEqualTo(1);

        cairn.ack(JOB, 1, "source", 0, 100);
        HttpResponse<String> done = send("GET", "/jobs/" + JOB + "/savepoints/sp-1", null);

        assertThat(done.statusCode()).isEqualTo(200);
        JsonNode completed = json(done);
        assertThat(completed.get("status").get("id").asText()).isEqualTo("COMPLETED");
        assertThat(completed.get("operation").get("location").asText()).isEqualTo("s3://bucket/sp-1");
        assertThat(completed.get("operation").has("failure-cause")).isFalse();
        assertThat(completed.get("request_id").asText()).isEqualTo("sp-1");
        assertThat(completed.get("stage").asText()).isEqualTo("COMPLETED");
        assertThat(completed.get("failure_reason").isNull()).isTrue();
        JsonNode asCheckpoint = json(send("GET", "/jobs/" + JOB + "/checkpoints/sp-1", null)).get("operation");
        assertThat(asCheckpoint.get("checkpointId").asLong()).as("Flink's CheckpointInfo at /checkpoints/")
                .isEqualTo(1);
    }

    @Test
    void shouldShowAFailedRequestAsCompletedWithItsFailureCauseAndReason() throws Exception {
        send("POST", "/jobs/" + JOB + "/savepoints", "{\"triggerId\":\"sp-f\"}");

        JsonNode failed = json(send("GET", "/jobs/" + JOB + "/savepoints/sp-f", null));

        assertThat(failed.get("status").get("id").asText()).isEqualTo("COMPLETED");
        JsonNode cause = failed.get("operation").get("failure-cause");
        assertThat(cause.get("class").asText()).isEqualTo("CheckpointException");
        assertThat(cause.get("stack-trace").asText()).startsWith("CheckpointException: ")
                .contains("NOT_ALL_REQUIRED_TASKS_RUNNING");
        assertThat(failed.get("operation").has("location")).isFalse();
        assertThat(failed.get("stage").asText()).isEqualTo("FAILED");
        assertThat(failed.get("failure_reason").asText()).isEqualTo("NOT_ALL_REQUIRED_TASKS_RUNNING");
        assertThat(failed.get("failure_message").asText()).isNotBlank();
        assertThat(failed.get("checkpoint_id").isNull()).as("it failed before it was triggered").isTrue();
        JsonNode asCheckpoint = json(send("GET", "/jobs/" + JOB + "/checkpoints/sp-f", null)).get("operation");
        assertThat(asCheckpoint.has("failureCause")).isTrue();
        assertThat(asCheckpoint.has("checkpointId")).isFalse();
    }

    @Test
    void shouldShowARequestWaitingInTheQueueThenTriggered() throws Exception {
        cairn.startTask(JOB, "source", 0);
        CheckpointTriggered periodic = cairn.nextTrigger();
        send("POST", "/jobs/" + JOB + "/checkpoints", "{\"requestId\":\"cp-q\"}");

        JsonNode queued = json(send("GET", "/jobs/" + JOB + "/checkpoints/cp-q", null));
        assertThat(queued.get("status").get("id").asText()).isEqualTo("IN_PROGRESS");
        assertThat(queued.get("stage").asText()).isEqualTo("QUEUED");
        assertThat(queued.get("checkpoint_type").asText()).isEqualTo("CHECKPOINT");
        assertThat(queued.get("checkpoint_id").isNull()).isTrue();

        cairn.ack(JOB, periodic.getCheckpointId(), "source", 0, 10);
        JsonNode running = json(send("GET", "/jobs/" + JOB + "/checkpoints/cp-q", null));

        assertThat(running.get("stage").asText()).isEqualTo("TRIGGERED");
        assertThat(running.get("checkpoint_id").asLong()).isEqualTo(periodic.getCheckpointId() + 1);
    }

    @Test
    void shouldAnswer404ForARequestTheCoordinatorDoesNotKnow() throws Exception {
        HttpResponse<String> unknown = send("GET", "/jobs/" + JOB + "/savepoints/never-sent", null);
        HttpResponse<String> unknownJob = send("GET", "/jobs/nobody/checkpoints/some-request", null);

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(error(unknown)).isEqualTo("request 'never-sent' of job 'job-1' is unknown to the coordinator: "
                + "never sent, not processed yet, or older than the newest requests whose outcomes it keeps for the "
                + "job (0 kept now)");
        assertThat(unknownJob.statusCode()).isEqualTo(404);
        assertThat(error(unknownJob)).isEqualTo("job 'nobody' does not exist (never registered)");
    }

    @Test
    void shouldRefuseMalformedRequestIdsSayingWhatIsWrong() throws Exception {
        HttpResponse<String> tooLong = send("GET", "/jobs/" + JOB + "/savepoints/" + "r".repeat(300), null);
        HttpResponse<String> control = send("GET", "/jobs/" + JOB + "/checkpoints/bad%01id", null);
        HttpResponse<String> post = send("POST", "/jobs/" + JOB + "/savepoints/sp-1", "{}");

        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(error(tooLong)).isEqualTo("request id is 300 characters long, more than the limit of 256, "
                + "so no request has it");
        assertThat(control.statusCode()).as("Jetty refuses it before the API sees it").isEqualTo(400);
        assertThat(control.body()).contains("Suspicious Path Character");
        assertThat(post.statusCode()).isEqualTo(405);
    }

    @Test
    void shouldKeepReadingANumberAfterCheckpointsAsACheckpointId() throws Exception {
        cairn.startTask(JOB, "source", 0);
        CheckpointTriggered periodic = cairn.nextTrigger();

        HttpResponse<String> byId = send("GET", "/jobs/" + JOB + "/checkpoints/" + periodic.getCheckpointId(), null);
        HttpResponse<String> never = send("GET", "/jobs/" + JOB + "/checkpoints/99", null);

        assertThat(byId.statusCode()).isEqualTo(200);
        assertThat(json(byId).get("id").asLong()).isEqualTo(periodic.getCheckpointId());
        assertThat(json(byId).get("status").asText()).isEqualTo("IN_PROGRESS");
        assertThat(never.statusCode()).isEqualTo(404);
        assertThat(error(never)).startsWith("checkpoint 99 of job 'job-1' was never triggered");
    }

    private HttpResponse<String> send(String method, String path, String body) {
        return client.send(method, path, body);
    }
}
