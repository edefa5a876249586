package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.TriggerRequest;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The REST API of a real coordinator on a real broker, read over HTTP while the test plays the sidecars. */
@ExtendWith(KafkaClusterExtension.class)
class QueryApiIT {

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldAnswerLiveAndReadyOnceTheCoordinatorRuns() throws Exception {
        HttpResponse<String> live = get("/health");
        HttpResponse<String> ready = get("/ready");

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void shouldServeCheckpointStatsAPendingCheckpointAndTheLatestCompletedOne() throws Exception {
        String job = "query-" + UUID.randomUUID();
        startJob(job);
        JsonNode registered = awaitJson("/jobs/" + job, node -> true);
        assertThat(registered.get("state").asText()).isEqualTo("RUNNING");
        assertThat(registered.get("config").get("interval").asLong()).isEqualTo(300);
        assertThat(registered.get("tasks").get(0).get("parallelism").asInt()).isEqualTo(2);

        CheckpointTriggered first = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));
        cairn.ack(job, first.getCheckpointId(), "source", 0, attempt(job, "source", 0));
        cairn.ack(job, first.getCheckpointId(), "source", 1, attempt(job, "source", 1));
        cairn.ack(job, first.getCheckpointId(), "sink", 0, attempt(job, "sink", 0));
        cairn.awaitNextControl(CheckpointCompleted.class, c -> c.getJobId().equals(job)
                && c.getCheckpointId() == first.getCheckpointId());
        CheckpointTriggered second = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));
        cairn.ack(job, second.getCheckpointId(), "source", 0, attempt(job, "source", 0));

        JsonNode pending = awaitJson("/jobs/" + job + "/checkpoints/" + second.getCheckpointId(),
                node -> node.get("num_acknowledged_subtasks").asInt() == 1);
        assertThat(pending.get("status").asText()).isEqualTo("IN_PROGRESS");
        assertThat(pending.get("num_subtasks").asInt()).isEqualTo(3);
        assertThat(pending.get("tasks").get(0).get("subtasks").get(0).get("state_size").asLong()).isEqualTo(1_000);
        assertThat(pending.get("tasks").get(0).get("subtasks").get(0).get("checkpoint").get("async").asLong())
                .isEqualTo(2);
        assertThat(missing(pending)).containsExactly("source/1 " + attempt(job, "source", 1),
                "sink/0 " + attempt(job, "sink", 0));

        JsonNode stats = awaitJson("/jobs/" + job + "/checkpoints", node -> true);
        assertThat(stats.get("counts").get("completed").asLong()).isEqualTo(1);
        assertThat(stats.get("counts").get("in_progress").asLong()).isEqualTo(1);
        assertThat(stats.get("history").get(0).get("id").asLong()).isEqualTo(first.getCheckpointId());
        assertThat(stats.get("history").get(0).get("status").asText()).isEqualTo("COMPLETED");
        assertThat(stats.get("pending").get(0).get("id").asLong()).isEqualTo(second.getCheckpointId());
        assertThat(stats.get("summary").get("completed_in_history").asInt()).isEqualTo(1);
        assertThat(stats.get("summary").get("state_size").get("p99").asLong()).isEqualTo(3_000);
        assertThat(stats.get("latest").get("completed").get("id").asLong()).isEqualTo(first.getCheckpointId());

        JsonNode completed = awaitJson("/jobs/" + job + "/checkpoints/" + first.getCheckpointId(), node -> true);
        assertThat(completed.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(completed.get("missing_subtasks")).isEmpty();
        assertThat(completed.get("tasks").get(0).get("num_acknowledged_subtasks").asInt()).isEqualTo(2);

        JsonNode restore = awaitJson("/jobs/" + job + "/checkpoints/latest-completed", node -> true);
        assertThat(restore.get("id").asLong()).isEqualTo(first.getCheckpointId());
        assertThat(restore.get("external_path").asText()).endsWith("/" + job + "/chk-" + first.getCheckpointId());
        assertThat(restore.get("state_size").asLong()).isEqualTo(3_000);
        assertThat(restore.get("subtask_states")).hasSize(3);
    }

    @Test
    void shouldProduceTheTriggerRequestOfAPostedSavepoint() throws Exception {
        String job = "savepoint-" + UUID.randomUUID();
        startJob(job);
        awaitJson("/jobs/" + job, node -> true);
        String requestId = "sp-" + UUID.randomUUID();

        HttpResponse<String> response = post("/jobs/" + job + "/checkpoints", "{\"type\": \"SAVEPOINT\", "
                + "\"targetLocation\": \"file:///savepoints/" + job + "\", \"requestId\": \"" + requestId + "\"}");

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(Json.MAPPER.readTree(response.body()).get("request-id").asText()).isEqualTo(requestId);
        TriggerRequest request = cairn.awaitNextJournal(TriggerRequest.class, r -> requestId.equals(r.getRequestId()));
        assertThat(request.getJobId()).isEqualTo(job);
        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getTargetLocation()).isEqualTo("file:///savepoints/" + job);
        assertThat(request.getRequester()).isEqualTo("rest");
    }

    @Test
    void shouldReportAPostedSavepointInProgressThenCompletedWithItsLocation() throws Exception {
        String job = "savepoint-status-" + UUID.randomUUID();
        startJob(job);
        awaitJson("/jobs/" + job, node -> true);
        String requestId = "sp-" + UUID.randomUUID();
        String target = "file:///savepoints/" + job;

        HttpResponse<String> response = post("/jobs/" + job + "/savepoints",
                "{\"targetDirectory\": \"" + target + "\", \"triggerId\": \"" + requestId + "\"}");
        assertThat(response.statusCode()).isEqualTo(202);
        CheckpointTriggered savepoint = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && t.getType() == CheckpointType.SAVEPOINT);
        String status = "/jobs/" + job + "/savepoints/" + requestId;
        JsonNode inProgress = awaitJson(status, node -> node.get("stage").asText().equals("TRIGGERED"));
        assertThat(inProgress.get("status").get("id").asText()).isEqualTo("IN_PROGRESS");
        assertThat(inProgress.get("checkpoint_id").asLong()).isEqualTo(savepoint.getCheckpointId());

        cairn.ack(job, savepoint.getCheckpointId(), "source", 0, attempt(job, "source", 0));
        cairn.ack(job, savepoint.getCheckpointId(), "source", 1, attempt(job, "source", 1));
        cairn.ack(job, savepoint.getCheckpointId(), "sink", 0, attempt(job, "sink", 0));
        JsonNode completed = awaitJson(status, node -> node.get("status").get("id").asText().equals("COMPLETED"));

        assertThat(completed.get("operation").get("location").asText()).isEqualTo(target);
        assertThat(completed.get("stage").asText()).isEqualTo("COMPLETED");
        assertThat(completed.get("checkpoint_type").asText()).isEqualTo("SAVEPOINT");
    }

    @Test
    void shouldAnswerBadRequestsWithJsonErrorsAndKeepServing() throws Exception {
        String job = "errors-" + UUID.randomUUID();
        startJob(job);
        awaitJson("/jobs/" + job, node -> true);

        HttpResponse<String> unknownJob = get("/jobs/no-such-job/checkpoints");
        HttpResponse<String> malformed = post("/jobs/" + job + "/checkpoints", "{\"type\": \"CHECKPOINT\",");
        HttpResponse<String> unknownField = post("/jobs/" + job + "/checkpoints", "{\"priority\": 1}");
        HttpResponse<String> triggerUnknownJob = post("/jobs/no-such-job/checkpoints", "{}");

        assertThat(unknownJob.statusCode()).isEqualTo(404);
        assertThat(error(unknownJob)).isEqualTo("job 'no-such-job' does not exist (never registered)");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(error(malformed)).startsWith("malformed JSON at line 1");
        assertThat(unknownField.statusCode()).isEqualTo(400);
        assertThat(error(unknownField)).startsWith("unknown field 'priority'");
        assertThat(triggerUnknownJob.statusCode()).isEqualTo(404);
        assertThat(get("/jobs/" + job).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldCheckpointAJobRegisteredWithPutAndIgnoreTheSameSpecPutAgain() throws Exception {
        String job = "put-" + UUID.randomUUID();
        String spec = "{\"tasks\": [{\"taskId\": \"source\", \"parallelism\": 1},"
                + " {\"taskId\": \"sink\", \"parallelism\": 1, \"triggered\": false}],"
                + " \"config\": {\"intervalMs\": 300, \"timeoutMs\": 60000, \"tolerableFailures\": 100,"
                + " \"storageBaseLocation\": \"file:///cairn-it\"}}";

        HttpResponse<String> registered = put("/jobs/" + job, spec);

        assertThat(registered.statusCode()).isEqualTo(202);
        assertThat(Json.MAPPER.readTree(registered.body()).get("job-id").asText()).isEqualTo(job);
        JsonNode state = awaitJson("/jobs/" + job, node -> true);
        assertThat(state.get("config").get("interval").asLong()).isEqualTo(300);
        assertThat(state.get("config").get("max_concurrent").asInt()).isEqualTo(1);
        assertThat(state.get("tasks").get(1).get("triggered").asBoolean()).isFalse();
        cairn.startTask(job, "source", 0, attempt(job, "source", 0));
        cairn.startTask(job, "sink", 0, attempt(job, "sink", 0));
        CheckpointTriggered first = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));

        // the same spec again, then a marker behind it on the job's partition: once the marker is journaled,
        // the coordinator has seen the second spec, which must neither replace the spec nor abort the checkpoint
        assertThat(put("/jobs/" + job, spec).statusCode()).isEqualTo(202);
        String marker = "marker-" + UUID.randomUUID();
        assertThat(post("/jobs/" + job + "/checkpoints", "{\"requestId\": \"" + marker + "\"}").statusCode())
                .isEqualTo(202);
        cairn.awaitNextJournal(TriggerRequest.class, r -> marker.equals(r.getRequestId()));
        assertThat(awaitJson("/jobs/" + job, node -> true).get("registered_at").asLong())
                .isEqualTo(state.get("registered_at").asLong());
        cairn.ack(job, first.getCheckpointId(), "source", 0, attempt(job, "source", 0));
        cairn.ack(job, first.getCheckpointId(), "sink", 0, attempt(job, "sink", 0));
        CheckpointCompleted completed = cairn.awaitNextControl(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == first.getCheckpointId());
        assertThat(completed.getCheckpointId()).isEqualTo(first.getCheckpointId());
        JsonNode restore = awaitJson("/jobs/" + job + "/checkpoints/latest-completed", node -> true);
        assertThat(restore.get("external_path").asText()).isEqualTo("file:///cairn-it/" + job + "/chk-"
                + first.getCheckpointId());
    }

    @Test
    void shouldRejectAJobSpecTheCoordinatorWouldRejectAndKeepServing() throws Exception {
        String job = "bad-put-" + UUID.randomUUID();

        HttpResponse<String> rejected = put("/jobs/" + job, "{\"tasks\": [{\"taskId\": \"sink\", "
                + "\"parallelism\": 1, \"acknowledges\": false}], \"config\": {\"intervalMs\": -5, "
                + "\"timeoutMs\": 1000, \"storageBaseLocation\": \"file:///cairn-it\"}}");

        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(error(rejected)).contains("config.intervalMs must be in [1, 31622400000] but is -5")
                .contains("tasks[*].acknowledges is false for every task");
        assertThat(get("/jobs/" + job).statusCode()).isEqualTo(404);
    }

    /** source x2 and sink x1, checkpoint every 300 ms, timeout 60 s: a pending checkpoint stays pending. */
    private static void startJob(String job) {
        cairn.register(Events.jobSpec(job).setTasks(List.of(Events.task("source", 2), Events.task("sink", 1)))
                .setConfig(Events.config(300, 60_000).setTolerableFailures(100).build()).build());
        cairn.startTask(job, "source", 0, attempt(job, "source", 0));
        cairn.startTask(job, "source", 1, attempt(job, "source", 1));
        cairn.startTask(job, "sink", 0, attempt(job, "sink", 0));
    }

    private static String attempt(String job, String task, int subtask) {
        return job + "/" + task + "/" + subtask + "/1";
    }

    private static List<String> missing(JsonNode checkpoint) {
        List<String> missing = new ArrayList<>();
        checkpoint.get("missing_subtasks").forEach(m -> missing.add(m.get("task_id").asText() + "/"
                + m.get("index").asInt() + " " + m.get("attempt_id").asText()));
        return missing;
    }

    private static String error(HttpResponse<String> response) {
        return RestClient.error(response);
    }

    private static JsonNode awaitJson(String path, Predicate<JsonNode> matching) {
        return cairn.rest().awaitJson(path, matching);
    }

    private static HttpResponse<String> get(String path) {
        return cairn.rest().get(path);
    }

    private static HttpResponse<String> post(String path, String body) {
        return cairn.rest().post(path, body);
    }

    private static HttpResponse<String> put(String path, String body) {
        return cairn.rest().put(path, body);
    }
}
