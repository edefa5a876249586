package dev.cairn.coordinator.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The trigger request body: what is accepted, and what each malformed body is told. */
class TriggerBodyTest {

    @Test
    void shouldReadEveryField() {
        TriggerBody body = TriggerBody.parse(
                "{\"type\":\"SAVEPOINT\",\"force\":true,\"targetLocation\":\"s3://sp/1\",\"requestId\":\"r-1\"}");

        assertThat(body).isEqualTo(new TriggerBody(CheckpointType.SAVEPOINT, true, "s3://sp/1", "r-1",
                PostCheckpointAction.NONE, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  \n", "{}", "{\"type\":null,\"force\":null,\"targetLocation\":null,"
            + "\"checkpointType\":null,\"formatType\":null,\"unalignedEnabled\":null,\"alignedTimeoutMs\":null}"})
    void shouldAskForACheckpointWithTheJobsOptionsAndFlinksDefaultForceWhenFieldsAreLeftOut(String text) {
        TriggerBody body = TriggerBody.parse(text);

        assertThat(body).isEqualTo(new TriggerBody(CheckpointType.CHECKPOINT, null, null, null,
                PostCheckpointAction.NONE, null));
        assertThat(body.toRequest("job-1", "id", 1L).getForce()).isNull();
    }

    @Test
    void shouldBuildExactlyTheRequestedCheckpointWithItsOptions() {
        TriggerRequest request = TriggerBody.parse("{\"force\":false,\"checkpointType\":\"INCREMENTAL\","
                + "\"unalignedEnabled\":true,\"alignedTimeoutMs\":500,\"requestId\":\"r-9\"}")
                .toRequest("job-1", "generated", 42L);

        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId("job-1").setRequestId("r-9")
                .setType(CheckpointType.CHECKPOINT).setForce(false).setRequester("rest").setTimestampMs(42L)
                .setPostCheckpointAction(PostCheckpointAction.NONE)
                .setOptions(RequestedOptions.newBuilder().setBackupType(BackupType.INCREMENTAL)
                        .setUnalignedEnabled(true).setAlignedTimeoutMs(500L).build())
                .build());
    }

    @ParameterizedTest
    @CsvSource({"FULL, FULL", "INCREMENTAL, INCREMENTAL"})
    void shouldReadFlinksCheckpointTypeAsTheBackupTypeOfTheCheckpoint(String checkpointType, BackupType expected) {
        TriggerBody body = TriggerBody.parse("{\"checkpointType\":\"" + checkpointType + "\"}");

        assertThat(body.options()).isEqualTo(RequestedOptions.newBuilder().setBackupType(expected).build());
    }

    @Test
    void shouldTakeTheJobsBackupTypeWhenCheckpointTypeIsConfigured() {
        assertThat(TriggerBody.parse("{\"checkpointType\":\"CONFIGURED\"}").options()).isNull();
    }

    @Test
    void shouldReadTheFormatTypeOfASavepoint() {
        TriggerBody body = TriggerBody.parse("{\"type\":\"SAVEPOINT\",\"formatType\":\"NATIVE\"}");

        assertThat(body.options()).isEqualTo(RequestedOptions.newBuilder()
                .setSavepointFormat(SavepointFormat.NATIVE).build());
        assertThat(body.force()).isNull();
    }

    @Test
    void shouldAcceptFlinksTriggerIdAsTheRequestId() {
        assertThat(TriggerBody.parse("{\"triggerId\":\"t-1\"}").requestId()).isEqualTo("t-1");
        assertThat(TriggerBody.parse("{\"triggerId\":\"t-1\",\"requestId\":\"t-1\"}").requestId())
                .isEqualTo("t-1");
    }

    @Test
    void shouldRejectARequestIdAndADifferentTriggerId() {
        assertRejected("{\"triggerId\":\"t-1\",\"requestId\":\"r-1\"}")
                .hasMessage("requestId and triggerId name the same thing (the request's id); give only one");
    }

    @Test
    void shouldRejectAFormatTypeOnACheckpointNamingTheField() {
        assertRejected("{\"formatType\":\"NATIVE\"}").hasMessageStartingWith("formatType applies to savepoints only");
    }

    @Test
    void shouldRejectACheckpointTypeOnASavepointNamingTheField() {
        assertRejected("{\"type\":\"SAVEPOINT\",\"checkpointType\":\"FULL\"}")
                .hasMessageStartingWith("checkpointType applies to checkpoints only");
    }

    @Test
    void shouldRejectAlignmentOptionsOnASavepointWhichIsAlwaysAligned() {
        assertRejected("{\"type\":\"SAVEPOINT\",\"unalignedEnabled\":true,\"alignedTimeoutMs\":5}")
                .hasMessage("unalignedEnabled applies to checkpoints only (a savepoint is always aligned, as in "
                        + "Flink); leave it out; alignedTimeoutMs applies to checkpoints only (a savepoint is always "
                        + "aligned, as in Flink); leave it out");
    }

    @Test
    void shouldRejectAnAlignedTimeoutWhenUnalignedIsDisabledForTheRequest() {
        assertRejected("{\"unalignedEnabled\":false,\"alignedTimeoutMs\":5}")
                .hasMessageStartingWith("alignedTimeoutMs applies to unaligned checkpoints only");
    }

    @Test
    void shouldNameEveryMalformedOptionValue() {
        assertRejected("{\"checkpointType\":\"DELTA\",\"unalignedEnabled\":\"yes\",\"alignedTimeoutMs\":-1}")
                .hasMessage("checkpointType must be one of CONFIGURED, FULL, INCREMENTAL, not the string \"DELTA\"; "
                        + "unalignedEnabled must be true or false, not the string \"yes\"; "
                        + "alignedTimeoutMs must be >= 0, not -1");
        assertRejected("{\"type\":\"SAVEPOINT\",\"formatType\":\"canonical\"}")
                .hasMessage("formatType must be one of CANONICAL, NATIVE, not the string \"canonical\"");
        assertRejected("{\"alignedTimeoutMs\":1.5}")
                .hasMessage("alignedTimeoutMs must be a whole number, not the number 1.5");
    }

    @Test
    void shouldReportOnlyTheTypeWhenTheTypeIsMalformed() {
        assertRejected("{\"type\":\"SAVEPIONT\",\"formatType\":\"NATIVE\"}")
                .hasMessage("type must be one of CHECKPOINT, SAVEPOINT, not the string \"SAVEPIONT\"");
    }

    @Test
    void shouldBuildATriggerRequestFromTheRestRequester() {
        TriggerRequest request = TriggerBody.parse("{\"type\":\"SAVEPOINT\",\"targetLocation\":\"s3://sp\"}")
                .toRequest("job-1", "generated-id", 42L);

        assertThat(request.getJobId()).isEqualTo("job-1");
        assertThat(request.getRequestId()).isEqualTo("generated-id");
        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getTargetLocation()).isEqualTo("s3://sp");
        assertThat(request.getRequester()).isEqualTo("rest");
        assertThat(request.getTimestampMs()).isEqualTo(42L);
    }

