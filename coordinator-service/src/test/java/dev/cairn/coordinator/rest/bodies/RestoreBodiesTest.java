package dev.cairn.coordinator.rest.bodies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The bodies of {@code POST /jobs/{jobId}/restore} and {@code POST /jobs/{jobId}/savepoints/dispose}. */
class RestoreBodiesTest {

    @Test
    void shouldRestoreFromTheNamedSavepointInTheModeAsked() {
        RestoreJob restore = restore(
                "{\"savepointPath\":\"s3://sp/4\",\"restoreMode\":\"CLAIM\",\"requestId\":\"r-1\"}");

        assertThat(restore).isEqualTo(RestoreJob.newBuilder().setJobId("job-1").setRequestId("r-1")
                .setSavepointPath("s3://sp/4").setCheckpointId(null).setRestoreMode(RestoreMode.CLAIM)
                .setRequester("rest").setTimestampMs(42L).build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "{}", "{\"savepointPath\":null,\"checkpointId\":null,\"restoreMode\":null}"})
    void shouldRestoreTheJobsRestorePointInNoClaimModeWhenTheBodyNamesNothing(String text) {
        RestoreJob restore = restore(text);

        assertThat(restore.getCheckpointId()).isNull();
        assertThat(restore.getSavepointPath()).isNull();
        assertThat(restore.getRestoreMode()).isEqualTo(RestoreMode.NO_CLAIM);
        assertThat(restore.getRequestId()).isEqualTo("generated");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"restoreMode\":\"LEGACY\"}|restoreMode must be one of CLAIM, NO_CLAIM, not the string \"LEGACY\"",
            "{\"checkpointId\":\"twelve\"}|checkpointId must be a whole number, not the string \"twelve\"",
            "{\"checkpointId\":-3}|checkpointId must be a checkpoint id (>= 0), not -3",
            "{\"checkpointId\":4,\"savepointPath\":\"s3://sp/4\"}|savepointPath and checkpointId both name the point "
                    + "to restore; give one of them (or neither, for the job's restore point)",
            "{\"savepointPath\":\" \"}|savepointPath is empty",
            "[1]|the body must be a JSON object like",
    })
    void shouldSayWhatIsWrongWithAMalformedRestoreBody(String text, String expected) {
        assertThatThrownBy(() -> restore(text)).isInstanceOf(ApiException.class)
                .hasMessageContaining(expected).extracting("status").isEqualTo(400);
    }

    @Test
    void shouldNameTheKnownFieldsWhenARestoreBodyHasAnUnknownOne() {
        assertThatThrownBy(() -> restore("{\"allowNonRestoredState\":true}"))
                .hasMessage("unknown field 'allowNonRestoredState' (known fields: checkpointId, requestId, "
                        + "restoreMode, savepointPath)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"savepoint-path\":\"s3://sp/1\"}|s3://sp/1|",
            "{\"savepointPath\":\"s3://sp/1\"}|s3://sp/1|",
            "{\"checkpointId\":7}||7",
    })
    void shouldDisposeOfTheSavepointNamedByFlinksPathOrByIdOrPath(String text, String path, Long id) {
        DisposeSavepoint dispose = RestoreBodies.dispose(text, "job-1", 42L, () -> "generated", InputLimits.DEFAULTS);

        assertThat(dispose.getSavepointPath()).isEqualTo(path);
        assertThat(dispose.getCheckpointId()).isEqualTo(id);
        assertThat(dispose.getRequestId()).isEqualTo("generated");
        assertThat(dispose.getRequester()).isEqualTo("rest");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{}|name the savepoint to dispose of: savepoint-path (or savepointPath), or checkpointId",
            "{\"savepoint-path\":\"s3://sp/1\",\"checkpointId\":1}|savepoint-path, savepointPath and checkpointId each "
                    + "name the savepoint to dispose of; give only one",
            "{\"checkpointId\":-1}|checkpointId must be a checkpoint id (>= 0), not -1",
            "{\"checkpointId\":1.5}|checkpointId must be a whole number",
    })
    void shouldSayWhatIsWrongWithAMalformedDisposalBody(String text, String expected) {
        assertThatThrownBy(() -> RestoreBodies.dispose(text, "job-1", 42L, () -> "x", InputLimits.DEFAULTS))
                .isInstanceOf(ApiException.class).hasMessageContaining(expected);
    }

    private static RestoreJob restore(String text) {
        return RestoreBodies.restore(text, "job-1", 42L, () -> "generated", InputLimits.DEFAULTS);
    }
}
