package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cairn resume} (Flink: {@code flink run -s <path> --restoreMode}), {@code cairn register --from-savepoint} and
 * {@code cairn savepoint dispose} (Flink: {@code flink savepoint -d}): the event each sends and what it prints of the
 * coordinator's outcome.
 */
class CairnCliResumeTest {

    @Test
    void shouldRestoreFromTheSavepointAtAPathInNoClaimModeAndPrintTheOutcome() {
        CliRun run = new CliRun().answering(RequestStatus.COMPLETED, null, 9L).run("resume", "--job", "orders",
                "--from-savepoint", "s3://bucket/sp-1", "--restore-mode", "no_claim", "--request-id", "r-1");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.event()).isEqualTo(RestoreJob.newBuilder().setJobId("orders").setRequestId("r-1")
                .setSavepointPath("s3://bucket/sp-1").setCheckpointId(null).setRestoreMode(RestoreMode.NO_CLAIM)
                .setRequester("cli").setTimestampMs(CliRun.NOW_MS).build());
        assertThat(run.watched).containsExactly("cairn.journal");
        assertThat(run.out).contains("Sent RestoreJob of job 'orders' to cairn.requests (partition 3, offset 42): a "
                + "restore of the job from the savepoint at s3://bucket/sp-1 in NO_CLAIM mode.")
                .contains("request id: r-1")
                .contains("Restored: job 'orders' is RUNNING again from checkpoint 9 (NO_CLAIM)");
    }

    @ParameterizedTest
    @CsvSource({"--from-savepoint, 12", "--from-checkpoint, 12"})
    void shouldNameThePointByIdWhenTheFlagIsANumber(String flag, long id) {
        CliRun run = new CliRun().answering(RequestStatus.COMPLETED, null, id).run("resume", "--job", "orders", flag,
                String.valueOf(id), "--restore-mode", "CLAIM");

        RestoreJob restore = (RestoreJob) run.event();
        assertThat(restore.getCheckpointId()).isEqualTo(id);
        assertThat(restore.getSavepointPath()).isNull();
        assertThat(restore.getRestoreMode()).isEqualTo(RestoreMode.CLAIM);
    }

    @Test
    void shouldResumeFromTheRestorePointWhenNoPointIsNamed() {
        CliRun run = CliRun.of("resume", "--job", "orders", "--wait-ms", "0");

        RestoreJob restore = (RestoreJob) run.event();
        assertThat(restore.getCheckpointId()).isNull();
        assertThat(restore.getSavepointPath()).isNull();
        assertThat(restore.getRestoreMode()).isEqualTo(RestoreMode.NO_CLAIM);
        assertThat(run.watched).as("no wait, no watch").isEmpty();
        assertThat(run.out).contains("from its restore point").contains("GET /jobs/orders/savepoints/");
    }

    @Test
    void shouldExitOneWithTheCoordinatorsReasonWhenItRefusesTheRestore() {
        CliRun run = new CliRun().answering(RequestStatus.FAILED, "job orders is RUNNING: stop it first", null)
                .run("resume", "--job", "orders", "--from-checkpoint", "3");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("cairn resume: the coordinator refused the request: job orders is RUNNING: "
                + "stop it first (INVALID_REQUEST)");
    }

    @Test
    void shouldExitOneNamingWhereToLookWhenNoOutcomeComesInTime() {
        CliRun run = CliRun.of("resume", "--job", "orders", "--request-id", "r-2", "--wait-ms", "50");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("no outcome of request r-2 within 50 ms")
                .contains("GET /jobs/orders/savepoints/r-2");
    }

    @Test
    void shouldExitTwoAndSendNothingWhenBothPointsAreNamed() {
        assertRefused(CliRun.of("resume", "--job", "orders", "--from-savepoint", "s3://sp", "--from-checkpoint", "4"),
                "--from-savepoint and --from-checkpoint both name the point to restore; give one of them");
    }

    @Test
    void shouldExitTwoNamingTheModesWhenTheRestoreModeIsUnknown() {
        assertRefused(CliRun.of("resume", "--job", "orders", "--restore-mode", "legacy"),
                "Invalid value for option '--restore-mode': expected one of [CLAIM, NO_CLAIM]");
    }

    @Test
    void shouldExitTwoWhenTheCheckpointIdIsNegative() {
        assertRefused(CliRun.of("resume", "--job", "orders", "--from-checkpoint", "-2"),
                "--from-checkpoint must be a checkpoint id (>= 0), not -2");
    }

    @Test
    void shouldRegisterThenRestoreAStoppedJobFromASavepoint() {
        CliRun run = new CliRun().answering(RequestStatus.COMPLETED, null, 4L).run("register", "--job", "orders",
                "--task", "source:1", "--interval-ms", "1000", "--timeout-ms", "5000", "--storage", "file:///tmp/c",
                "--from-savepoint", "file:///tmp/c/sp-4", "--restore-mode", "claim");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent).hasSize(2);
        assertThat(run.sent.get(0).envelope().getEvent()).isInstanceOf(JobSpec.class);
        RestoreJob restore = (RestoreJob) run.sent.get(1).envelope().getEvent();
        assertThat(restore.getSavepointPath()).isEqualTo("file:///tmp/c/sp-4");
        assertThat(restore.getRestoreMode()).isEqualTo(RestoreMode.CLAIM);
        assertThat(run.out).contains("Restored: job 'orders' is RUNNING again from checkpoint 4 (CLAIM)");
    }

    @Test
    void shouldRefuseARestoreModeWithoutAPointOnRegisterAndSendNothing() {
        assertRefused(CliRun.of("register", "--job", "orders", "--task", "source:1", "--interval-ms", "1000",
                "--timeout-ms", "5000", "--storage", "file:///tmp/c", "--restore-mode", "claim"),
                "--restore-mode needs --from-savepoint or --from-checkpoint");
    }

    @Test
    void shouldDisposeOfASavepointByIdAndPrintTheOutcome() {
        CliRun run = new CliRun().answering(RequestStatus.COMPLETED, null, 12L).run("savepoint", "dispose", "--job",
                "orders", "--id", "12", "--request-id", "d-1");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.event()).isEqualTo(DisposeSavepoint.newBuilder().setJobId("orders").setRequestId("d-1")
                .setCheckpointId(12L).setSavepointPath(null).setRequester("cli").setTimestampMs(CliRun.NOW_MS).build());
        assertThat(run.out).contains("Disposed of savepoint 12 of job 'orders'");
    }

    @Test
    void shouldExitTwoWhenADisposalNamesBothOrNeitherSavepoint() {
        assertRefused(CliRun.of("savepoint", "dispose", "--job", "orders", "--id", "1", "--path", "s3://sp"),
                "mutually exclusive");
        assertRefused(CliRun.of("savepoint", "dispose", "--job", "orders"), "Missing required argument");
    }

    @Test
    void shouldSayThatAStoppedJobResumesFromTheStopsSavepoint() {
        CliRun run = CliRun.of("stop", "--job", "orders", "--detached");

        assertThat(run.out).contains("job 'orders' is FINISHED and the savepoint is its restore point: cairn resume "
                + "--job orders continues from it.");
        CliRun help = CliRun.of("stop", "--help");
        assertThat(help.out).contains("cairn resume").doesNotContain("suspended and can resume");
    }
}
