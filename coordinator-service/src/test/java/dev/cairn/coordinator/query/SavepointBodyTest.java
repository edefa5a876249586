package dev.cairn.coordinator.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Flink's savepoint trigger body ({@code flink savepoint}): what is accepted, and what a malformed one is told. */
class SavepointBodyTest {

    @Test
    void shouldAskForASavepointWithItsDirectoryFormatAndTriggerId() {
        TriggerRequest request = SavepointBody.parse("{\"targetDirectory\":\"s3://sp\",\"formatType\":\"NATIVE\","
                + "\"cancelJob\":false,\"triggerId\":\"sp-1\"}").toRequest("job-1", "generated", 42L);

        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId("job-1").setRequestId("sp-1")
                .setType(CheckpointType.SAVEPOINT).setForce(null).setTargetLocation("s3://sp").setRequester("rest")
                .setTimestampMs(42L).setPostCheckpointAction(PostCheckpointAction.NONE)
                .setOptions(RequestedOptions.newBuilder().setSavepointFormat(SavepointFormat.NATIVE).build())
                .build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{}", "{\"cancelJob\":false}", "{\"formatType\":null}"})
    void shouldAskForASavepointWithTheJobsDefaultsWhenFieldsAreLeftOut(String text) {
        assertThat(SavepointBody.parse(text)).isEqualTo(new TriggerBody(CheckpointType.SAVEPOINT, null, null, null,
                PostCheckpointAction.NONE, null));
    }

    @Test
    void shouldRefuseCancelJobAndPointToStop() {
        assertRejected("{\"cancelJob\":true}").hasMessageStartingWith("cancelJob: true (cancel with savepoint) is not "
                + "supported").hasMessageContaining("POST /jobs/{jobId}/stop");
    }

    @Test
    void shouldNameEveryMalformedFieldAtOnce() {
        assertRejected("{\"targetDirectory\":\"\",\"formatType\":1,\"cancelJob\":\"no\",\"requestId\":[]}")
                .hasMessage("targetDirectory must not be blank (leave it out instead); "
                        + "formatType must be one of CANONICAL, NATIVE, not the number 1; "
                        + "cancelJob must be true or false, not the string \"no\"; "
                        + "requestId must be a string or null, not an array []");
    }

    @Test
    void shouldNameAnUnknownFieldAndTheKnownOnes() {
        assertRejected("{\"drain\":true}").hasMessage("unknown field 'drain' (known fields: targetDirectory, "
                + "formatType, cancelJob, triggerId, requestId)");
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(String text) {
        return assertThatThrownBy(() -> SavepointBody.parse(text))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
