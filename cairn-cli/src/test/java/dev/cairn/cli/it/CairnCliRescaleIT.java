package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.OperatorStateMode;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.keygroups.KeyGroupRanges;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code cairn rescale} against the real broker and a real coordinator, as a Flink user rescales with the Kubernetes
 * operator: a RUNNING job stops with a savepoint and runs again from it with the new parallelism, a stopped job takes
 * it at once from its restore point, and a rescale the coordinator refuses exits 1 with its reason; and the same
 * through {@code POST /jobs/{jobId}/rescaling}, whose outcome is read under its request id. Each subtask's
 * state declares how it is redistributed (the count's by key group, the source's as a union), as a worker's does.
 */
@ExtendWith(KafkaClusterExtension.class)
class CairnCliRescaleIT {

    private static final int MAX_PARALLELISM = 128;

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldStopARunningJobWithASavepointAndRunItAgainFromItWithTheNewParallelism() {
        String job = runningJob("cli-rescale-running-");

        CompletableFuture<CliRun> rescaling = CompletableFuture.supplyAsync(() -> cli("rescale", "--job", job,
                "--parallelism", "count=3", "--request-id", job + "-r1", "--target", base(job) + "/rescale-1"));
        CheckpointTriggered stop = cairn.awaitControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && (job + "-r1").equals(t.getRequestId()));
        ackDeclared(job, stop.getCheckpointId(), 2);
        CliRun rescaled = rescaling.join();

