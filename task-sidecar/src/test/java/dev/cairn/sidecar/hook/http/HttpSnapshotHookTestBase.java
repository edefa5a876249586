package dev.cairn.sidecar.hook.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the tests of the HTTP hook share: a stub worker started for each test and the hook posting to it (5 s
 * timeout), both closed after it, and readers of what the worker received and of a declined snapshot.
 */
abstract class HttpSnapshotHookTestBase {

    static final ObjectMapper JSON = new ObjectMapper();

    StubWorkerServer worker;
    HttpSnapshotHook hook;

    @BeforeEach
    void startWorker() throws IOException {
        worker = new StubWorkerServer();
        hook = new HttpSnapshotHook(worker.baseUrl(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        hook.close();
        worker.close();
    }

    /** The body of the worker's request number {@code index}, as JSON. */
    JsonNode json(int index) throws IOException {
        return JSON.readTree(worker.received().get(index).body());
    }

    /** The decline {@code snapshot} failed with; an assertion error when it completed or failed otherwise. */
    static SnapshotDeclinedException declineOf(CompletableFuture<SnapshotResult> snapshot) throws Exception {
        try {
            SnapshotResult result = snapshot.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected a decline, got " + result);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(SnapshotDeclinedException.class);
            return (SnapshotDeclinedException) e.getCause();
        }
    }
}
