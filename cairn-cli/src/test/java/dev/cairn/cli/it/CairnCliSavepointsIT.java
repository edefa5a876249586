package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * A job's savepoints through the CLI against the real broker and a real coordinator, as a Flink user works with them:
 * stop with a savepoint, list the savepoints, resume from an older one ({@code flink run -s <path> --restoreMode
 * no_claim}), dispose of one ({@code flink savepoint -d}); the REST API names the chosen restore point.
 */
@ExtendWith(KafkaClusterExtension.class)
class CairnCliSavepointsIT {

    private static final Pattern REQUEST_ID = Pattern.compile("request id: (\\S+)");

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldResumeAStoppedJobFromAnOlderSavepointAndDisposeOfTheStopsSavepoint() {
        String job = "cli-sp-" + UUID.randomUUID();
        String base = "file:///tmp/cairn-cli-sp-it/" + job;
        assertThat(cli("register", "--job", job, "--task", "source:1", "--interval-ms", "600000", "--timeout-ms",
                "60000", "--storage", base).exit()).isZero();
        cairn.awaitNextJournal(JobSpec.class, s -> s.getJobId().equals(job));
        cairn.startTask(job, "source", 0, "source-0");

        long first = savepoint(job, cli("trigger", "--job", job, "--savepoint", "--target", base + "/sp-1"));
        CliRun stop = cli("stop", "--job", job, "--target", base + "/final", "--detached");
        assertThat(stop.out()).contains("cairn resume --job " + job + " continues from it");
        long last = savepoint(job, stop);
        assertThat(cairn.awaitNextJournal(JobStatusChange.class, c -> c.getJobId().equals(job)).getStatus())
                .isEqualTo(JobStatus.FINISHED);

        CliRun listed = cli("savepoint", "list", "--job", job);
        assertThat(listed.exit()).as(listed.err()).isZero();
        assertThat(listed.out()).contains("restore point savepoint " + last + " at " + base + "/final");
        assertThat(row(listed.out(), last)).contains("SUSPEND").contains("yes");
        assertThat(row(listed.out(), first)).contains("NONE").doesNotContain("yes");
        assertThat(listed.out().indexOf(base + "/final")).as("newest first")
                .isLessThan(listed.out().indexOf(base + "/sp-1"));

        CliRun resumed = cli("resume", "--job", job, "--from-savepoint", base + "/sp-1", "--restore-mode", "no_claim");
        assertThat(resumed.exit()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("Restored: job '" + job + "' is RUNNING again from checkpoint " + first
                + " (NO_CLAIM)");
        assertThat(cairn.awaitNextJournal(JobStatusChange.class, c -> c.getJobId().equals(job)).getStatus())
                .isEqualTo(JobStatus.RUNNING);
        JsonNode view = cairn.rest().awaitJson("/jobs/" + job + "/savepoints",
                v -> v.get("restore_point").get("id").asLong() == first);
        assertThat(view.get("restore_point").get("chosen").asBoolean()).isTrue();
        assertThat(view.get("restore_point").get("restore_mode").asText()).isEqualTo("NO_CLAIM");
        assertThat(view.get("restore_point").get("location").asText()).isEqualTo(base + "/sp-1");
        assertThat(cairn.rest().awaitJson("/jobs/" + job + "/checkpoints/latest-completed", v -> true)
                .get("id").asLong()).isEqualTo(first);

        CliRun refused = cli("savepoint", "dispose", "--job", job, "--id", String.valueOf(first));
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("is the restore point of job " + job);
        CliRun disposed = cli("savepoint", "dispose", "--job", job, "--path", base + "/final");
        assertThat(disposed.exit()).as(disposed.err()).isZero();
        assertThat(disposed.out()).contains("Disposed of savepoint " + last + " of job '" + job + "'");
        assertThat(cli("savepoint", "list", "--job", job).out()).doesNotContain(base + "/final");
    }

    @Test
    void shouldExitTwoNamingTheFlagWhenTheRestoreModeIsUnknown() {
        CliRun run = cli("resume", "--job", "any", "--restore-mode", "legacy");

        assertThat(run.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err()).contains("Invalid value for option '--restore-mode'").contains("CLAIM, NO_CLAIM");
    }

    /** Acks the savepoint a trigger or stop asked for and waits for its completion; its checkpoint id. */
    private static long savepoint(String job, CliRun sent) {
        assertThat(sent.exit()).as(sent.err()).isZero();
        Matcher matcher = REQUEST_ID.matcher(sent.out());
        assertThat(matcher.find()).as("a request id in: %s", sent.out()).isTrue();
        String requestId = matcher.group(1);
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && requestId.equals(t.getRequestId()));
        cairn.ack(job, triggered.getCheckpointId(), "source", 0, "source-0");
        cairn.awaitNextJournal(RequestOutcome.class, o -> requestId.equals(o.getRequestId())
                && o.getStatus() == RequestStatus.COMPLETED);
        return triggered.getCheckpointId();
    }

    /** The line of the table of {@code cairn savepoint list} that lists savepoint {@code id}. */
    private static String row(String table, long id) {
        return table.lines().filter(l -> l.startsWith(id + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row of savepoint " + id + " in:\n" + table));
    }

    /** Runs the CLI against the harness' broker and topics, signing with the harness' requests key. */
    private static CliRun cli(String... args) {
        return CliRun.against(cairn, args);
    }
}
