package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.rest.ApiException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A cancellation checked against the view of the job that the instance owning it answered: the status it names, and
 * views that name none.
 */
class JobCancellationTest {

    @ParameterizedTest
    @ValueSource(strings = {"FINISHED", "FAILED"})
    void shouldRefuseWith409WhenTheOwnersViewSaysTheJobEnded(String status) {
        String state = JobCancellation.statusOfView(view("{\"jid\":\"j\",\"state\":\"" + status + "\"}"));

        assertThatThrownBy(() -> JobCancellation.requireCancellable("j", state))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409))
                .hasMessage("job 'j' is " + status + " already, so it cannot be cancelled");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"state\":\"RUNNING\"}", "{\"state\":\"CANCELED\"}", "{\"state\":7}", "{}", "not json"})
    void shouldLeaveTheDecisionToTheCoordinatorWhenTheViewNamesNoEndedStatus(String view) {
        String state = JobCancellation.statusOfView(view(view));

        assertThatCode(() -> JobCancellation.requireCancellable("j", state)).doesNotThrowAnyException();
    }

    @Test
    void shouldTakeABlankBodyAndNoQueryAsFlinksDefaultCancel() {
        assertThatCode(() -> JobCancellation.requireCancel(null, " ")).doesNotThrowAnyException();
        assertThatCode(() -> JobCancellation.requireCancel("", "{ }")).doesNotThrowAnyException();
    }

    @Test
    void shouldNameAParameterWithoutAValueWhenTheQueryHasOne() {
        assertThatThrownBy(() -> JobCancellation.requireCancel("mode", null))
                .hasMessage("mode must be cancel (Flink's termination mode), not ''");
        assertThatThrownBy(() -> JobCancellation.requireCancel("mode=%ZZ", null))
                .hasMessage("malformed percent-encoding in the query: '%ZZ'");
    }

    private static byte[] view(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
