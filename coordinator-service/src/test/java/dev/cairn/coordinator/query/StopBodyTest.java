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

/** The stop-with-savepoint body (Flink's {@code flink stop}): what is accepted, and what a malformed one is told. */
class StopBodyTest {

    @Test
    void shouldAskForAStopWithSavepointThatDrainsWhenDrainIsTrue() {
        TriggerRequest request = StopBody.parse("{\"targetDirectory\":\"s3://sp\",\"drain\":true,"
                + "\"formatType\":\"NATIVE\",\"triggerId\":\"stop-1\"}").toRequest("job-1", "generated", 42L);

        assertThat(request).isEqualTo(TriggerRequest.newBuilder().setJobId("job-1").setRequestId("stop-1")
                .setType(CheckpointType.SAVEPOINT).setForce(null).setTargetLocation("s3://sp").setRequester("rest")
                .setTimestampMs(42L).setPostCheckpointAction(PostCheckpointAction.TERMINATE)
                .setOptions(RequestedOptions.newBuilder().setSavepointFormat(SavepointFormat.NATIVE).build())
                .build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{}", "{\"drain\":false}", "{\"drain\":null,\"targetDirectory\":null}"})
    void shouldSuspendTheJobWithTheJobsSavepointFormatWhenFieldsAreLeftOut(String text) {
        assertThat(StopBody.parse(text)).isEqualTo(new TriggerBody(CheckpointType.SAVEPOINT, null, null, null,
                PostCheckpointAction.SUSPEND, null));
    }

    @Test
    void shouldAcceptCairnsRequestIdForFlinksTriggerId() {
        assertThat(StopBody.parse("{\"requestId\":\"r-1\"}").requestId()).isEqualTo("r-1");
    }

    @Test
    void shouldNameEveryMalformedFieldAtOnce() {
        assertRejected("{\"targetDirectory\":7,\"drain\":\"yes\",\"formatType\":\"NATIVE_\",\"triggerId\":\" \"}")
                .hasMessage("targetDirectory must be a string or null, not the number 7; "
                        + "drain must be true or false, not the string \"yes\"; "
                        + "formatType must be one of CANONICAL, NATIVE, not the string \"NATIVE_\"; "
                        + "triggerId must not be blank (leave it out instead)");
    }

    @Test
    void shouldNameAnUnknownFieldAndTheKnownOnes() {
        assertRejected("{\"force\":true}").hasMessage("unknown field 'force' (known fields: targetDirectory, drain, "
                + "formatType, triggerId, requestId)");
    }

    @Test
    void shouldRejectABodyThatIsNotAnObject() {
        assertRejected("[true]").hasMessageStartingWith("the body must be a JSON object like");
        assertRejected("{\"drain\":").hasMessageStartingWith("malformed JSON");
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(String text) {
        return assertThatThrownBy(() -> StopBody.parse(text))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
