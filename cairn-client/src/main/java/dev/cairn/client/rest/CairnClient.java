package dev.cairn.client.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A Java client of the coordinator's REST API (docs/rest.md), as Flink's {@code RestClusterClient} is one of
 * Flink's: it triggers checkpoints and savepoints, stops jobs, sends restores, rescales, disposals and removals, and
 * waits for their outcomes; it lists jobs and their checkpoint statistics. Every call is asynchronous: its future
 * completes with the answer, or fails with a {@link RestException} (no answer, or an HTTP error, naming the API's
 * {@code error}) or, for an outcome, a {@link RequestFailedException} (the coordinator aborted or refused it). A
 * bearer token, when given, goes with every call. Thread-safe.
 *
 * <pre>{@code
 * CairnClient client = new CairnClient(URI.create("http://coordinator:8081"), token, Duration.ofSeconds(10));
 * SavepointOutcome done = client.savepoint("orders", "s3://bucket/savepoints").get(5, TimeUnit.MINUTES);
 * }</pre>
 */
public final class CairnClient {

    /** How often an outcome is polled by default. */
    public static final Duration POLL = Duration.ofMillis(200);

    /** Told how far a pending checkpoint is while an outcome is awaited. */
    @FunctionalInterface
    public interface Progress {

        /** Tells nothing. */
        Progress NONE = (checkpointId, acknowledged, subtasks) -> { };

        /** Checkpoint {@code checkpointId} has {@code acknowledged} of its {@code subtasks} acknowledgements. */
        void advanced(long checkpointId, int acknowledged, int subtasks);
    }

    private final HttpClient http;
    private final URI base;
    private final String token;
    private final Duration timeout;

    /**
     * @param base the REST API's root, e.g. {@code http://coordinator:8081} ({@link #baseUrl} checks a text)
     * @param token a bearer token of the coordinator's tokens file, {@code null} for none (reads only)
     * @param timeout how long one call may take
     */
    public CairnClient(URI base, String token, Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        String root = base.toString();
        this.base = URI.create(root.endsWith("/") ? root.substring(0, root.length() - 1) : root);
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.timeout = timeout;
    }

