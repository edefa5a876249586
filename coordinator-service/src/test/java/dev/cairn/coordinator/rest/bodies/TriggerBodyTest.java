package dev.cairn.coordinator.rest.bodies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
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

/** The bodies of the three trigger endpoints, bound by Jackson and checked by the coordinator's rules. */
class TriggerBodyTest {

    @Test
    void shouldBuildExactlyTheRequestedCheckpointWhenTheBodyGivesItsOptions() {
        TriggerRequest request = checkpoint("{\"force\":false,\"checkpointType\":\"INCREMENTAL\","
                + "\"unalignedEnabled\":true,\"alignedTimeoutMs\":500,\"requestId\":\"r-9\"}");

        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId("job-1").setRequestId("r-9")
                .setType(CheckpointType.CHECKPOINT).setForce(false).setRequester("rest").setTimestampMs(42L)
                .setPostCheckpointAction(PostCheckpointAction.NONE)
                .setOptions(RequestedOptions.newBuilder().setBackupType(BackupType.INCREMENTAL)
                        .setUnalignedEnabled(true).setAlignedTimeoutMs(500L).build())
                .build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  \n", "{}", "{\"type\":null,\"force\":null,\"targetLocation\":null,"
            + "\"checkpointType\":null,\"formatType\":null,\"unalignedEnabled\":null,\"alignedTimeoutMs\":null}",
            "{\"checkpointType\":\"CONFIGURED\"}"})
    void shouldAskForACheckpointWithTheJobsOptionsWhenFieldsAreLeftOut(String text) {
        TriggerRequest request = checkpoint(text);

        assertThat(request.getType()).isEqualTo(CheckpointType.CHECKPOINT);
        assertThat(request.getForce()).isNull();
        assertThat(request.getOptions()).isNull();
        assertThat(request.getRequestId()).isEqualTo("generated");
    }

