package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code cairn remove} against the real broker and a real coordinator (signed requests): a RUNNING job is refused
 * with the coordinator's reason; stopped with a savepoint, it is removed, its views answer 404, and {@code cairn audit}
 * still tells its checkpoints' timelines, names its removal and finds no violation; registered again through the CLI,
 * the job checkpoints with ids above the removed job's.
 */
@ExtendWith(KafkaClusterExtension.class)
class CairnCliRemoveIT {

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldRefuseARunningJobThenRemoveItStoppedAndGoOnAboveItsIdsWhenRegisteredAgain() {
        String job = "cli-remove-" + UUID.randomUUID();
        String attempt = register(job);
        long first = checkpoint(job, "c1", attempt);

        CliRun running = cli("remove", "--job", job);

        assertThat(running.exit()).as(running.out()).isEqualTo(1);
        assertThat(running.err()).contains("cairn remove: the coordinator refused the request: job " + job
                + " is RUNNING");
        assertThat(cairn.rest().get("/jobs/" + job).statusCode()).isEqualTo(200);

        long stop = stop(job, attempt);
        CliRun removed = cli("remove", "--job", job, "--request-id", job + "-rm");

        assertThat(removed.exit()).as(removed.err()).isZero();
        assertThat(removed.out()).contains("Sent RemoveJob of job '" + job + "'")
                .contains("Removed: job '" + job + "' is gone from the coordinator's stores and views")
                .contains("Its checkpoint ids went up to " + stop + "; registered again, it takes ids from "
                        + (stop + 1) + " on.");
        HttpResponse<String> view = cairn.rest().get("/jobs/" + job);
        assertThat(view.statusCode()).isEqualTo(404);
        assertThat(RestClient.error(view)).contains("was removed at").contains("(request " + job + "-rm)");

        CliRun timeline = audit("timeline", "--job", job, "--checkpoint", String.valueOf(first));
        assertThat(timeline.exit()).as(timeline.err()).isZero();
        assertThat(timeline.out()).contains("Checkpoint " + first + " of job " + job + ": COMPLETED");
        CliRun state = audit("state", "--job", job);
        assertThat(state.exit()).isEqualTo(1);
        assertThat(state.err()).contains("job '" + job + "' was removed at").contains("(request " + job + "-rm)")
                .contains("shows the job as it was");
        JobRemoved removal = cairn.awaitJournal(JobRemoved.class, r -> r.getJobId().equals(job));
        assertThat(removal.getNextCheckpointId()).isEqualTo(stop + 1);

        String attemptAgain = register(job);
        long again = checkpoint(job, "c2", attemptAgain);

        assertThat(again).as("above every id the removed job used").isEqualTo(stop + 1);
        CliRun check = audit("check");
        assertThat(check.exit()).as(check.out() + check.err()).isZero();
        assertThat(check.out()).contains("no violation");
    }

    @Test
    void shouldExitOneWhenTheJobDoesNotExist() {
        CliRun unknown = cli("remove", "--job", "cli-remove-nobody-" + UUID.randomUUID());

        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("the coordinator refused the request: unknown job cli-remove-nobody-");
    }

    /** Registers a job of one task through the CLI and starts its subtask; the attempt's id. */
    private static String register(String job) {
        CliRun registered = cli("register", "--job", job, "--task", "source:1", "--interval-ms", "600000",
                "--timeout-ms", "60000", "--storage", "file:///tmp/cairn-cli-remove-it");
        assertThat(registered.exit()).as(registered.err()).isZero();
        cairn.awaitJournal(JobSpec.class, s -> s.getJobId().equals(job));
        String attempt = job + "-" + UUID.randomUUID();
        cairn.startTask(job, "source", 0, attempt);
        return attempt;
    }

    /** A checkpoint requested through the CLI and acknowledged by {@code attempt}; its id. */
    private static long checkpoint(String job, String requestId, String attempt) {
        CliRun triggered = cli("trigger", "--job", job, "--request-id", requestId);
        assertThat(triggered.exit()).as(triggered.err()).isZero();
        return acked(job, requestId, attempt);
    }

    /** The job stopped with a savepoint through the CLI, acknowledged: FINISHED; the savepoint's id. */
    private static long stop(String job, String attempt) {
        CliRun stopping = cli("stop", "--job", job, "--request-id", "stop", "--detached");
        assertThat(stopping.exit()).as(stopping.err()).isZero();
        return acked(job, "stop", attempt);
    }

    private static long acked(String job, String requestId, String attempt) {
        CheckpointTriggered trigger = cairn.awaitControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && requestId.equals(t.getRequestId()));
        cairn.ack(job, trigger.getCheckpointId(), "source", 0, attempt);
        cairn.awaitJournal(RequestOutcome.class, o -> o.getJobId().equals(job) && requestId.equals(o.getRequestId())
                && o.getStatus() == RequestStatus.COMPLETED);
        return trigger.getCheckpointId();
    }

    private static CliRun cli(String... args) {
        return CliRun.against(cairn, args);
    }

    private static CliRun audit(String... args) {
        return CliRun.run(Stream.concat(Stream.concat(Stream.of("audit"), Stream.of(args)), Stream.of(
                "--bootstrap-servers", cairn.bootstrapServers(), "--topic-prefix", cairn.topics().prefix(),
                "--timeout-ms", "60000")).toArray(String[]::new));
    }
}
