package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TaskRescale;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cairn rescale} (Flink's Kubernetes operator: stop with a savepoint, change the parallelism, resume from it):
 * the event it sends, what it prints of the coordinator's outcome, and the flags it refuses before sending anything.
 */
class CairnCliRescaleTest {

    @Test
    void shouldSendTheNewParallelismOfEachNamedTaskAndPrintTheOutcome() {
        CliRun run = new CliRun().answering(RequestStatus.COMPLETED, null, 12L).run("rescale", "--job", "orders",
                "--parallelism", "count=3", "--parallelism", "sink=1", "--target", "s3://bucket/sp",
                "--restore-mode", "claim", "--request-id", "s-1");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.event()).isEqualTo(RescaleJob.newBuilder().setJobId("orders").setRequestId("s-1")
                .setTasks(List.of(new TaskRescale("count", 3), new TaskRescale("sink", 1)))
                .setTargetLocation("s3://bucket/sp").setRestoreMode(RestoreMode.CLAIM).setRequester("cli")
                .setTimestampMs(CliRun.NOW_MS).build());
        assertThat(run.sent.get(0).key()).isEqualTo("orders");
        assertThat(run.sent.get(0).requestsKey()).as("signed like every request").map(SigningKey::toBase64)
                .contains(CliRun.REQUESTS_KEY.toBase64());
        assertThat(run.watched).containsExactly("cairn.journal");
        assertThat(run.out).contains("Sent RescaleJob of job 'orders' to cairn.requests (partition 3, offset 42): a "
                + "rescale of the job to count x3, sink x1 (if it is RUNNING, it stops with a savepoint to "
                + "s3://bucket/sp first), resuming in CLAIM mode.")
                .contains("request id: s-1")
                .contains("Rescaled: job 'orders' is RUNNING again with count x3, sink x1, from checkpoint 12 (CLAIM), "
                        + "its restore point; start the workers of the new parallelism now.");
    }

    @Test
    void shouldLeaveTheTargetToTheJobAndResumeInNoClaimModeByDefault() {
        CliRun run = CliRun.of("rescale", "--job", "orders", "--parallelism", "count=2", "--wait-ms", "0");

        RescaleJob rescale = (RescaleJob) run.event();
        assertThat(rescale.getTargetLocation()).isNull();
        assertThat(rescale.getRestoreMode()).isEqualTo(RestoreMode.NO_CLAIM);
        assertThat(rescale.getRequestId()).isNotBlank();
        assertThat(run.watched).as("no wait, no watch").isEmpty();
        assertThat(run.out).contains("a savepoint to the job's storage location first")
                .contains("GET /jobs/orders/savepoints/" + rescale.getRequestId());
    }

    @Test
    void shouldExitOneWithTheCoordinatorsReasonWhenItRefusesTheRescale() {
        CliRun run = new CliRun().answering(RequestStatus.FAILED, "task 'count' has max parallelism 128, not 200",
                null).run("rescale", "--job", "orders", "--parallelism", "count=200");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("cairn rescale: the coordinator refused the request: task 'count' has max "
                + "parallelism 128, not 200 (INVALID_REQUEST)");
    }

    @Test
    void shouldExitOneNamingWhereToLookWhenNoOutcomeComesInTime() {
        CliRun run = CliRun.of("rescale", "--job", "orders", "--parallelism", "count=2", "--request-id", "s-2",
                "--wait-ms", "50");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("cairn rescale: no outcome of request s-2 within 50 ms")
                .contains("GET /jobs/orders/savepoints/s-2");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "count|--parallelism 'count': expected TASK=PARALLELISM, e.g. count=3",
            "=3|--parallelism '=3': the task is empty; expected TASK=PARALLELISM, e.g. count=3",
            "count=0|--parallelism 'count=0': the parallelism must be from 1 to 32768, not 0",
            "count=-1|--parallelism 'count=-1': the parallelism must be from 1 to 32768, not -1",
            "count=40000|--parallelism 'count=40000': the parallelism must be from 1 to 32768, not 40000",
            "count=x|--parallelism 'count=x': the parallelism must be a whole number, not 'x'",
            "count=1.5|--parallelism 'count=1.5': the parallelism must be a whole number, not '1.5'",
            "count=|--parallelism 'count=': the parallelism must be a whole number, not ''",
    })
    void shouldExitTwoNamingTheFlagWhenAParallelismIsMalformed(String value, String expected) {
        assertRefused(CliRun.of("rescale", "--job", "orders", "--parallelism", value), expected);
    }

    @Test
    void shouldExitTwoWhenATaskIsNamedTwice() {
        assertRefused(CliRun.of("rescale", "--job", "orders", "--parallelism", "count=2", "--parallelism", "count=4"),
                "--parallelism 'count=4': task 'count' is named twice; give each task once");
    }

    @Test
    void shouldExitTwoWhenNoParallelismIsGiven() {
        assertRefused(CliRun.of("rescale", "--job", "orders"),
                "--parallelism is missing: give the new parallelism of at least one task, e.g. --parallelism count=3");
    }

    @Test
    void shouldExitTwoNamingEveryMalformedFlagAtOnce() {
        CliRun run = CliRun.of("rescale", "--job", "orders", "--parallelism", "count", "--parallelism", "sink=0",
                "--target", "http://169.254.169.254/", "--wait-ms", "-1");

        assertRefused(run, "--parallelism 'count': expected TASK=PARALLELISM");
        assertThat(run.err).contains("--parallelism 'sink=0': the parallelism must be from 1 to 32768, not 0")
                .contains("--target has the scheme 'http', which is not allowed")
                .contains("--wait-ms must be >= 0, not -1");
    }

    @Test
    void shouldPrintTheErrorsDocsCliMdShows() {
        CliRun run = CliRun.of("rescale", "--job", "tour", "--parallelism", "worker=0", "--parallelism", "worker");

        assertRefused(run, "");
        assertThat(run.err.lines()).containsExactly(
                "--parallelism 'worker=0': the parallelism must be from 1 to 32768, not 0",
                "--parallelism 'worker': expected TASK=PARALLELISM, e.g. count=3",
                "Try 'cairn rescale --help' for the flags.");
    }

    @Test
    void shouldExitTwoNamingTheModesWhenTheRestoreModeIsUnknown() {
        assertRefused(CliRun.of("rescale", "--job", "orders", "--parallelism", "count=2", "--restore-mode", "legacy"),
                "Invalid value for option '--restore-mode': expected one of [CLAIM, NO_CLAIM]");
    }

    @Test
    void shouldExitTwoWhenTheJobOrTheRequestIdIsBlank() {
        assertRefused(CliRun.of("rescale", "--job", " ", "--parallelism", "count=2"), "--job must not be blank");
        assertRefused(CliRun.of("rescale", "--job", "orders", "--parallelism", "count=2", "--request-id", " "),
                "--request-id is empty");
    }

    @Test
    void shouldListRescaleAmongTheCommandsAndDescribeItsFlags() {
        assertThat(CliRun.of("--help").out).contains("rescale").contains("cairn rescale --job orders --parallelism");
        assertThat(CliRun.of("rescale", "--help").out).contains("--parallelism=TASK=N").contains("--target")
                .contains("--restore-mode").contains("--wait-ms").contains("stops with a savepoint");
    }
}