    /**
     * The REST API's root named by {@code text}.
     *
     * @throws IllegalArgumentException when it is not an http:// or https:// URL with a host
     */
    public static URI baseUrl(String text) {
        try {
            URI uri = new URI(text == null ? "" : text.strip());
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new URISyntaxException(String.valueOf(text), "expected http:// or https:// and a host");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + text + "' is not a URL of the REST API (e.g. "
                    + "http://coordinator:8081): " + e.getReason(), e);
        }
    }

    /** The API's root. */
    public URI base() {
        return base;
    }

    /** Triggers a savepoint to {@code targetDirectory} (the job's storage when {@code null}) and awaits it. */
    public CompletableFuture<SavepointOutcome> savepoint(String jobId, String targetDirectory) {
        return triggerSavepoint(jobId, body("targetDirectory", targetDirectory))
                .thenCompose(requestId -> awaitOutcome(jobId, requestId, Duration.ofMinutes(10), POLL, Progress.NONE));
    }

    /** Stops the job with a savepoint ({@code drain}: after draining its input) and awaits the savepoint. */
    public CompletableFuture<SavepointOutcome> stopWithSavepoint(String jobId, String targetDirectory, boolean drain) {
        return stop(jobId, body("targetDirectory", targetDirectory, "drain", drain))
                .thenCompose(requestId -> awaitOutcome(jobId, requestId, Duration.ofMinutes(10), POLL, Progress.NONE));
    }

    /** {@code POST /jobs/{jobId}/savepoints} with Flink's body (targetDirectory, formatType, triggerId): its id. */
    public CompletableFuture<String> triggerSavepoint(String jobId, Map<String, Object> body) {
        return requestId("POST", job(jobId) + "/savepoints", body);
    }

    /** {@code POST /jobs/{jobId}/checkpoints} (type, force, checkpointType, formatType, targetLocation...): its id. */
    public CompletableFuture<String> triggerCheckpoint(String jobId, Map<String, Object> body) {
        return requestId("POST", job(jobId) + "/checkpoints", body);
    }

    /** {@code POST /jobs/{jobId}/stop} (targetDirectory, drain, formatType, triggerId): the request id. */
    public CompletableFuture<String> stop(String jobId, Map<String, Object> body) {
        return requestId("POST", job(jobId) + "/stop", body);
    }

    /** {@code POST /jobs/{jobId}/restore} (savepointPath or checkpointId, restoreMode, requestId): the request id. */
    public CompletableFuture<String> restore(String jobId, Map<String, Object> body) {
        return requestId("POST", job(jobId) + "/restore", body);
    }

    /** {@code POST /jobs/{jobId}/rescaling} (parallelism, targetDirectory, restoreMode, requestId): the request id. */
    public CompletableFuture<String> rescale(String jobId, Map<String, Object> body) {
        return requestId("POST", job(jobId) + "/rescaling", body);
    }

    /** {@code POST /jobs/{jobId}/savepoints/dispose} (savepointPath or checkpointId, requestId): the request id. */
    public CompletableFuture<String> disposeSavepoint(String jobId, Map<String, Object> body) {
        return requestId("POST", job(jobId) + "/savepoints/dispose", body);
    }

    /** {@code DELETE /jobs/{jobId}} with {@code requestId} ({@code null}: one is made up): the request id. */
    public CompletableFuture<String> remove(String jobId, String requestId) {
        return requestId("DELETE", job(jobId), body("requestId", requestId));
    }

    /** {@code GET /jobs}: every job of every instance. */
    public CompletableFuture<JobOverview.Listing> jobs() {
        return call("GET", "/jobs", null).thenApply(answer -> JobOverview.Listing.of(answer.json()));
    }

    /** {@code GET /jobs/{jobId}/checkpoints}: the job's checkpoint statistics. */
    public CompletableFuture<Checkpoints> checkpoints(String jobId) {
        return call("GET", job(jobId) + "/checkpoints", null).thenApply(answer -> Checkpoints.of(answer.json()));
    }

    /** {@code GET /jobs/{jobId}/checkpoints/{id}}: one checkpoint, empty when it left the history. */
    public CompletableFuture<Optional<Checkpoints.Summary>> checkpoint(String jobId, long checkpointId) {
        return call("GET", job(jobId) + "/checkpoints/" + checkpointId, null).thenApply(answer -> answer.status()
                == 404 ? Optional.empty() : Optional.of(Checkpoints.Summary.of(answer.json())));
    }

    /** {@code GET /jobs/{jobId}/savepoints/{requestId}}: what became of a request, empty when not (yet) known. */
    public CompletableFuture<Optional<RequestState>> request(String jobId, String requestId) {
        return call("GET", job(jobId) + "/savepoints/" + segment(requestId), null).thenApply(answer ->
                answer.status() == 404 ? Optional.empty()
                        : Optional.of(RequestState.of(jobId, requestId, answer.json())));
    }

    /**
     * Polls the request's outcome every {@code poll} until it ended or {@code wait} passed, telling {@code progress}
     * how far its checkpoint is. Completes with the checkpoint when COMPLETED (a restore's, disposal's or removal's
     * outcome may name no location), fails with {@link RequestFailedException} when FAILED, with
     * {@link TimeoutException} when {@code wait} passed, with {@link RestException} when the API failed.
     */
    public CompletableFuture<SavepointOutcome> awaitOutcome(String jobId, String requestId, Duration wait,
            Duration poll, Progress progress) {
        return awaitState(jobId, requestId, wait, poll, progress).thenApply(state -> {
            if (state.failed()) {
                throw new RequestFailedException(state);
            }
            return new SavepointOutcome(jobId, requestId, state.checkpointId() == null ? -1 : state.checkpointId(),
                    state.checkpointType(), state.location());
        });
    }

    /** The same, completing with the ended state (COMPLETED or FAILED) rather than failing on FAILED. */
    public CompletableFuture<RequestState> awaitState(String jobId, String requestId, Duration wait, Duration poll,
            Progress progress) {
        long deadline = System.nanoTime() + wait.toNanos();
        CompletableFuture<RequestState> result = new CompletableFuture<>();
        poll(jobId, requestId, deadline, poll, progress, result, wait);
        return result;
    }

    private void poll(String jobId, String requestId, long deadline, Duration every, Progress progress,
            CompletableFuture<RequestState> result, Duration wait) {
        request(jobId, requestId).thenCompose(state -> state.filter(s -> !s.ended() && s.checkpointId() != null
                && progress != Progress.NONE).map(s -> reportProgress(jobId, s.checkpointId(), progress)
                        .thenApply(ignored -> state)).orElse(CompletableFuture.completedFuture(state)))
                .whenComplete((state, error) -> {
                    if (error != null) {
                        result.completeExceptionally(unwrap(error));
                    } else if (state.isPresent() && state.get().ended()) {
                        result.complete(state.get());
                    } else if (System.nanoTime() - deadline >= 0) {
                        result.completeExceptionally(new TimeoutException("no outcome of request " + requestId
                                + " of job '" + jobId + "' within " + wait.toMillis() + " ms"));
                    } else {
                        CompletableFuture.runAsync(() -> poll(jobId, requestId, deadline, every, progress, result,
                                wait), CompletableFuture.delayedExecutor(every.toMillis(), TimeUnit.MILLISECONDS));
                    }
                });
    }

    private CompletableFuture<Void> reportProgress(String jobId, long checkpointId, Progress progress) {
        return checkpoint(jobId, checkpointId).thenAccept(summary -> summary.ifPresent(s ->
                progress.advanced(checkpointId, s.numAcknowledgedSubtasks(), s.numSubtasks())));
    }

    /** A body of the fields given, in order, leaving out {@code null} values: {@code body("drain", true)}. */
    public static Map<String, Object> body(Object... namesAndValues) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                body.put((String) namesAndValues[i], namesAndValues[i + 1]);
            }
        }
        return body;
    }

    private CompletableFuture<String> requestId(String method, String path, Map<String, Object> body) {
        return call(method, path, body).thenApply(answer -> {
            JsonNode id = answer.json().get("request-id");
            if (id == null || !id.isTextual()) {
                throw new RestException(answer.status(), method + " " + path + " answered no request-id: "
                        + answer.body(), null);
            }
            return id.asText();
        });
    }

    /** One call; an answer of 400 or more fails it (but a 404 of a GET, which the caller reads as "none"). */
    private CompletableFuture<Answer> call(String method, String path, Map<String, Object> body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Accept", "application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json(body)));
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .handle((response, error) -> {
                    if (error != null) {
                        Throwable cause = unwrap(error);
                        throw new RestException(0, "cannot reach the REST API at " + base + " (" + method + " "
                                + path + "): " + cause, cause);
                    }
                    Answer answer = new Answer(response.statusCode(), response.body());
                    if (response.statusCode() >= 400 && !("GET".equals(method) && response.statusCode() == 404)) {
                        throw new RestException(response.statusCode(), method + " " + path + " was answered "
                                + response.statusCode() + ": " + answer.error() + hint(response.statusCode()), null);
                    }
                    return answer;
                });
    }

    private String hint(int status) {
        if (status == 401) {
            return token == null ? " (give a bearer token of the coordinator's tokens file)"
                    : " (the coordinator does not know the token)";
        }
        return status == 403 && token != null ? " (the token may not act on this job)" : "";
    }

    private static byte[] json(Map<String, Object> body) {
        try {
            return Json.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write the body as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String job(String jobId) {
        return "/jobs/" + segment(jobId);
    }

    private static String segment(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /** An HTTP answer. */
    private record Answer(int status, String body) {

        JsonNode json() {
            try {
                return Json.MAPPER.readTree(body);
            } catch (JsonProcessingException e) {
                throw new RestException(status, "the REST API answered what is not JSON: "
                        + body.substring(0, Math.min(200, body.length())), e);
            }
        }

        String error() {
            try {
                JsonNode error = Json.MAPPER.readTree(body).get("error");
                return error != null && error.isTextual() ? error.asText() : body;
            } catch (JsonProcessingException e) {
                return body;
            }
        }
    }
}
