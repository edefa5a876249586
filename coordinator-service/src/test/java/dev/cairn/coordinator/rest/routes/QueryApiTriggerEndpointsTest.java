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
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
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
 * Flink's trigger endpoints over HTTP ({@code /stop}, {@code /savepoints}, the options of {@code /checkpoints})
 * and the snapshot settings of a registration: exactly what each well-formed request publishes, and that a
 * malformed one is told what is wrong and publishes nothing.
 */
class QueryApiTriggerEndpointsTest {

    private static final String JOB = "job-1";

    @TempDir
    Path stateDir;

    private final List<RequestEnvelope> published = new CopyOnWriteArrayList<>();
    private CoordinatorDriver cairn;
    private QueryServer server;
    private final RestClient client = new RestClient(() -> server.uri(), TestTokens.OPS);

    @BeforeEach
    void start() {
        cairn = CoordinatorDriver.start(stateDir);
        cairn.register(spec(JOB, task("source", 1)));
        server = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        server.start(cairn.localSource(), new AlwaysUp(), (jobId, request) -> {
            assertThat(jobId).isEqualTo(keyOf(request));
            published.add(request);
        }, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        server.close();
        cairn.close();
    }

    @Test
    void shouldPublishAStopWithSavepointThatDrainsAndAnswer202WithTheTriggerId() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/" + JOB + "/stop", "{\"targetDirectory\":\"s3://sp\","
                + "\"drain\":true,\"formatType\":\"NATIVE\",\"triggerId\":\"stop-1\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(json(response).get("request-id").asText()).isEqualTo("stop-1");
        TriggerRequest request = onlyTrigger();
        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId(JOB).setRequestId("stop-1")
                .setType(CheckpointType.SAVEPOINT).setForce(null).setTargetLocation("s3://sp").setRequester("rest")
                .setTimestampMs(request.getTimestampMs()).setPostCheckpointAction(PostCheckpointAction.TERMINATE)
                .setOptions(RequestedOptions.newBuilder().setSavepointFormat(SavepointFormat.NATIVE).build())
                .build());
    }

    @Test
    void shouldSuspendTheJobWhenAStopWithoutBodyDoesNotDrain() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/" + JOB + "/stop", "");

