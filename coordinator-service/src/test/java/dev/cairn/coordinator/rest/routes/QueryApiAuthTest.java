package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.client.Json;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.access.AccessPolicy;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.RequestEnvelope;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Bearer tokens on the REST API: who may change (and, if so configured, read) which jobs. */
class QueryApiAuthTest {

    private static final String SPEC = "{\"tasks\":[{\"taskId\":\"s\",\"parallelism\":1}],"
            + "\"config\":{\"intervalMs\":1000,\"timeoutMs\":1000,\"storageBaseLocation\":\"file:///x\"}}";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<String> published = new CopyOnWriteArrayList<>();
    private final List<QueryServer> servers = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(QueryServer::close);
    }

    @Test
    void shouldAnswer401WhenTheTokenIsMissing() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Local(0));

        HttpResponse<String> response = put(server, "/jobs/job-1");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"cairn\"");
        assertThat(error(response)).isEqualTo("this request needs an 'Authorization: Bearer <token>' header");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer401ForAnUnknownToken() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Local(0));

        HttpResponse<String> response = put(server, "/jobs/job-1", "Bearer not-a-known-token-at-all");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"cairn\"");
        assertThat(error(response)).isEqualTo("unknown bearer token");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldAnswer401ForAuthorizationHeadersThatAreNotOneBearerToken() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Local(0));

        assertThat(error(put(server, "/jobs/job-1", "Basic b3BzOnNlY3JldA=="))).isEqualTo(
                "the Authorization header uses the scheme 'Basic'; this API takes 'Authorization: Bearer <token>'");
        assertThat(error(put(server, "/jobs/job-1", "Bearer"))).isEqualTo(
                "the Authorization header has no token after 'Bearer'");
        assertThat(error(put(server, "/jobs/job-1", "Bearer " + TestTokens.OPS + " " + TestTokens.CI)))
                .startsWith("malformed bearer token");
        assertThat(error(put(server, "/jobs/job-1", "Bearer short"))).startsWith("malformed bearer token");
        HttpResponse<String> twoHeaders = http.send(request(server, "/jobs/job-1")
                .header("Authorization", "Bearer " + TestTokens.OPS).header("Authorization", "Bearer " + TestTokens.CI)
                .PUT(HttpRequest.BodyPublishers.ofString(SPEC)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(twoHeaders.statusCode()).isEqualTo(401);
        assertThat(error(twoHeaders)).startsWith("more than one Authorization header");
        assertThat(published).isEmpty();
    }

    @Test
    void shouldTreatEveryMethodButGetAsAMutationThatNeedsAToken() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Local(0));

        HttpResponse<String> delete = http.send(request(server, "/jobs/job-1/checkpoints").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> deleteWithToken = http.send(request(server, "/jobs/job-1/checkpoints")
                .header("Authorization", "Bearer " + TestTokens.OPS).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(delete.statusCode()).isEqualTo(401);
        assertThat(deleteWithToken.statusCode()).isEqualTo(405);
    }

    @Test
    void shouldAcceptTheBearerSchemeInAnyCase() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Local(0));

        assertThat(put(server, "/jobs/job-1", "bearer " + TestTokens.OPS).statusCode()).isEqualTo(202);
        assertThat(published).containsExactly("job-1");
    }

    @Test
    void shouldAnswer403WhenTheTokenDoesNotCoverTheJob() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Local(0));

        HttpResponse<String> outOfScope = put(server, "/jobs/prod-1", "Bearer " + TestTokens.CI);
        HttpResponse<String> inScope = put(server, "/jobs/ci-7", "Bearer " + TestTokens.CI);

        assertThat(outOfScope.statusCode()).isEqualTo(403);
        assertThat(error(outOfScope)).isEqualTo("principal 'ci' may not act on job 'prod-1' "
                + "(its tokens file entry covers ci-*)");
        assertThat(inScope.statusCode()).isEqualTo(202);
        assertThat(published).containsExactly("ci-7");
    }

    @Test
    void shouldCheckTheTokenOfATriggerBeforeLookingAtTheJob() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Unavailable("rebalancing"));

        HttpResponse<String> response = http.send(request(server, "/jobs/prod-1/checkpoints")
                .header("Authorization", "Bearer " + TestTokens.CI)
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(403);
    }

    @Test
    void shouldNeedATokenCoveringTheJobToStopItOrTakeASavepoint() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Unavailable("rebalancing"));

        for (String path : List.of("/jobs/prod-1/stop", "/jobs/prod-1/savepoints")) {
            HttpResponse<String> anonymous = http.send(request(server, path)
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> outOfScope = http.send(request(server, path)
                    .header("Authorization", "Bearer " + TestTokens.CI)
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
            assertThat(outOfScope.statusCode()).as(path).isEqualTo(403);
        }
        assertThat(published).isEmpty();
    }

    @Test
    void shouldRefuseEveryMutationWith403AndSayHowToEnableThemWhenNoTokensFileIsConfigured() throws Exception {
        QueryServer server = start(AccessPolicy.readOnly(), new JobLocation.Unavailable("rebalancing"));

        HttpResponse<String> put = put(server, "/jobs/job-1", "Bearer " + TestTokens.OPS);
        HttpResponse<String> post = http.send(request(server, "/jobs/job-1/checkpoints")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(put.statusCode()).isEqualTo(403);
        assertThat(post.statusCode()).isEqualTo(403);
        assertThat(error(post)).contains("read-only").contains("--http-tokens-file").contains("CAIRN_HTTP_TOKENS_FILE");
        assertThat(get(server, "/jobs/job-1", null).statusCode()).isEqualTo(503);
        assertThat(published).isEmpty();
    }

    @Test
    void shouldLetReadsThroughWithoutATokenUnlessConfiguredOtherwise() throws Exception {
        QueryServer open = start(TestTokens.mutations(), new JobLocation.Unavailable("rebalancing"));
        QueryServer closed = start(TestTokens.readsToo(), new JobLocation.Unavailable("rebalancing"));

        assertThat(get(open, "/jobs/prod-1", null).statusCode()).isEqualTo(503);
        assertThat(get(closed, "/jobs/prod-1", null).statusCode()).isEqualTo(401);
        assertThat(get(closed, "/jobs/prod-1", "Bearer " + TestTokens.CI).statusCode()).isEqualTo(403);
        assertThat(get(closed, "/jobs/prod-1", "Bearer " + TestTokens.OPS).statusCode()).isEqualTo(503);
    }

    @Test
    void shouldPassTheCallersTokenOnWhenForwardingAReadThatNeedsOne() throws Exception {
        QueryServer owner = start(TestTokens.readsToo(), new JobLocation.Unavailable("restoring"));
        QueryServer asked = start(TestTokens.readsToo(), new JobLocation.Remote("127.0.0.1", owner.port()));

        HttpResponse<String> response = get(asked, "/jobs/job-1", "Bearer " + TestTokens.OPS);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("X-Cairn-Served-By")).hasValue(owner.applicationServer());
        assertThat(error(response)).contains("restoring");
    }

    @Test
    void shouldLogThePrincipalOfAMutationButNeverItsToken() throws Exception {
        QueryServer server = start(TestTokens.mutations(), new JobLocation.Local(0));
        Logger logger = (Logger) LoggerFactory.getLogger(QueryApi.class);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        logger.addAppender(log);
        try {
            assertThat(put(server, "/jobs/job-1", "Bearer " + TestTokens.OPS).statusCode()).isEqualTo(202);
        } finally {
            logger.detachAppender(log);
        }

        assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).contains("ops registered job job-1"))
                .noneSatisfy(line -> assertThat(line).contains(TestTokens.OPS));
    }

    private QueryServer start(AccessPolicy access, JobLocation location) {
        QueryServer server = QueryServer.bind(QueryServerConfig.loopback().withAccess(access));
        servers.add(server);
        server.start(new FixedStateSource(location), new AlwaysUp(), this::publish,
                InputLimits.DEFAULTS, UnaryOperator.identity());
        return server;
    }

    private void publish(String jobId, RequestEnvelope request) {
        published.add(jobId);
    }

    private HttpRequest.Builder request(QueryServer server, String path) {
        return HttpRequest.newBuilder(URI.create(server.uri() + path)).header("Content-Type", "application/json");
    }

    private HttpResponse<String> put(QueryServer server, String path) throws IOException, InterruptedException {
        return http.send(request(server, path).PUT(HttpRequest.BodyPublishers.ofString(SPEC)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> put(QueryServer server, String path, String authorization)
            throws IOException, InterruptedException {
        return http.send(request(server, path).header("Authorization", authorization)
                .PUT(HttpRequest.BodyPublishers.ofString(SPEC)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(QueryServer server, String path, String authorizationOrNull)
            throws IOException, InterruptedException {
        HttpRequest.Builder builder = request(server, path).GET();
        if (authorizationOrNull != null) {
            builder.header("Authorization", authorizationOrNull);
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String error(HttpResponse<String> response) throws IOException {
        return Json.MAPPER.readTree(response.body()).get("error").asText();
    }
}
