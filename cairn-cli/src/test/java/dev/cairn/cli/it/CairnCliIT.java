package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskRoles;
import dev.cairn.events.TaskVertex;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * The {@code cairn} CLI against the real broker and a real coordinator: what it sends is what the coordinator acts on.
 */
@ExtendWith(KafkaClusterExtension.class)
class CairnCliIT {

    private static final Pattern REQUEST_ID = Pattern.compile("request id: (\\S+)");

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().create();

    @Test
    void shouldRegisterAJobAndTriggerASavepointThatTheCoordinatorRuns() {
        String job = "cli-" + UUID.randomUUID();

        CliRun register = cli("register", "--job", job, "--task", "source:1", "--task", "map:2", "--task", "sink:1",
                "--task-roles", "sink:ack,notify", "--interval-ms", "60000", "--timeout-ms", "30000",
                "--max-concurrent", "2", "--tolerable-failures", "5", "--storage", "file:///tmp/cairn-cli-it");
        assertThat(register.exit()).as(register.err()).isZero();
        assertThat(register.out()).contains("Sent JobSpec of job '" + job + "' to " + cairn.topics().requests());

        JobSpec accepted = cairn.awaitNextJournal(JobSpec.class, s -> s.getJobId().equals(job));
        assertThat(accepted.getTasks()).extracting(TaskVertex::getTaskId, TaskVertex::getParallelism,
                TaskVertex::getTriggered).containsExactly(
                        tuple("source", 1, true),
                        tuple("map", 2, true),
                        tuple("sink", 1, false));
        CheckpointConfig config = accepted.getConfig();
        assertThat(config.getIntervalMs()).isEqualTo(60_000);
        assertThat(config.getMaxConcurrent()).isEqualTo(2);
        assertThat(config.getTolerableFailures()).isEqualTo(5);

        cairn.startTask(job, "source", 0, "source-0");
        cairn.startTask(job, "map", 0, "map-0");
        cairn.startTask(job, "map", 1, "map-1");
        cairn.startTask(job, "sink", 0, "sink-0");

        CliRun trigger = cli("trigger", "--job", job, "--savepoint", "--target", "file:///tmp/cairn-cli-it/sp-1");
        assertThat(trigger.exit()).as(trigger.err()).isZero();
        String requestId = requestId(trigger.out());

        CheckpointTriggered savepoint = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && t.getType() == CheckpointType.SAVEPOINT);
        assertThat(savepoint.getRequestId()).isEqualTo(requestId);
        assertThat(savepoint.getPeriodic()).isFalse();
        assertThat(savepoint.getStorageLocation()).isEqualTo("file:///tmp/cairn-cli-it/sp-1");
        assertThat(savepoint.getAcksExpected()).as("source, two map subtasks, sink").isEqualTo(4);
        assertThat(savepoint.getRoles()).extracting(TaskRoles::getTaskId, TaskRoles::getTriggered)
                .contains(org.assertj.core.groups.Tuple.tuple("sink", false));
        RequestOutcome outcome = cairn.awaitNextJournal(RequestOutcome.class, o -> requestId.equals(o.getRequestId()));
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.TRIGGERED);
        assertThat(outcome.getCheckpointId()).isEqualTo(savepoint.getCheckpointId());

        CliRun suspend = cli("status", "--job", job, "--status", "SUSPENDED");
        assertThat(suspend.exit()).as(suspend.err()).isZero();
        assertThat(cairn.awaitNextJournal(JobStatusChange.class, c -> c.getJobId().equals(job)).getStatus())
                .isEqualTo(JobStatus.SUSPENDED);
        CheckpointAborted aborted = cairn.awaitNextControl(CheckpointAborted.class,
                a -> a.getJobId().equals(job) && a.getCheckpointId() == savepoint.getCheckpointId());
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND);
    }

    @Test
    void shouldStopAJobWithASavepointThatDrainsItsTasksAndFinishesIt() {
        String job = "cli-stop-" + UUID.randomUUID();
        CliRun register = cli("register", "--job", job, "--task", "source:1", "--interval-ms", "60000",
                "--timeout-ms", "30000", "--storage", "file:///tmp/cairn-cli-it");
        assertThat(register.exit()).as(register.err()).isZero();
        cairn.awaitNextJournal(JobSpec.class, s -> s.getJobId().equals(job));
        cairn.startTask(job, "source", 0, "source-0");

        String requestId = "stop-" + job;
        CompletableFuture<CliRun> stopping = CompletableFuture.supplyAsync(() -> cli("stop", "--job", job, "--drain",
                "--target", "file:///tmp/cairn-cli-it/final", "--request-id", requestId));

        CheckpointTriggered savepoint = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && requestId.equals(t.getRequestId()));
        assertThat(savepoint.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(savepoint.getOptions().getPostCheckpointAction()).isEqualTo(PostCheckpointAction.TERMINATE);
        assertThat(savepoint.getStorageLocation()).isEqualTo("file:///tmp/cairn-cli-it/final");
        cairn.ack(job, savepoint.getCheckpointId(), "source", 0, "source-0");
        CliRun stop = stopping.join();
        assertThat(stop.exit()).as(stop.err()).isZero();
        assertThat(stop.out()).contains("request id: " + requestId)
                .contains("Savepoint completed. Path: file:///tmp/cairn-cli-it/final")
                .contains("checkpoint id: " + savepoint.getCheckpointId())
                .contains("Job '" + job + "' is FINISHED");
        assertThat(cairn.awaitNextJournal(JobStatusChange.class, c -> c.getJobId().equals(job)).getStatus())
                .isEqualTo(JobStatus.FINISHED);
    }

    @Test
    void shouldGiveUpWithinTheSendTimeoutWhenNoBrokerAnswers() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        long started = System.nanoTime();

        CliRun run = CliRun.run("trigger", "--job", "nowhere", "--bootstrap-servers", "127.0.0.1:" + closedPort,
                "--send-timeout-ms", "1500", "--requests-key-file", CliRun.requestsKeyFile(cairn).toString());

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(run.exit()).as(run.out()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
        assertThat(run.err()).contains("cairn trigger: could not send the TriggerRequest of job 'nowhere'")
                .contains("127.0.0.1:" + closedPort).contains("within 1500 ms").contains("--send-timeout-ms")
                .contains("request id: ");
        assertThat(took).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void shouldRefuseToCreateTheRequestsTopicOfAMistypedPrefix(KafkaCluster kafka) throws Exception {
        String prefix = "typo-" + UUID.randomUUID().toString().substring(0, 8) + ".";

        CliRun run = CliRun.run("status", "--job", "orders", "--status", "RUNNING",
                "--bootstrap-servers", kafka.bootstrapServers(), "--topic-prefix", prefix, "--send-timeout-ms", "10000",
                "--requests-key-file", CliRun.requestsKeyFile(cairn).toString());

        assertThat(run.exit()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
        assertThat(run.err()).contains("did not send the JobStatusChange of job 'orders' to " + prefix + "requests")
                .contains("the topic does not exist");
        try (Admin admin = kafka.createAdmin()) {
            assertThat(admin.listTopics().names().get()).doesNotContain(prefix + "requests");
        }
    }

    /** Runs the CLI against the harness' broker and topics, signing with the harness' requests key. */
    private static CliRun cli(String... args) {
        return CliRun.against(cairn, args);
    }

    private static String requestId(String out) {
        Matcher matcher = REQUEST_ID.matcher(out);
        assertThat(matcher.find()).as("a request id in: %s", out).isTrue();
        return matcher.group(1);
    }
}