    @Test
    void shouldReadASavepointWithItsFormatAndTargetWhenTheTypeIsSavepoint() {
        TriggerRequest request = checkpoint("{\"type\":\"SAVEPOINT\",\"formatType\":\"NATIVE\","
                + "\"targetLocation\":\"s3://sp/1\",\"triggerId\":\"t-1\"}");

        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getTargetLocation()).isEqualTo("s3://sp/1");
        assertThat(request.getRequestId()).isEqualTo("t-1");
        assertThat(request.getOptions()).isEqualTo(RequestedOptions.newBuilder()
                .setSavepointFormat(SavepointFormat.NATIVE).build());
    }

    @Test
    void shouldNameEveryOptionThatDoesNotFitWhenASavepointGivesCheckpointOptions() {
        assertRejected("{\"type\":\"SAVEPOINT\",\"checkpointType\":\"FULL\",\"unalignedEnabled\":true,"
                + "\"alignedTimeoutMs\":5}", CheckpointBody.class)
                .hasMessage("checkpointType applies to checkpoints only (a savepoint is always self-contained); "
                        + "choose a savepoint format instead; unalignedEnabled applies to checkpoints only (a "
                        + "savepoint is always aligned, as in Flink); leave it out; alignedTimeoutMs applies to "
                        + "checkpoints only (a savepoint is always aligned, as in Flink); leave it out");
    }

    @Test
    void shouldNameEveryProblemWhenACheckpointGivesSavepointOptionsAndABlankId() {
        assertRejected("{\"targetLocation\":\"s3://bucket/x\",\"formatType\":\"NATIVE\",\"requestId\":\" \"}",
                CheckpointBody.class)
                .hasMessage("requestId is empty; targetLocation applies to savepoints only (a checkpoint is stored "
                        + "under the job's storage base location); formatType applies to savepoints only; choose a "
                        + "backup type (FULL or INCREMENTAL) for a checkpoint");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"alignedTimeoutMs\":-5}|alignedTimeoutMs must be >= 0 but is -5",
            "{\"alignedTimeoutMs\":5,\"unalignedEnabled\":false}|alignedTimeoutMs applies to unaligned checkpoints "
                    + "only (how long to align before switching to unaligned), but this request asks for an aligned "
                    + "one",
            "{\"requestId\":\"a\",\"triggerId\":\"b\"}|requestId and triggerId name the same thing (the request's "
                    + "id); give only one",
    })
    void shouldExplainTheRuleWhenAnOptionIsOutOfRange(String text, String expected) {
        assertRejected(text, CheckpointBody.class).hasMessage(expected);
    }

    @Test
    void shouldNameWrongTypesAndUnknownFieldsTogetherWhenABodyHasBoth() {
        assertRejected("{\"type\":\"snapshot\",\"force\":\"yes\",\"extra\":1}", CheckpointBody.class)
                .hasMessage("type must be one of CHECKPOINT, SAVEPOINT, not the string \"snapshot\"; "
                        + "force must be true or false, not the string \"yes\"; unknown field 'extra' (known fields: "
                        + "alignedTimeoutMs, checkpointType, force, formatType, requestId, targetLocation, triggerId, "
                        + "type, unalignedEnabled)");
        assertRejected("{\"targetLocation\":7}", CheckpointBody.class)
                .hasMessage("targetLocation must be a string, not the number 7");
    }

    @Test
    void shouldRefuseCancelJobAndNameFlinksFieldsWhenASavepointBodyIsWrong() {
        assertRejected("{\"cancelJob\":true,\"targetDirectory\":\"\",\"triggerId\":\"a\",\"requestId\":\"b\"}",
                SavepointBody.class)
                .hasMessage("requestId and triggerId name the same thing (the request's id); give only one; "
                        + "cancelJob: true (cancel with savepoint) is not supported; to stop the job with a savepoint "
                        + "use POST /jobs/{jobId}/stop (with \"drain\": true to drain it first), to cancel it PATCH "
                        + "/jobs/{jobId}?mode=cancel; targetDirectory is empty (leave it out for the job's storage "
                        + "base location)");
    }

    @Test
    void shouldReadFlinksSavepointTriggerBodyWhenItUsesFlinksFieldNames() {
        TriggerRequest request = TriggerBody.read("{\"target-directory\":\"s3://sp/2\",\"cancel-job\":false,"
                + "\"formatType\":\"NATIVE\",\"triggerId\":\"8a3c0f2e9b1d4c5e6f708192a3b4c5d6\"}", SavepointBody.class,
                "job-1", 42L, () -> "generated", InputLimits.DEFAULTS);

        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId("job-1")
                .setRequestId("8a3c0f2e9b1d4c5e6f708192a3b4c5d6").setType(CheckpointType.SAVEPOINT).setForce(null)
                .setTargetLocation("s3://sp/2").setRequester("rest").setTimestampMs(42L)
                .setPostCheckpointAction(PostCheckpointAction.NONE)
                .setOptions(RequestedOptions.newBuilder().setSavepointFormat(SavepointFormat.NATIVE).build())
                .build());
    }

    @Test
    void shouldReadFlinksBodyWithEveryFieldNullWhenFlinksMapperWritesNulls() {
        TriggerRequest request = TriggerBody.read("{\"target-directory\":null,\"cancel-job\":null,"
                + "\"formatType\":null,\"triggerId\":null}", SavepointBody.class, "job-1", 42L, () -> "generated",
                InputLimits.DEFAULTS);

        assertThat(request.getTargetLocation()).isNull();
        assertThat(request.getRequestId()).isEqualTo("generated");
        assertThat(request.getOptions()).isNull();
    }

    @Test
    void shouldNameFlinksFieldsWhenASavepointBodyInFlinksSpellingIsWrong() {
        assertRejected("{\"cancel-job\":true,\"target-directory\":\"\"}", SavepointBody.class)
                .hasMessage("cancel-job: true (cancel with savepoint) is not supported; to stop the job with a "
                        + "savepoint use POST /jobs/{jobId}/stop (with \"drain\": true to drain it first), to cancel "
                        + "it PATCH /jobs/{jobId}?mode=cancel; target-directory is empty (leave it out for the job's "
                        + "storage base location)");
        assertRejected("{\"cancel-job\":\"no\",\"target-directory\":5}", SavepointBody.class)
                .hasMessage("cancel-job must be true or false, not the string \"no\"; target-directory must be a "
                        + "string, not the number 5");
    }

    @Test
    void shouldRefuseASavepointBodyThatGivesAFieldUnderBothNames() {
        assertRejected("{\"target-directory\":\"s3://a\",\"targetDirectory\":\"s3://a\",\"cancel-job\":false,"
                + "\"cancelJob\":false}", SavepointBody.class)
                .hasMessage("target-directory and targetDirectory both say where the savepoint goes; give only one "
                        + "(target-directory is Flink's name); cancel-job and cancelJob both say whether the job is "
                        + "cancelled; give only one (cancel-job is Flink's name)");
    }

    @Test
    void shouldListFlinksAndCairnsNamesWhenASavepointBodyHasAnUnknownField() {
        assertRejected("{\"target_directory\":\"s3://a\"}", SavepointBody.class)
                .hasMessage("unknown field 'target_directory' (known fields: cancel-job, cancelJob, formatType, "
                        + "requestId, target-directory, targetDirectory, triggerId)");
    }

    @Test
    void shouldAskForASavepointWhenTheSavepointBodyIsEmpty() {
        TriggerRequest request = TriggerBody.read("", SavepointBody.class, "job-1", 42L, () -> "generated",
                InputLimits.DEFAULTS);

        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getPostCheckpointAction()).isEqualTo(PostCheckpointAction.NONE);
        assertThat(request.getForce()).as("Flink's default").isNull();
    }

    @ParameterizedTest
    @CsvSource({"true, TERMINATE", "false, SUSPEND"})
    void shouldStopWithASavepointWhenTheStopBodyAsksWithOrWithoutDrain(boolean drain, PostCheckpointAction action) {
        TriggerRequest request = TriggerBody.read("{\"drain\":" + drain + ",\"formatType\":\"NATIVE\","
                + "\"targetDirectory\":\"s3://sp\",\"triggerId\":\"t1\"}", StopBody.class, "job-1", 42L, () -> "x",
                InputLimits.DEFAULTS);

        assertThat(request.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(request.getPostCheckpointAction()).isEqualTo(action);
        assertThat(request.getTargetLocation()).isEqualTo("s3://sp");
        assertThat(request.getRequestId()).isEqualTo("t1");
        assertThat(request.getOptions().getSavepointFormat()).isEqualTo(SavepointFormat.NATIVE);
    }

    @Test
    void shouldExplainTheBodyWhenAStopBodyIsNotAnObjectOrHasAnUnknownField() {
        assertRejected("[]", StopBody.class).hasMessage("the body must be a JSON object like "
                + TriggerBody.EXAMPLE + ", not an array []");
        assertRejected("{\"drain\":1,\"cancelJob\":true}", StopBody.class)
                .hasMessageContaining("drain must be true or false, not the number 1")
                .hasMessageContaining("unknown field 'cancelJob'");
    }

    private static TriggerRequest checkpoint(String text) {
        return TriggerBody.read(text, CheckpointBody.class, "job-1", 42L, () -> "generated", InputLimits.DEFAULTS);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(String text,
            Class<? extends TriggerBody> type) {
        return assertThatThrownBy(() -> TriggerBody.read(text, type, "job-1", 42L, () -> "generated",
                InputLimits.DEFAULTS))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
