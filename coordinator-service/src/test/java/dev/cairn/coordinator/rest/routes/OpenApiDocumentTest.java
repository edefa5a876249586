package dev.cairn.coordinator.rest.routes;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI document generated from the {@link Route} table: valid as a parser reads it, naming every route (also
 * under {@code /v1}) with its parameters, body and answer, served at {@code /openapi.json}, and checked into
 * {@code docs/rest-openapi.json}, which this regenerates with {@code -Dcairn.write-openapi=true}.
 */
class OpenApiDocumentTest {

    static final Path CHECKED_IN = Path.of("..").toAbsolutePath().normalize().resolve("docs/rest-openapi.json");
    private static final String REGENERATE = "mvn -B -o -q -pl coordinator-service -am test "
            + "-Dtest=OpenApiDocumentTest -Dsurefire.failIfNoSpecifiedTests=false -Dcairn.write-openapi=true";

    @TempDir
    Path stateDir;

    @Test
    void shouldKeepTheCheckedInDocumentEqualToTheGeneratedOne() throws IOException {
        String generated = new String(OpenApiDocument.JSON, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("cairn.write-openapi")) {
            Files.writeString(CHECKED_IN, generated);
        }

        assertThat(Files.readString(CHECKED_IN)).as("%s is out of date; regenerate it with: %s", CHECKED_IN,
                REGENERATE).isEqualTo(generated);
    }

    @Test
    void shouldParseWithoutProblemsAndNameEveryRouteUnderBothPrefixes() {
        OpenAPI api = parsed();

        for (Route route : Route.values()) {
            assertThat(operation(api, route.path(), route.method())).as("%s %s", route.method(), route.path())
                    .isTrue();
            if (route.handler != null) {
                assertThat(operation(api, "/v1" + route.path(), route.method())).as("%s /v1%s", route.method(),
                        route.path()).isTrue();
            }
        }
        assertThat(api.getPaths()).doesNotContainKeys("/v1/metrics", "/v1/");
    }

    @Test
    void shouldDescribeFlinksFieldNamesAndTheNewStatisticsInTheSchemas() {
        Map<String, Schema> schemas = parsed().getComponents().getSchemas();

        assertThat(schemas.get("Body.SavepointBody").getProperties()).containsKeys("target-directory",
                "cancel-job", "formatType", "triggerId", "targetDirectory", "cancelJob", "requestId");
        assertThat(schemas.get("Body.StopBody").getProperties()).containsKeys("targetDirectory", "drain",
                "formatType", "triggerId");
        assertThat(schemas.get("Body.CheckpointBody").getProperties()).containsKeys("checkpointType", "triggerId");
        assertThat(schemas.get("ApiViews.Counts").getProperties()).containsKeys("restored", "total", "in_progress",
                "completed", "failed");
        assertThat(schemas.get("ApiViews.Figures").getProperties()).containsKeys("min", "max", "avg", "p50", "p90",
                "p95", "p99", "p999");
        assertThat(schemas.get("ApiViews.Restored").getProperties()).containsOnlyKeys("id", "restore_timestamp",
                "is_savepoint", "external_path");
        assertThat(schemas.get("ApiViews.Triggered").getProperties()).containsOnlyKeys("request-id");
    }

    @Test
    void shouldTakeTheModeOfACancellationAndABearerTokenForAChange() {
        OpenAPI api = parsed();

        var cancel = api.getPaths().get("/v1/jobs/{jobId}").getPatch();
        assertThat(cancel.getParameters()).extracting(p -> p.getIn() + ":" + p.getName())
                .containsExactly("path:jobId", "query:mode");
        assertThat(cancel.getParameters().get(1).getSchema().getEnum()).containsExactly("cancel");
        assertThat(cancel.getResponses()).containsKeys("202", "default");
        assertThat(cancel.getSecurity()).isNotEmpty();
        assertThat(api.getPaths().get("/jobs/{jobId}").getGet().getSecurity()).isNull();
    }

    @Test
    void shouldServeTheDocumentAtBothPaths() {
        try (PublishingApi api = PublishingApi.start(stateDir, spec("job-1", task("source", 1)))) {
            HttpResponse<String> plain = api.client(null).get("/openapi.json");
            HttpResponse<String> versioned = api.client(null).get("/v1/openapi.json");

            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(plain.body()).isEqualTo(new String(OpenApiDocument.JSON, StandardCharsets.UTF_8));
            assertThat(versioned.body()).isEqualTo(plain.body());
        }
    }

    private static OpenAPI parsed() {
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(new String(OpenApiDocument.JSON,
                StandardCharsets.UTF_8));
        assertThat(result.getMessages()).as("the parser's messages").isEmpty();
        assertThat(result.getOpenAPI()).isNotNull();
        return result.getOpenAPI();
    }

    private static boolean operation(OpenAPI api, String path, String method) {
        PathItem item = api.getPaths().get(path);
        return item != null && item.readOperationsMap().containsKey(PathItem.HttpMethod.valueOf(method));
    }
}
