package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code cairn trigger} with the per-request snapshot options and Flink's default force. */
class CairnCliTriggerOptionsTest {

    @Test
    void shouldProduceExactlyTheCheckpointTheOptionFlagsDescribe() {
        CliRun run = CliRun.of("trigger", "--job", "orders", "--checkpoint-type", "incremental", "--unaligned",
                "--aligned-timeout-ms", "500", "--no-force", "--request-id", "c-1");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.event()).isEqualTo(TriggerRequest.newBuilder().setJobId("orders").setRequestId("c-1")
                .setType(CheckpointType.CHECKPOINT).setForce(false).setRequester("cli").setTimestampMs(CliRun.NOW_MS)
                .setOptions(RequestedOptions.newBuilder().setBackupType(BackupType.INCREMENTAL)
                        .setUnalignedEnabled(true)
                        .setAlignedTimeoutMs(500L).build())
                .build());
        assertThat(run.out).contains(": an unforced checkpoint (INCREMENTAL, unaligned, aligned timeout 500 ms).");
    }

    @ParameterizedTest
    @CsvSource({"full, FULL", "INCREMENTAL, INCREMENTAL"})
    void shouldReadTheCheckpointTypeInAnyCase(String flag, BackupType expected) {
        TriggerRequest request = (TriggerRequest) CliRun.of("trigger", "--job", "orders", "--checkpoint-type", flag)
                .event();

        assertThat(request.getOptions()).isEqualTo(RequestedOptions.newBuilder().setBackupType(expected).build());
    }

    @Test
    void shouldTakeTheJobsBackupTypeWhenTheCheckpointTypeIsConfigured() {
        TriggerRequest request = (TriggerRequest) CliRun.of("trigger", "--job", "orders", "--checkpoint-type",
                "configured").event();

        assertThat(request.getOptions()).isNull();
    }

    @Test
    void shouldProduceASavepointInTheRequestedFormatWithFlinksDefaultForce() {
        CliRun run = CliRun.of("trigger", "--job", "orders", "--savepoint", "--format", "native");

        TriggerRequest request = (TriggerRequest) run.event();
        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getForce()).isNull();
        assertThat(request.getOptions()).isEqualTo(RequestedOptions.newBuilder()
                .setSavepointFormat(SavepointFormat.NATIVE).build());
        assertThat(run.out).contains(": a savepoint to the job's storage location (NATIVE format).");
    }

    @Test
    void shouldAskForAnAlignedCheckpointWhenGivenNoUnaligned() {
        TriggerRequest request = (TriggerRequest) CliRun.of("trigger", "--job", "orders", "--no-unaligned").event();

        assertThat(request.getOptions()).isEqualTo(RequestedOptions.newBuilder().setUnalignedEnabled(false).build());
    }

    @Test
    void shouldRefuseTheFormatWhenTheRequestIsACheckpoint() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--format", "native"),
                "--format applies to savepoints only");
    }

    @Test
    void shouldRefuseTheCheckpointTypeWhenTheRequestIsASavepoint() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--savepoint", "--checkpoint-type", "full"),
                "--checkpoint-type applies to checkpoints only");
    }

    @Test
    void shouldRefuseBothAlignmentFlagsWhenTheRequestIsASavepoint() {
        CliRun run = CliRun.of("trigger", "--job", "orders", "--savepoint", "--unaligned", "--aligned-timeout-ms", "5");

        assertRefused(run, "--unaligned applies to checkpoints only (a savepoint is always aligned, as in Flink)");
        assertThat(run.err).contains("--aligned-timeout-ms applies to checkpoints only");
    }

    @Test
    void shouldNameEveryFlagWhenASavepointHasSeveralMisfitsAndABlankTarget() {
        CliRun run = CliRun.of("trigger", "--job", " ", "--savepoint", "--target", " ", "--checkpoint-type", "full",
                "--no-unaligned", "--request-id", "");

        assertRefused(run, "--job is empty");
        assertThat(run.err).contains("--request-id is empty")
                .contains("--target is empty (leave it out for the job's storage base location)")
                .contains("--checkpoint-type applies to checkpoints only")
                .contains("--unaligned applies to checkpoints only");
    }

    @Test
    void shouldRefuseTheTimeoutWhenItIsNegative() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--aligned-timeout-ms", "-1"),
                "--aligned-timeout-ms must be >= 0 but is -1");
    }

    @Test
    void shouldRefuseTheAlignedTimeoutWhenGivenNoUnaligned() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--no-unaligned", "--aligned-timeout-ms", "5"),
                "--aligned-timeout-ms applies to unaligned checkpoints only");
    }

    @Test
    void shouldNameTheFlagOfAnUnknownCheckpointTypeOrFormat() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--checkpoint-type", "delta"),
                "Invalid value for option '--checkpoint-type': expected one of [CONFIGURED, FULL, INCREMENTAL]");
        assertRefused(CliRun.of("trigger", "--job", "orders", "--savepoint", "--format", "zip"),
                "Invalid value for option '--format': expected one of [CANONICAL, NATIVE]");
        assertRefused(CliRun.of("trigger", "--job", "orders", "--aligned-timeout-ms", "1s"),
                "Invalid value for option '--aligned-timeout-ms': '1s' is not a long");
    }
}
