package dev.cairn.coordinator.rest.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cairn.client.Json;
import dev.cairn.core.views.ApiViews;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.core.converter.ResolvedSchema;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.jackson.TypeNameResolver;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The REST API as an OpenAPI 3 document, generated from the {@link Route} table: every route's method and path (and
 * the same under {@code /v1}), its path and query parameters, the schema of its body (read with the request names:
 * Cairn's and Flink's) and of its answer (as {@link Json#MAPPER} writes it, snake_case), its success status, and who
 * may call it (a bearer token for a change). Served at {@code GET /openapi.json} and checked into
 * {@code docs/rest-openapi.json}; schemas are named after their classes ({@code ApiViews.Counts}), a body's with the
 * prefix {@code Body.}.
 */
final class OpenApiDocument {

    /** The document, as served: pretty-printed JSON, one trailing newline. */
    static final byte[] JSON = (io.swagger.v3.core.util.Json.pretty(build()) + "\n").getBytes(StandardCharsets.UTF_8);

    private static final String BEARER = "bearer";
    private static final String ERROR = "ApiViews.Error";

    private OpenApiDocument() {
    }

    /** The document of every route. */
    static OpenAPI build() {
        Map<String, Schema> schemas = new TreeMap<>();
        ModelConverters answers = converters(Json.MAPPER.copy(), "");
        ModelConverters bodies = converters(JsonMapper.builder().build(), "Body.");
        Paths paths = new Paths();
        for (String prefix : List.of("", "/" + Route.VERSION)) {
            for (Route route : Route.values()) {
                if (route.handler == null && !prefix.isEmpty()) {
                    continue;
                }
                String path = prefix + route.path();
                PathItem item = paths.computeIfAbsent(path, p -> new PathItem());
                item.operation(PathItem.HttpMethod.valueOf(route.method()),
                        operation(route, prefix, answers, bodies, schemas));
            }
        }
        resolve(answers, ApiViews.Error.class, schemas);
        return new OpenAPI().info(new Info().title("Cairn coordinator REST API").version(Route.VERSION)
                        .description("Every route of a coordinator, also under /v1 as Flink serves its API. "
                                + "docs/rest.md describes each next to the Flink route it mirrors."))
                .paths(paths)
                .components(new Components().schemas(schemas).addSecuritySchemes(BEARER,
                        new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")));
    }

    private static Operation operation(Route route, String prefix, ModelConverters answers, ModelConverters bodies,
            Map<String, Schema> schemas) {
        Shape shape = route.shape;
        Operation operation = new Operation().operationId(operationId(route, prefix))
                .summary(route.summary != null ? route.summary : "the same as " + Route.CHECKPOINT.path())
                .description(route.flink != null ? "Flink: " + route.flink : null);
        for (String placeholder : route.path().split("/")) {
            if (placeholder.startsWith("{")) {
                String name = placeholder.substring(1, placeholder.length() - 1);
                Schema<?> value = name.equals("checkpointId") ? new IntegerSchema().format("int64")
                        : new StringSchema();
                operation.addParametersItem(new Parameter().in("path").name(name).required(true).schema(value));
            }
        }
        for (String query : shape.query()) {
            String[] nameAndValues = query.split("=", 2);
            StringSchema values = new StringSchema();
            Arrays.stream(nameAndValues[1].split("\\|")).forEach(values::addEnumItem);
            operation.addParametersItem(new Parameter().in("query").name(nameAndValues[0]).required(false)
                    .schema(values));
        }
        if (shape.body() != null) {
            operation.requestBody(new RequestBody().required(false).content(new Content().addMediaType(Shape.JSON,
                    new MediaType().schema(resolve(bodies, shape.body(), schemas)))));
        }
        Schema<?> answer = shape.answer() != null ? resolve(answers, shape.answer(), schemas)
                : shape.mediaType().equals(Shape.JSON) ? new ObjectSchema() : new StringSchema();
        ApiResponses responses = new ApiResponses().addApiResponse(String.valueOf(shape.status()), new ApiResponse()
                .description(shape.status() == 202 ? "accepted" : "OK")
                .content(new Content().addMediaType(shape.mediaType(), new MediaType().schema(answer))));
        if (route.access() == Route.Access.PROBE && route.handler != null) {
            responses.addApiResponse("503", new ApiResponse().description("down, and why")
                    .content(new Content().addMediaType(Shape.JSON, new MediaType().schema(answer))));
        }
        responses.addApiResponse("default", new ApiResponse().description("an error, and what is wrong")
                .content(new Content().addMediaType(Shape.JSON, new MediaType()
                        .schema(new Schema<>().$ref("#/components/schemas/" + ERROR)))));
        operation.responses(responses);
        if (route.access() == Route.Access.JOB_CHANGE) {
            operation.addSecurityItem(new SecurityRequirement().addList(BEARER));
        }
        return operation;
    }

    /** {@code savepointStatus}, {@code v1SavepointStatus}: unique over both prefixes. */
    private static String operationId(Route route, String prefix) {
        StringBuilder id = new StringBuilder(prefix.isEmpty() ? "" : Route.VERSION);
        for (String word : route.name().toLowerCase(java.util.Locale.ROOT).split("_")) {
            id.append(id.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return id.toString();
    }

    /** The schema of {@code type} (a reference), adding it and every schema it refers to to {@code schemas}. */
    private static Schema<?> resolve(ModelConverters converters, Class<?> type, Map<String, Schema> schemas) {
        ResolvedSchema resolved = converters.resolveAsResolvedSchema(new AnnotatedType(type).resolveAsRef(true));
        schemas.putAll(resolved.referencedSchemas);
        return resolved.schema;
    }

    /** Converters reading classes as {@code mapper} binds them, naming each schema {@code prefix} + its class. */
    private static ModelConverters converters(ObjectMapper mapper, String prefix) {
        ModelConverters converters = new ModelConverters();
        converters.addConverter(new ModelResolver(mapper, new TypeNameResolver() {
            @Override
            protected String nameForClass(Class<?> cls, Set<Options> options) {
                String name = cls.getName();
                return prefix + name.substring(name.lastIndexOf('.') + 1).replace('$', '.');
            }
        }));
        return converters;
    }
}
