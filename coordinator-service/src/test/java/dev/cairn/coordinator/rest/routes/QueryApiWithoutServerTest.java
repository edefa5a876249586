package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** {@link QueryApi} on its own: requests in, answers out, no HTTP server. */
class QueryApiWithoutServerTest {

    private static final String SPEC = "{\"tasks\":[{\"taskId\":\"s\",\"parallelism\":1}],"
            + "\"config\":{\"intervalMs\":1000,\"timeoutMs\":1000,\"storageBaseLocation\":\"file:///x\"}}";

    private final List<RequestEnvelope> published = new CopyOnWriteArrayList<>();
    private final QueryApi api = new QueryApi(new FixedStateSource(new JobLocation.Unavailable("restoring")),
            new AlwaysUp(), (jobId, request) -> published.add(request), TestTokens.mutations(),
            new Forwarder("self:1"), "self:1", () -> 42L, InputLimits.DEFAULTS);

    @Test
    void shouldPublishTheSpecOfAnAuthorizedPutStampedByItsClock() {
        HttpAnswer answer = api.answer(request("PUT", Map.of("AUTHORIZATION", List.of("Bearer " + TestTokens.OPS))));

        assertThat(answer.status()).isEqualTo(202);
        assertThat(answer.headers()).containsEntry(Forwarder.SERVED_BY, "self:1");
        assertThat(published).singleElement()
                .satisfies(request -> assertThat(((JobSpec) request.getEvent()).getTimestampMs()).isEqualTo(42L));
    }

    @Test
    void shouldAnswer401WithTheBearerChallengeWhenTheTokenIsMissing() {
        HttpAnswer answer = api.answer(request("PUT", Map.of()));

        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.headers()).containsEntry("WWW-Authenticate", "Bearer realm=\"cairn\"");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldRefuseARequestIdWithAControlCharacterBeforeLookingForTheJob() {
        HttpAnswer answer = api.answer(new ApiRequest("GET", "/jobs/job-1/savepoints/bad%7Fid", null, Map.of(),
                new byte[0]));

        assertThat(answer.status()).isEqualTo(400);
        assertThat(new String(answer.body(), StandardCharsets.UTF_8))
                .contains("request id must not contain control characters");
    }

    @Test
    void shouldRefuseASpecWhoseStorageBaseHasASchemeTheCoordinatorDoesNotAllow() {
        QueryApi onlyS3 = new QueryApi(new FixedStateSource(new JobLocation.Unavailable("restoring")),
                new AlwaysUp(), (jobId, request) -> published.add(request), TestTokens.mutations(),
                new Forwarder("self:1"), "self:1", () -> 42L, InputLimits.DEFAULTS.withLocationSchemes(List.of("s3")));

        HttpAnswer answer = onlyS3.answer(request("PUT", Map.of("AUTHORIZATION", List.of("Bearer " + TestTokens.OPS))));

        assertThat(answer.status()).isEqualTo(400);
        assertThat(new String(answer.body(), StandardCharsets.UTF_8))
                .contains("has the scheme 'file', which is not allowed; allowed: s3");
        assertThat(published).isEmpty();
    }

    private static ApiRequest request(String method, Map<String, List<String>> headers) {
        return new ApiRequest(method, "/jobs/job-1", null, headers, SPEC.getBytes(StandardCharsets.UTF_8));
    }
}
