package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.TriggerRequest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CairnCliTriggerAndStatusTest {

    @Test
    void shouldProduceASavepointRequestWithTargetForceAndRequestId() {
        CliRun run = CliRun.of("trigger", "--job", "orders", "--savepoint", "--target", "s3://bucket/sp-1",
                "--force", "--request-id", "my-request");

        assertThat(run.exit).as(run.err).isZero();
        TriggerRequest request = (TriggerRequest) run.event();
        assertThat(run.sent.get(0).key()).isEqualTo("orders");
        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId("orders").setRequestId("my-request")
                .setType(CheckpointType.SAVEPOINT).setForce(true).setTargetLocation("s3://bucket/sp-1")
                .setRequester("cli").setTimestampMs(CliRun.NOW_MS).build());
        assertThat(run.out).contains("Sent TriggerRequest of job 'orders' to cairn.requests (partition 3, offset 42): "
                + "a forced savepoint to s3://bucket/sp-1.").contains("request id: my-request");
    }

    @Test
    void shouldAskForACheckpointWithTheJobsDefaultsAndAGeneratedRequestIdThatItPrints() {
        CliRun run = CliRun.of("trigger", "--job", "orders");

        TriggerRequest request = (TriggerRequest) run.event();
        assertThat(request.getType()).isEqualTo(CheckpointType.CHECKPOINT);
        assertThat(request.getForce()).as("Flink's default force").isNull();
        assertThat(request.getOptions()).as("the job's options").isNull();
        assertThat(request.getTargetLocation()).isNull();
        assertThat(UUID.fromString(request.getRequestId()).toString()).isEqualTo(request.getRequestId());
        assertThat(run.out).contains(": a checkpoint.")
                .contains("request id: " + request.getRequestId())
                .contains("RequestOutcome with this request id on cairn.journal");
    }

    @Test
    void shouldGenerateADifferentRequestIdForEveryRun() {
        TriggerRequest first = (TriggerRequest) CliRun.of("trigger", "--job", "orders").event();
        TriggerRequest second = (TriggerRequest) CliRun.of("trigger", "--job", "orders").event();

        assertThat(first.getRequestId()).isNotEqualTo(second.getRequestId());
    }

    @Test
    void shouldRefuseATargetWithoutSavepoint() {
        assertRefused(CliRun.of("trigger", "--job", "orders", "--target", "s3://bucket/sp-1"),
                "--target applies to savepoints only");
    }

    @Test
    void shouldNameBothFlagsWhenTheTargetAndRequestIdAreBlank() {
        CliRun run = CliRun.of("trigger", "--job", "orders", "--savepoint", "--target", " ", "--request-id", "");

        assertRefused(run, "--target is empty (leave it out for the job's storage base location)");
        assertThat(run.err).contains("--request-id is empty");
    }

    @Test
    void shouldRequireTheJob() {
        assertRefused(CliRun.of("trigger", "--savepoint"), "Missing required option: '--job=JOB'");
    }

    @Test
    void shouldProduceAStatusChange() {
        CliRun run = CliRun.of("status", "--job", "orders", "--status", "SUSPENDED");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.event()).isEqualTo(JobStatusChange.newBuilder().setJobId("orders")
                .setStatus(JobStatus.SUSPENDED).setTimestampMs(CliRun.NOW_MS).build());
        assertThat(run.out).contains("Sent JobStatusChange of job 'orders' to cairn.requests (partition 3, offset 42): "
                + "status SUSPENDED.").contains("stops triggering checkpoints");
    }

    @Test
    void shouldAcceptAStatusInLowerCase() {
        JobStatusChange change = (JobStatusChange) CliRun.of("status", "--job", "orders", "--status", "running")
                .event();

        assertThat(change.getStatus()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void shouldListTheStatusesWhenOneIsUnknown() {
        assertRefused(CliRun.of("status", "--job", "orders", "--status", "PAUSED"),
                "Invalid value for option '--status': expected one of [RUNNING, SUSPENDED, CANCELED, FINISHED, "
                        + "FAILED]");
    }
}
