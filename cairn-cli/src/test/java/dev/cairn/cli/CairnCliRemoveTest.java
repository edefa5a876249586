package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestStatus;
import org.junit.jupiter.api.Test;

/**
 * {@code cairn remove}: the event it sends, what it prints of the coordinator's outcome (the removal, or the reason it
 * was refused), and the flags it refuses before sending anything.
 */
class CairnCliRemoveTest {

    @Test
    void shouldSendARemovalSignedAndKeyedByTheJobAndPrintWhereItsIdsGoOn() {
        CliRun run = new CliRun().answering(RequestStatus.COMPLETED, null, 12L).run("remove", "--job", "orders",
                "--request-id", "rm-1");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.event()).isEqualTo(RemoveJob.newBuilder().setJobId("orders").setRequestId("rm-1")
                .setRequester("cli").setTimestampMs(CliRun.NOW_MS).build());
        assertThat(run.sent.get(0).key()).isEqualTo("orders");
        assertThat(run.sent.get(0).requestsKey()).as("signed like every request").map(SigningKey::toBase64)
                .contains(CliRun.REQUESTS_KEY.toBase64());
        assertThat(run.watched).containsExactly("cairn.journal");
        assertThat(run.out).contains("Sent RemoveJob of job 'orders' to cairn.requests (partition 3, offset 42): the "
                + "removal of the job (refused while it is RUNNING).")
                .contains("request id: rm-1")
                .contains("Removed: job 'orders' is gone from the coordinator's stores and views; its journal keeps "
                        + "its history (cairn audit) and its checkpoint and savepoint files stay where they are. Its "
                        + "checkpoint ids went up to 12; registered again, it takes ids from 13 on.");
    }

    @Test
    void shouldSayAJobThatNeverCheckpointedStartsAgainAtOne() {
        CliRun run = new CliRun().answering(RequestStatus.COMPLETED, null, null).run("remove", "--job", "orders");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(((RemoveJob) run.event()).getRequestId()).isNotBlank();
        assertThat(run.out).contains("Registered again, it starts with checkpoint id 1.");
    }

    @Test
    void shouldExitOneWithTheCoordinatorsReasonWhenItRefusesTheRemoval() {
        CliRun run = new CliRun().answering(RequestStatus.FAILED, "job orders is RUNNING: its tasks still checkpoint "
                + "into its state", null).run("remove", "--job", "orders");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("cairn remove: the coordinator refused the request: job orders is RUNNING: its "
                + "tasks still checkpoint into its state (INVALID_REQUEST)");
    }

    @Test
    void shouldOnlySendWithAWaitOfZero() {
        CliRun run = CliRun.of("remove", "--job", "orders", "--wait-ms", "0");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.watched).isEmpty();
        assertThat(run.out).contains("Its outcome is the RequestOutcome with this request id on cairn.journal");
    }

    @Test
    void shouldExitTwoAndSendNothingWhenTheFlagsAreMalformed() {
        assertRefused(CliRun.of("remove", "--job", " "), "--job must not be blank");
        assertRefused(CliRun.of("remove", "--job", "orders", "--request-id", "r".repeat(257)), "request id is 257");
        assertRefused(CliRun.of("remove", "--job", "orders", "--wait-ms", "-1"), "--wait-ms must be >= 0, not -1");
        assertRefused(CliRun.of("remove"), "Missing required option: '--job=JOB'");
    }

    @Test
    void shouldListRemoveAmongTheCommandsAndDescribeIt() {
        assertThat(CliRun.of("--help").out).contains("remove").contains("cairn remove --job orders");
        assertThat(CliRun.of("remove", "--help").out).contains("--job").contains("--request-id").contains("--wait-ms")
                .contains("Removes a job that is not RUNNING");
    }
}
