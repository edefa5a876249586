package dev.cairn.coordinator.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.rest.sources.FixedStateSource;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.core.contract.InputLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The web page at {@code /} and its assets, served beside the REST API by the same server. */
class WebPageHandlerTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private QueryServer server;

    @BeforeEach
    void startServerWhoseReadsNeedATokenAndThatOwnsNoJob() {
        server = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.readsToo()));
        server.start(new FixedStateSource(new JobLocation.Remote("127.0.0.1", 1)), new AlwaysUp(),
                (jobId, request) -> { }, InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldServeThePageAtTheRootWithoutATokenAndOnlyScriptsOfItsOwnOrigin() throws Exception {
        HttpResponse<String> page = send("GET", "/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString()
                .contains("script-src 'self'").contains("connect-src 'self'");
        assertThat(page.body()).contains("<script src=\"/ui/app.js\" defer></script>").contains("id=\"jobs\"");
    }

    @Test
    void shouldServeEachAssetWithItsContentType() throws Exception {
        assertThat(send("GET", "/ui/app.js").headers().firstValue("Content-Type"))
                .hasValue("text/javascript; charset=utf-8");
        assertThat(send("GET", "/ui/charts.js").body()).contains("window.CairnCharts");
        assertThat(send("GET", "/ui/style.css").headers().firstValue("Content-Type"))
                .hasValue("text/css; charset=utf-8");
        assertThat(send("GET", "/ui/favicon.svg").headers().firstValue("Content-Type")).hasValue("image/svg+xml");
    }

    @Test
    void shouldAnswerHeadWithTheLengthAndNoBody() throws Exception {
        HttpResponse<String> head = send("HEAD", "/");

        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValueAsLong("Content-Length"))
                .hasValue(send("GET", "/").body().getBytes(StandardCharsets.UTF_8).length);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void shouldLeaveUnknownAssetsAndApiPathsToTheApi() throws Exception {
        HttpResponse<String> unknown = send("GET", "/ui/../../etc/passwd");
        HttpResponse<String> missing = send("GET", "/ui/missing.js");
        HttpResponse<String> api = send("GET", "/jobs");

        assertThat(unknown.statusCode()).isIn(400, 404);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).startsWith("{\"error\":\"no endpoint GET /ui/missing.js");
        assertThat(api.statusCode()).as("the API still needs a token for reads").isEqualTo(401);
    }

    @Test
    void shouldAnswer405ForAMethodOtherThanGetOrHeadOnThePage() throws Exception {
        HttpResponse<String> post = send("POST", "/");

        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(post.body()).isEqualTo("{\"error\":\"POST is not allowed on the web page; allowed: GET, HEAD\"}");
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.uri() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