        assertThat(response.statusCode()).isEqualTo(202);
        TriggerRequest request = onlyTrigger();
        assertThat(request.getRequestId()).isEqualTo(json(response).get("request-id").asText()).isNotBlank();
        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getPostCheckpointAction()).isEqualTo(PostCheckpointAction.SUSPEND);
        assertThat(request.getForce()).isNull();
        assertThat(request.getTargetLocation()).isNull();
        assertThat(request.getOptions()).isNull();
    }

    @Test
    void shouldRejectAMalformedStopNamingTheFieldAndPublishNothing() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/" + JOB + "/stop", "{\"drain\":\"yes\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).isEqualTo("drain must be true or false, not the string \"yes\"");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldNotStopAJobThatDoesNotExist() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/nobody/stop", "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(error(response)).contains("job 'nobody' does not exist");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAllowOnlyPostOnStopAndSavepoints() throws Exception {
        HttpResponse<String> stop = send("GET", "/jobs/" + JOB + "/stop", null);
        HttpResponse<String> savepoints = send("PUT", "/jobs/" + JOB + "/savepoints", "{}");

        assertThat(stop.statusCode()).isEqualTo(405);
        assertThat(error(stop)).isEqualTo("GET is not allowed here; allowed: POST");
        assertThat(savepoints.statusCode()).isEqualTo(405);
        assertThat(published).isEmpty();
    }

    @Test
    void shouldPublishAFlinkSavepointRequest() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/" + JOB + "/savepoints", "{\"targetDirectory\":"
                + "\"s3://sp\",\"formatType\":\"CANONICAL\",\"cancelJob\":false,\"triggerId\":\"sp-1\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        TriggerRequest request = onlyTrigger();
        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId(JOB).setRequestId("sp-1")
                .setType(CheckpointType.SAVEPOINT).setForce(null).setTargetLocation("s3://sp").setRequester("rest")
                .setTimestampMs(request.getTimestampMs()).setPostCheckpointAction(PostCheckpointAction.NONE)
                .setOptions(RequestedOptions.newBuilder().setSavepointFormat(SavepointFormat.CANONICAL).build())
                .build());
    }

    @Test
    void shouldRefuseCancelWithSavepointAndPointToStop() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/" + JOB + "/savepoints", "{\"cancelJob\":true}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).startsWith("cancelJob: true").contains("/stop");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldPublishACheckpointWithFlinksOptionsAndFlinksDefaultForce() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/" + JOB + "/checkpoints", "{\"checkpointType\":"
                + "\"INCREMENTAL\",\"unalignedEnabled\":true,\"alignedTimeoutMs\":500,\"triggerId\":\"c-1\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        TriggerRequest request = onlyTrigger();
        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId(JOB).setRequestId("c-1")
                .setType(CheckpointType.CHECKPOINT).setForce(null).setRequester("rest")
                .setTimestampMs(request.getTimestampMs()).setPostCheckpointAction(PostCheckpointAction.NONE)
                .setOptions(RequestedOptions.newBuilder().setBackupType(BackupType.INCREMENTAL)
                        .setUnalignedEnabled(true).setAlignedTimeoutMs(500L).build())
                .build());
    }

    @Test
    void shouldRejectAFormatTypeOnACheckpointNamingTheFieldAndPublishNothing() throws Exception {
        HttpResponse<String> response = send("POST", "/jobs/" + JOB + "/checkpoints", "{\"formatType\":\"NATIVE\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).startsWith("formatType applies to savepoints only");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldPublishTheSnapshotConfigAndParticipantsOfARegistration() throws Exception {
        HttpResponse<String> response = send("PUT", "/jobs/job-2", "{\"tasks\":[{\"taskId\":\"source\","
                + "\"parallelism\":1}],\"config\":{\"intervalMs\":2000,\"timeoutMs\":10000,"
                + "\"storageBaseLocation\":\"file:///tmp/cairn\",\"exactlyOnce\":true,\"unalignedEnabled\":true,"
                + "\"alignedTimeoutMs\":100,\"backupType\":\"INCREMENTAL\",\"savepointFormat\":\"NATIVE\"},"
                + "\"participants\":[\"offsets-hook\"]}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(published).singleElement().satisfies(envelope -> {
            JobSpec spec = (JobSpec) envelope.getEvent();
            assertThat(spec).isEqualTo(JobSpec.newBuilder().setJobId("job-2")
                    .setTasks(List.of(TaskVertex.newBuilder().setTaskId("source").setParallelism(1).build()))
                    .setConfig(CheckpointConfig.newBuilder().setIntervalMs(2000).setTimeoutMs(10_000)
                            .setStorageBaseLocation("file:///tmp/cairn").setUnalignedEnabled(true)
                            .setAlignedTimeoutMs(100).setBackupType(BackupType.INCREMENTAL)
                            .setSavepointFormat(SavepointFormat.NATIVE).build())
                    .setParticipants(List.of("offsets-hook")).setTimestampMs(spec.getTimestampMs()).build());
        });
    }

    @Test
    void shouldRejectAMalformedRegistrationNamingTheFieldAndPublishNothing() throws Exception {
        HttpResponse<String> response = send("PUT", "/jobs/job-2", "{\"tasks\":[{\"taskId\":\"source\","
                + "\"parallelism\":1}],\"config\":{\"intervalMs\":2000,\"timeoutMs\":10000,"
                + "\"storageBaseLocation\":\"file:///tmp/cairn\",\"backupType\":\"DELTA\"},\"participants\":[\"\"]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response)).isEqualTo("config.backupType must be one of FULL, INCREMENTAL, not the string "
                + "\"DELTA\"; participants[0] is empty");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldShowTheSnapshotConfigAndParticipantsOfTheJob() throws Exception {
        JsonNode job = json(send("GET", "/jobs/" + JOB, null));

        assertThat(job.get("participants").isArray()).isTrue();
        JsonNode config = job.get("config");
        assertThat(config.get("mode").asText()).isEqualTo("exactly_once");
        assertThat(config.get("unaligned_checkpoints").asBoolean()).isFalse();
        assertThat(config.get("aligned_checkpoint_timeout").asLong()).isZero();
        assertThat(config.get("backup_type").asText()).isEqualTo("FULL");
        assertThat(config.get("savepoint_format").asText()).isEqualTo("CANONICAL");
    }

    private TriggerRequest onlyTrigger() {
        assertThat(published).hasSize(1);
        return (TriggerRequest) published.get(0).getEvent();
    }

    private static String keyOf(RequestEnvelope request) {
        return request.getEvent() instanceof TriggerRequest trigger ? trigger.getJobId()
                : ((JobSpec) request.getEvent()).getJobId();
    }

    private HttpResponse<String> send(String method, String path, String body) {
        return client.send(method, path, body);
    }
}
