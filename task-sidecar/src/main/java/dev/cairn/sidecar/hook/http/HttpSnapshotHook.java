package dev.cairn.sidecar.hook.http;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RecordNotifiedHook;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker reached over local HTTP. Every call is a {@code POST} of a JSON body (see {@link HookJson}):
 * <ul>
 *   <li>{@code {base}/snapshot}: a 2xx answer carrying a snapshot result acknowledges; any other status,
 *       a 2xx body that is not a valid result, a transport error or no answer within the timeout declines
 *       the checkpoint ({@link CheckpointFailureReason#CHECKPOINT_DECLINED}) with a message naming the
 *       cause (status and the start of the body for an error status, the field at fault for a malformed result,
 *       such as {@code keyGroups.endKeyGroup} or {@code operatorStateMode}).</li>
 *   <li>{@code {base}/notify}: the checkpoint's outcome (with {@code stopping}/{@code drain} or
 *       {@code stopFailed}); {@code {base}/restore}: the restore point (with its shared objects, how its
 *       task restores and every state the subtask reads, which after a rescale are the states handed to it) or
 *       {@code {}};
 *       {@code {base}/discard}: a state object the coordinator discarded, to delete (with the discarded ack's
 *       {@code status} or the checkpoint's {@code reason}, and whether it is {@code shared}). Their answers'
 *       bodies are ignored; a non-2xx status,
 *       an error or a timeout throws an {@link IOException} naming the status and body, except that a 404 from
 *       {@code /discard} means the worker does not delete discarded states (optional): it is logged once.</li>
 * </ul>
 */
public final class HttpSnapshotHook extends RecordNotifiedHook {

    /** The status a worker answers a restore with when its state is missing or corrupt (Unprocessable Content). */
    static final int UNREADABLE_STATE = 422;

    private static final Logger LOG = LoggerFactory.getLogger(HttpSnapshotHook.class);

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final String base;
    private final URI snapshotUri;
    private final URI notifyUri;
    private final URI restoreUri;
    private final URI discardUri;
    private volatile boolean discardMissingLogged;
    private final Duration timeout;
    private final ExecutorService executor;
    private final HttpClient client;

    /**
     * @param baseUrl the worker's base URL ({@code http} or {@code https}); the endpoints are below it
     * @param timeout how long one call may take, from sending the request to reading the whole answer
     */
    public HttpSnapshotHook(URI baseUrl, Duration timeout) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(timeout, "timeout");
        String scheme = baseUrl.getScheme() == null ? "" : baseUrl.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("HTTP hook URL must be an http or https URL, was " + baseUrl);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("HTTP hook timeout must be positive, was " + timeout);
        }
        this.base = baseUrl.toString().replaceAll("/+$", "");
        this.snapshotUri = URI.create(base + "/snapshot");
        this.notifyUri = URI.create(base + "/notify");
        this.restoreUri = URI.create(base + "/restore");
        this.discardUri = URI.create(base + "/discard");
        this.timeout = timeout;
        int id = CLIENTS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "cairn-http-hook-" + id + "-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .executor(executor)
                .build();
    }

    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        CompletableFuture<HttpResponse<String>> sent =
                client.sendAsync(post(snapshotUri, HookJson.snapshotRequest(request)),
                        HttpResponse.BodyHandlers.ofString());
        CompletableFuture<SnapshotResult> outcome = new CompletableFuture<>();
        // time out a dependent copy, so that cancelling the original still aborts the exchange
        sent.thenApply(response -> response)
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((response, error) -> answer(outcome, sent, response, error, request.isParticipant()));
        outcome.whenComplete((result, error) -> {
            if (outcome.isCancelled()) {
                sent.cancel(true);
            }
        });
        return outcome;
    }

    @Override
    public void notifyComplete(CheckpointCompletion completion) throws IOException, InterruptedException {
        call(notifyUri, HookJson.notification(HookNotification.completed(completion)));
    }

    @Override
    public void notifyAborted(CheckpointAbort abort) throws IOException, InterruptedException {
        call(notifyUri, HookJson.notification(HookNotification.aborted(abort)));
    }

    /** Posts the state to {@code /discard}; a 404 (no such endpoint) deletes nothing and is only logged. */
    @Override
    public void discardState(DiscardedState state) throws IOException, InterruptedException {
        HttpResponse<String> response = send(discardUri, HookJson.discard(state));
        if (response.statusCode() == 404) {
            if (!discardMissingLogged) {
                discardMissingLogged = true;
                LOG.info("The worker at {} has no discard endpoint (404): discarded states are not deleted, "
                        + "starting with {} of checkpoint {}", discardUri, state.location(), state.checkpointId());
            }
            return;
        }
        requireSuccess(discardUri, response);
    }

    @Override
    public void restore(Optional<RestorePoint> from) throws IOException, InterruptedException {
        call(restoreUri, HookJson.restore(from));
    }

    /** Posts the restore point with the attempt ({@code attemptId}, {@code attemptNumber}). */
    @Override
    public void restore(Optional<RestorePoint> from, AttemptNumber attempt) throws IOException, InterruptedException {
        call(restoreUri, HookJson.restore(from, Optional.of(attempt)));
    }

    /** Stops the client's threads; calls still in flight fail. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    @Override
    public String toString() {
        return "HttpSnapshotHook[" + snapshotUri.resolve("/") + ", timeout " + timeout.toMillis() + " ms]";
    }

    private void answer(CompletableFuture<SnapshotResult> outcome, CompletableFuture<?> sent,
            HttpResponse<String> response, Throwable error, boolean stateOptional) {
        if (error != null) {
            sent.cancel(true);
            outcome.completeExceptionally(declined(failure(snapshotUri, error)));
            return;
        }
        try {
            outcome.complete(result(response, stateOptional));
        } catch (SnapshotDeclinedException declined) {
            outcome.completeExceptionally(declined);
        }
    }

    private SnapshotResult result(HttpResponse<String> response, boolean stateOptional)
            throws SnapshotDeclinedException {
        String body = response.body() == null ? "" : response.body();
        if (response.statusCode() / 100 != 2) {
            throw declined("HTTP hook POST " + snapshotUri + " answered " + response.statusCode() + ": "
                    + HookJson.excerpt(body));
        }
        try {
            return HookJson.parseSnapshotResult(body, stateOptional);
        } catch (MalformedHookMessageException e) {
            throw declined("HTTP hook POST " + snapshotUri + " answered " + response.statusCode()
                    + " with an invalid snapshot result: " + e.getMessage() + "; body: " + HookJson.excerpt(body));
        }
    }

    private void call(URI uri, String json) throws IOException, InterruptedException {
        requireSuccess(uri, send(uri, json));
    }

    private HttpResponse<String> send(URI uri, String json) throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<String>> sent =
                client.sendAsync(post(uri, json), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> response;
        try {
            response = sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            sent.cancel(true);
            throw e;
        } catch (TimeoutException | ExecutionException e) {
            sent.cancel(true);
            throw new IOException(failure(uri, e), e.getCause() == null ? e : e.getCause());
        }
        return response;
    }

    private static void requireSuccess(URI uri, HttpResponse<String> response) throws IOException {
        if (response.statusCode() == UNREADABLE_STATE) {
            throw new StateUnreadableException("HTTP hook POST " + uri + " answered " + UNREADABLE_STATE
                    + " (the state cannot be read): " + HookJson.excerpt(response.body() == null ? ""
                    : response.body()));
        }
        if (response.statusCode() / 100 != 2) {
            throw new IOException("HTTP hook POST " + uri + " answered " + response.statusCode() + ": "
                    + HookJson.excerpt(response.body() == null ? "" : response.body()));
        }
    }

    private HttpRequest post(URI uri, String json) {
        return HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/json; charset=utf-8")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    /** Describes why a call got no answer. */
    private String failure(URI uri, Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TimeoutException || cause instanceof HttpTimeoutException) {
            return "HTTP hook POST " + uri + " timed out after " + timeout.toMillis() + " ms";
        }
        if (cause instanceof ConnectException) {
            return "HTTP hook POST " + uri + " could not connect: " + cause;
        }
        return "HTTP hook POST " + uri + " failed: " + cause;
    }

    private static SnapshotDeclinedException declined(String message) {
        return new SnapshotDeclinedException(CheckpointFailureReason.CHECKPOINT_DECLINED, message);
    }
}
