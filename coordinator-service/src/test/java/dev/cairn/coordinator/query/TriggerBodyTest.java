package dev.cairn.coordinator.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.CheckpointType;
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

        assertThat(body).isEqualTo(new TriggerBody(CheckpointType.SAVEPOINT, true, "s3://sp/1", "r-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  \n", "{}", "{\"type\":null,\"force\":null,\"targetLocation\":null}"})
    void shouldAskForAPlainCheckpointWhenFieldsAreLeftOut(String text) {
        assertThat(TriggerBody.parse(text)).isEqualTo(new TriggerBody(CheckpointType.CHECKPOINT, false, null, null));
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
                .hasMessage("unknown field 'typ' (known fields: type, force, targetLocation, requestId)");
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
