package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.client.requests.SendFailedException;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code cairn stop}: Flink's stop-with-savepoint as one TriggerRequest. */
class CairnCliStopTest {

    @Test
    void shouldProduceAStopWithSavepointThatDrainsWhenDrainIsGiven() {
        CliRun run = CliRun.of("stop", "--job", "orders", "--drain", "--target", "s3://bucket/final", "--format",
                "native", "--request-id", "stop-1", "--detached");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent.get(0).topic()).isEqualTo("cairn.requests");
        assertThat(run.sent.get(0).key()).isEqualTo("orders");
        assertThat(run.event()).isEqualTo(TriggerRequest.newBuilder().setJobId("orders").setRequestId("stop-1")
                .setType(CheckpointType.SAVEPOINT).setForce(null).setTargetLocation("s3://bucket/final")
                .setRequester("cli").setTimestampMs(CliRun.NOW_MS)
                .setPostCheckpointAction(PostCheckpointAction.TERMINATE)
                .setOptions(RequestedOptions.newBuilder().setSavepointFormat(SavepointFormat.NATIVE).build())
                .build());
        assertThat(run.out).contains("Sent TriggerRequest of job 'orders' to cairn.requests (partition 3, offset 42): "
                + "a stop-with-savepoint (the tasks drain their input; the job is FINISHED when it completes) "
                + "to s3://bucket/final (NATIVE format).").contains("request id: stop-1");
    }

    @Test
    void shouldSuspendTheJobWithTheJobsDefaultsWhenOnlyTheJobIsGiven() {
        CliRun run = CliRun.of("stop", "--job", "orders", "--detached");

        TriggerRequest request = (TriggerRequest) run.event();
        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getPostCheckpointAction()).isEqualTo(PostCheckpointAction.SUSPEND);
        assertThat(request.getForce()).isNull();
        assertThat(request.getTargetLocation()).isNull();
        assertThat(request.getOptions()).isNull();
        assertThat(UUID.fromString(request.getRequestId()).toString()).isEqualTo(request.getRequestId());
        assertThat(run.out).contains("a stop-with-savepoint (the tasks stop where they are; the job is FINISHED "
                + "when it completes) to the job's storage location.")
                .contains("RequestOutcome with this request id on cairn.journal");
    }

    @Test
    void shouldNameBothFlagsWhenTheTargetAndRequestIdAreBlank() {
        CliRun run = CliRun.of("stop", "--job", "orders", "--target", " ", "--request-id", "");

        assertRefused(run, "--target is empty (leave it out for the job's storage base location)");
        assertThat(run.err).contains("--request-id is empty");
    }

    @Test
    void shouldNameTheFlagOfAnUnknownFormat() {
        assertRefused(CliRun.of("stop", "--job", "orders", "--format", "binary"),
                "Invalid value for option '--format': expected one of [CANONICAL, NATIVE]");
    }

    @Test
    void shouldRequireTheJob() {
        assertRefused(CliRun.of("stop", "--drain"), "Missing required option: '--job=JOB'");
    }

    @Test
    void shouldNameTheRequestIdToRetryWithWhenTheSendFails() {
        CliRun run = new CliRun().failingWith(new SendFailedException("broker down", null))
                .run("stop", "--job", "orders", "--request-id", "stop-2", "--detached");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("broker down").contains("to retry, pass --request-id stop-2");
    }
}
