package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The CLI as a Flink user runs {@code flink savepoint}, {@code flink stop}, {@code flink list} against a real
 * coordinator in secured mode, through its REST API ({@code --rest-url}, {@code --token-file}; no Kafka settings or
 * requests key): the savepoint's path when it completes, the abort reason when it fails, the jobs, a job's
 * checkpoint statistics and a request's outcome.
 */
@ExtendWith(KafkaClusterExtension.class)
class CairnCliRestIT {

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldTakeASavepointThroughTheRestApiAndPrintItsPathWhenItCompletes() {
        String job = registered("cli-rest-sp-");
        String requestId = "sp-" + job;
        String target = "file:///tmp/cairn-cli-rest-it/" + job + "/sp-1";

        CompletableFuture<CliRun> savepoint = CompletableFuture.supplyAsync(() -> rest("savepoint", "--job", job,
                "--target", target, "--request-id", requestId));
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && requestId.equals(t.getRequestId()));
        cairn.ack(job, triggered.getCheckpointId(), "source", 0, "source-0");
        CliRun run = savepoint.join();

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Sent TriggerRequest of job '" + job + "' to " + cairn.restUri())
                .contains("request id: " + requestId)
                .contains("Savepoint completed. Path: " + target)
                .contains("checkpoint id: " + triggered.getCheckpointId());
        CliRun request = rest("request", job, requestId);
        assertThat(request.out()).contains("request " + requestId + " of job '" + job + "': COMPLETED")
                .contains("path: " + target);
        CliRun checkpoints = rest("checkpoints", job);
        assertThat(checkpoints.exit()).as(checkpoints.err()).isZero();
        assertThat(checkpoints.out())
                .containsPattern("Job " + job + ": \\d+ triggered, 0 in progress, 1 completed, \\d+ failed")
                .contains("latest savepoint: savepoint " + triggered.getCheckpointId()).contains(target);
        CliRun list = rest("list");
        assertThat(list.out()).as("pending 0, completed 1").containsPattern(job + "\\s+RUNNING\\s+0\\s+\\S+\\s+1\\s");
    }

    @Test
    void shouldExitOneWithTheReasonWhenTheSavepointIsDeclined() {
        String job = registered("cli-rest-declined-");
        String requestId = "sp-" + job;

        CompletableFuture<CliRun> savepoint = CompletableFuture.supplyAsync(() -> rest("savepoint", "--job", job,
                "--request-id", requestId));
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && requestId.equals(t.getRequestId()));
        cairn.decline(job, triggered.getCheckpointId(), "source", 0, "source-0");
        CliRun run = savepoint.join();

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("cairn savepoint: the checkpoint failed: ").contains("(CHECKPOINT_DECLINED");
        assertThat(rest("request", job, requestId).exit()).isEqualTo(1);
    }

    @Test
    void shouldStopDetachedThroughTheRestApiAndAnswerTheOutcomeByRequestId() {
        String job = registered("cli-rest-stop-");
        String requestId = "stop-" + job;

        CliRun stop = rest("stop", "--job", job, "--drain", "--request-id", requestId, "--detached");
        assertThat(stop.exit()).as(stop.err()).isZero();
        assertThat(stop.out()).contains("cairn request " + job + " " + requestId);
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && requestId.equals(t.getRequestId()));
        assertThat(triggered.getOptions().getPostCheckpointAction()).isEqualTo(PostCheckpointAction.TERMINATE);
        cairn.ack(job, triggered.getCheckpointId(), "source", 0, "source-0");
        assertThat(cairn.awaitNextJournal(JobStatusChange.class, c -> c.getJobId().equals(job)).getStatus())
                .isEqualTo(JobStatus.FINISHED);

        Awaitility.await().atMost(CoordinatorTestBed.WAIT).untilAsserted(() -> assertThat(
                rest("request", job, requestId).out()).contains("COMPLETED"));
        assertThat(rest("list").out()).containsPattern(job + "\\s+FINISHED");
    }

    @Test
    void shouldExitOneNamingTheTokenWhenThePostHasNone() {
        CliRun run = CliRun.run("savepoint", "--job", "any", "--rest-url", cairn.restUri().toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("was answered 401").contains("give a bearer token");
    }

    /** A job of one source subtask, registered and started through Kafka; its id. */
    private static String registered(String prefix) {
        String job = prefix + UUID.randomUUID();
        CliRun register = CliRun.against(cairn, "register", "--job", job, "--task", "source:1", "--interval-ms",
                "600000", "--timeout-ms", "60000", "--storage", "file:///tmp/cairn-cli-rest-it");
        assertThat(register.exit()).as(register.err()).isZero();
        cairn.awaitNextJournal(JobSpec.class, s -> s.getJobId().equals(job));
        cairn.startTask(job, "source", 0, "source-0");
        return job;
    }

    /** Runs the CLI against the bed's REST API with its token, and nothing of Kafka. */
    private static CliRun rest(String... args) {
        return CliRun.run(Stream.concat(Stream.of(args), Stream.of("--rest-url", cairn.restUri().toString(),
                "--token-file", tokenFile().toString())).toArray(String[]::new));
    }

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("cairn-cli-rest-it-", ".token");
            file.toFile().deleteOnExit();
            return Files.writeString(file, CoordinatorTestBed.REST_TOKEN + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