        assertThat(rescaled.exit()).as(rescaled.err()).isZero();
        assertThat(rescaled.out()).contains("Sent RescaleJob of job '" + job + "'")
                .contains("a rescale of the job to count x3 (if it is RUNNING, it stops with a savepoint to "
                        + base(job) + "/rescale-1 first), resuming in NO_CLAIM mode.")
                .contains("Rescaled: job '" + job + "' is RUNNING again with count x3, from checkpoint "
                        + stop.getCheckpointId() + " (NO_CLAIM), its restore point; start the workers of the new "
                        + "parallelism now.");
        JobRestored restored = cairn.awaitJournal(JobRestored.class, r -> r.getJobId().equals(job));
        assertThat(restored.getRequestId()).isEqualTo(job + "-r1");
        assertThat(restored.getRestorePoint().getCheckpointId()).isEqualTo(stop.getCheckpointId());
        assertThat(restored.getRestorePoint().getStorageLocation()).startsWith(base(job) + "/rescale-1");
        assertThat(cairn.awaitJournal(JobSpec.class, s -> s.getJobId().equals(job)
                && s.getTasks().stream().anyMatch(t -> t.getParallelism() == 3)).getTasks())
                .extracting(TaskVertex::getTaskId, TaskVertex::getParallelism, TaskVertex::getMaxParallelism)
                .containsExactly(tuple("source", 1, MAX_PARALLELISM), tuple("count", 3, MAX_PARALLELISM));
        JsonNode view = cairn.rest().awaitJson("/jobs/" + job, v -> v.get("tasks").get(1).get("parallelism").asInt()
                == 3);
        assertThat(view.get("state").asText()).isEqualTo("RUNNING");
    }

    @Test
    void shouldRescaleAStoppedJobAtOnceFromItsRestorePoint() {
        String job = stoppedJob("cli-rescale-stopped-");
        long savepoint = cairn.awaitControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && (job + "-stop").equals(t.getRequestId())).getCheckpointId();

        CliRun rescaled = cli("rescale", "--job", job, "--parallelism", "count=1", "--restore-mode", "claim");

        assertThat(rescaled.exit()).as(rescaled.err()).isZero();
        assertThat(rescaled.out()).contains("Rescaled: job '" + job + "' is RUNNING again with count x1, from "
                + "checkpoint " + savepoint + " (CLAIM), its restore point; start the workers of the new parallelism "
                + "now.");
        assertThat(cairn.rest().awaitJson("/jobs/" + job, v -> v.get("tasks").get(1).get("parallelism").asInt() == 1)
                .get("state").asText()).isEqualTo("RUNNING");
    }

    @Test
    void shouldRescaleAStoppedJobThroughTheRestApiAndAnswerItsOutcomeUnderTheRequestId() {
        String job = stoppedJob("rest-rescale-stopped-");

        HttpResponse<String> refused = cairn.rest().post("/jobs/" + job + "/rescaling",
                "{\"parallelism\":{\"count\":129}}");
        HttpResponse<String> accepted = cairn.rest().post("/jobs/" + job + "/rescaling",
                "{\"parallelism\":{\"count\":3},\"requestId\":\"" + job + "-rest\"}");

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(RestClient.error(refused)).contains("parallelism.count must be at most 128, the task's max "
                + "parallelism");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(RestClient.json(accepted).get("request-id").asText()).isEqualTo(job + "-rest");
        JsonNode outcome = cairn.rest().awaitJson("/jobs/" + job + "/savepoints/" + job + "-rest",
                v -> v.get("stage").asText().equals("COMPLETED"));
        assertThat(outcome.get("checkpoint_id").asLong()).isPositive();
        assertThat(cairn.rest().awaitJson("/jobs/" + job, v -> v.get("tasks").get(1).get("parallelism").asInt() == 3)
                .get("state").asText()).isEqualTo("RUNNING");
    }

    @Test
    void shouldExitOneWithTheCoordinatorsReasonWhenTheJobHasNoSuchTaskOrTheParallelismIsAboveTheMax() {
        String job = runningJob("cli-rescale-refused-");

        CliRun unknown = cli("rescale", "--job", job, "--parallelism", "map=2");
        CliRun tooMany = cli("rescale", "--job", job, "--parallelism", "count=129");

        assertThat(unknown.exit()).as(unknown.out()).isEqualTo(1);
        assertThat(unknown.err()).contains("cairn rescale: the coordinator refused the request: job " + job
                + " has no task map (its tasks: count, source)");
        assertThat(tooMany.exit()).as(tooMany.out()).isEqualTo(1);
        assertThat(tooMany.err()).contains("task count can run with a parallelism from 1 to its max parallelism 128, "
                + "not 129");
        assertThat(cairn.rest().awaitJson("/jobs/" + job, v -> true).get("tasks").get(1).get("parallelism").asInt())
                .as("the job keeps its parallelism").isEqualTo(2);
    }

    /** A job of source x1 and count x2, registered through the CLI, every subtask started. */
    private static String runningJob(String prefix) {
        String job = prefix + UUID.randomUUID();
        CliRun registered = cli("register", "--job", job, "--task", "source:1", "--task", "count:2", "--interval-ms",
                "600000", "--timeout-ms", "60000", "--storage", base(job));
        assertThat(registered.exit()).as(registered.err()).isZero();
        cairn.awaitJournal(JobSpec.class, s -> s.getJobId().equals(job));
        cairn.startTask(job, "source", 0, attempt("source", 0));
        cairn.startTask(job, "count", 0, attempt("count", 0));
        cairn.startTask(job, "count", 1, attempt("count", 1));
        return job;
    }

    /**
     * A running job stopped with a savepoint (request id {@code <job>-stop}): FINISHED, the savepoint its restore
     * point.
     */
    private static String stoppedJob(String prefix) {
        String job = runningJob(prefix);
        CliRun stopping = cli("stop", "--job", job, "--request-id", job + "-stop", "--detached");
        assertThat(stopping.exit()).as(stopping.err()).isZero();
        CheckpointTriggered stop = cairn.awaitControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && (job + "-stop").equals(t.getRequestId()));
        ackDeclared(job, stop.getCheckpointId(), 2);
        cairn.awaitJournal(RequestOutcome.class, o -> (job + "-stop").equals(o.getRequestId())
                && o.getStatus() == RequestStatus.COMPLETED);
        assertThat(cairn.awaitJournal(JobStatusChange.class, c -> c.getJobId().equals(job)
                && c.getStatus() != JobStatus.RUNNING).getStatus()).isEqualTo(JobStatus.FINISHED);
        return job;
    }

    /** Acks the checkpoint from every subtask, each state declaring how it is redistributed. */
    private static void ackDeclared(String job, long checkpointId, int countParallelism) {
        cairn.sendAck(job, declared(job, checkpointId, "source", 0, 1));
        for (int subtask = 0; subtask < countParallelism; subtask++) {
            cairn.sendAck(job, declared(job, checkpointId, "count", subtask, countParallelism));
        }
    }

    private static CheckpointAcknowledged declared(String job, long checkpointId, String taskId, int subtask,
            int parallelism) {
        CheckpointAcknowledged ack = Events.ack(job, checkpointId, taskId, subtask, attempt(taskId, subtask)).build();
        if (taskId.equals("count")) {
            ack.getStateHandle().setKeyGroups(KeyGroupRanges.forSubtask(MAX_PARALLELISM, parallelism, subtask));
        } else {
            ack.getStateHandle().setOperatorStateMode(OperatorStateMode.UNION);
        }
        return ack;
    }

    private static String attempt(String taskId, int subtask) {
        return taskId + "-" + subtask;
    }

    private static String base(String job) {
        return "file:///tmp/cairn-cli-rescale-it/" + job;
    }

    /** Runs the CLI against the harness' broker and topics, signing with the harness' requests key. */
    private static CliRun cli(String... args) {
        return CliRun.against(cairn, args);
    }
}