    @Test
    void shouldKeepTheRequestersOwnRequestId() {
        TriggerRequest request = TriggerBody.parse("{\"requestId\":\"mine\"}").toRequest("job-1", "generated", 1L);

        assertThat(request.getRequestId()).isEqualTo("mine");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"type\": |malformed JSON at line 1, column 9",
            "{\"type\":\"CHECKPOINT\"} trailing|malformed JSON",
            "{\"force\":true,\"force\":false}|Duplicate field 'force'",
            "[1, 2]|the body must be a JSON object like",
            "\"CHECKPOINT\"|not the string \"CHECKPOINT\"",
    })
    void shouldExplainABodyThatIsNotAJsonObject(String text, String expected) {
        assertRejected(text).hasMessageContaining(expected);
    }

    @Test
    void shouldNameAnUnknownFieldAndTheKnownOnes() {
        assertRejected("{\"typ\":\"CHECKPOINT\"}")
                .hasMessage("unknown field 'typ' (known fields: type, force, targetLocation, requestId, triggerId, "
                        + "checkpointType, formatType, unalignedEnabled, alignedTimeoutMs)");
    }

    @Test
    void shouldNameAnUnknownCheckpointType() {
        assertRejected("{\"type\":\"INCREMENTAL\"}")
                .hasMessage("type must be one of CHECKPOINT, SAVEPOINT, not the string \"INCREMENTAL\"");
    }

    @Test
    void shouldRejectTypesOfTheWrongKind() {
        assertRejected("{\"type\":1,\"force\":\"yes\",\"requestId\":7}")
                .hasMessage("type must be one of CHECKPOINT, SAVEPOINT, not the number 1; "
                        + "force must be true or false, not the string \"yes\"; "
                        + "requestId must be a string or null, not the number 7");
    }

    @Test
    void shouldRejectATargetLocationForACheckpoint() {
        assertRejected("{\"targetLocation\":\"s3://somewhere\"}")
                .hasMessageStartingWith("targetLocation applies to savepoints only");
    }

    @Test
    void shouldRejectABlankRequestId() {
        assertRejected("{\"requestId\":\"  \"}").hasMessage("requestId must not be blank (leave it out instead)");
    }

    @Test
    void shouldReportEveryProblemAtOnce() {
        assertRejected("{\"kind\":\"x\",\"force\":0}")
                .hasMessageContaining("unknown field 'kind'")
                .hasMessageContaining("force must be true or false, not the number 0");
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(String text) {
        return assertThatThrownBy(() -> TriggerBody.parse(text))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
