package dev.cairn.coordinator.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/**
 * Calls a coordinator's REST API: GETs without a token, POSTs and PUTs of JSON with the bearer token; answers
 * are the responses as they are (status, headers, body as a string).
 */
public final class RestClient {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Supplier<URI> base;
    private final String token;

    /** Against the API at {@code base} (asked at every call: it moves when the coordinator restarts). */
    public RestClient(Supplier<URI> base, String token) {
        this.base = base;
        this.token = token;
    }

    public HttpResponse<String> get(String path) {
        return send(request(path).GET());
    }

    public HttpResponse<String> post(String path, String json) {
        return send("POST", path, json);
    }

    public HttpResponse<String> put(String path, String json) {
        return send("PUT", path, json);
    }

    /** Any method, with the token and a JSON content type; {@code json} may be {@code null} for no body. */
    public HttpResponse<String> send(String method, String path, String json) {
        HttpRequest.BodyPublisher body = json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json);
        return send(request(path).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).method(method, body));
    }

    /** GETs {@code path} until it answers 200 with a JSON body that matches (the coordinator is asynchronous). */
    public JsonNode awaitJson(String path, Predicate<JsonNode> matching) {
        AtomicReference<JsonNode> found = new AtomicReference<>();
        Awaitility.await().atMost(CoordinatorTestBed.WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            HttpResponse<String> response = get(path);
            if (response.statusCode() != 200) {
                return false;
            }
            found.set(json(response));
            return matching.test(found.get());
        });
        return found.get();
    }

    /** GETs {@code path} until its body (any status) matches, and returns that body. */
    public String awaitBody(String path, Predicate<HttpResponse<String>> matching) {
        AtomicReference<String> last = new AtomicReference<>();
        Awaitility.await().atMost(CoordinatorTestBed.WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            HttpResponse<String> response = get(path);
            last.set(response.body());
            return matching.test(response);
        });
        return last.get();
    }

    /** The response's body as JSON. */
    public static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    /** The {@code error} of a JSON error answer. */
    public static String error(HttpResponse<String> response) {
        return json(response).get("error").asText();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base.get() + path));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + base.get(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
