package dev.cairn.sample.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import dev.cairn.sidecar.hook.http.HttpSnapshotHook;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sample worker behind its HTTP server, driven by the sidecar's HTTP hook: no Kafka involved. */
class HookServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @TempDir
    Path stateDir;

    private HookServer server;
    private HttpSnapshotHook hook;

    @AfterEach
    void stop() {
        if (hook != null) {
            hook.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldSnapshotCompleteAndRestoreTheWorkerWhenDrivenEndToEnd() throws Exception {
        CounterWorker worker = serve(new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0));
        hook.restore(Optional.empty());
        SnapshotResult first = hook.snapshot(CounterWorkerTest.request(stateDir, 1)).toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        hook.snapshot(CounterWorkerTest.request(stateDir, 2)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        SnapshotResult third = hook.snapshot(CounterWorkerTest.request(stateDir, 3)).toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        hook.notifyComplete(3, 2);

        assertThat(Path.of(URI.create(first.location()))).doesNotExist();
        assertThat(Files.readString(Path.of(URI.create(third.location())))).isEqualTo("3\n");
        assertThat(third.sizeBytes()).isEqualTo(2);
        stop();

        CounterWorker restarted = serve(new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0));
        hook.restore(Optional.of(new RestorePoint(3, third.location(), third.sizeBytes())));
        assertThat(restarted.value()).isEqualTo(3);
    }

    @Test
    void shouldDeclineWithTheWorkersReasonWhenTheWorkerDeclines() throws Exception {
        serve(new CounterWorker(new FileStorage(), Duration.ZERO, 2, 0));

        SnapshotDeclinedException declined = CounterWorkerTest.declineOf(
                hook.snapshot(CounterWorkerTest.request(stateDir, 2)).toCompletableFuture());

        assertThat(declined.getMessage()).contains("answered 409").contains("CHECKPOINT_DECLINED")
                .contains("multiple of 2");
    }

    @Test
    void shouldAnswerThatTheStateCannotBeReadWhenTheRestorePointIsMissing() throws Exception {
        serve(new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0));
        String missing = stateDir.resolve("nothing-here").toUri().toString();

        assertThatThrownBy(() -> hook.restore(Optional.of(new RestorePoint(4, missing, 1))))
                .isInstanceOf(StateUnreadableException.class).hasMessageContaining("answered 422")
                .hasMessageContaining("the state of checkpoint 4").hasMessageContaining("does not exist");
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "/snapshot | not json                                                     | 400 | not valid JSON",
        "/snapshot | '{\"checkpointId\":1}'                                       | 400 | missing field timestampMs",
        "/notify   | '{\"checkpointId\":1,\"outcome\":\"MAYBE\",\"lastSubsumedId\":0}' | 400 | "
                + "field outcome must be one of",
        "/notify   | ''                                                           | 400 | the notification is empty",
        "/restore  | '[]'                                                         | 400 | "
                + "must be a JSON object, was array",
        "/restore  | '{\"checkpointId\":1,\"location\":\"x\"}'                    | 400 | missing field sizeBytes",
        "/discard  | '{\"checkpointId\":1,\"location\":\"x\",\"sizeBytes\":1}'   | 400 | missing field status",
        "/elsewhere | '{}'                                                        | 404 | no such endpoint: /elsewhere",
    })
    void malformedRequestIsRejectedWithAMessage(String path, String body, int status, String message) throws Exception {
        serve(new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0));

        HttpResponse<String> response = send(HttpRequest.newBuilder(server.baseUrl().resolve(path))
                .POST(HttpRequest.BodyPublishers.ofString(body)));

        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode error = JSON.readTree(response.body());
        assertThat(error.path("error").asText()).contains(message);
    }

    @Test
    void shouldRejectNamingTheAllowedMethodWhenTheMethodIsWrong() throws Exception {
        serve(new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0));

        HttpResponse<String> response = send(HttpRequest.newBuilder(server.baseUrl().resolve("/snapshot")).GET());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).contains("POST");
        assertThat(response.body()).contains("accepts POST only");
    }

    @Test
    void shouldPassTheStopFlagsAndTheDiscardedStateOnToTheWorker() throws Exception {
        // given a worker that records what it is told
        List<Object> told = new CopyOnWriteArrayList<>();
        SnapshotHook recording = new SnapshotHook() {
            @Override
            public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
                return CompletableFuture.completedFuture(SnapshotResult.finishedWithoutState());
            }

            @Override
            public void notifyComplete(long checkpointId, long lastSubsumedId) {
                throw new AssertionError("the record-taking method is called");
            }

            @Override
            public void notifyAborted(long checkpointId, long latestCompletedId) {
                throw new AssertionError("the record-taking method is called");
            }

            @Override
            public void notifyComplete(CheckpointCompletion completion) {
                told.add(completion);
            }

            @Override
            public void notifyAborted(CheckpointAbort abort) {
                told.add(abort);
            }

            @Override
            public void discardState(DiscardedState state) {
                told.add(state);
            }

            @Override
            public void restore(Optional<RestorePoint> from) {
            }
        };
        server = HookServer.start(recording, LOOPBACK);
        hook = new HttpSnapshotHook(server.baseUrl(), Duration.ofSeconds(10));
        DiscardedState state = new DiscardedState(3, "file:///s/3", 9, AckDiscardStatus.LATE, "late");

        // when
        hook.notifyComplete(new CheckpointCompletion(9, 8, true, true));
        hook.notifyAborted(new CheckpointAbort(10, 9, true));
        hook.discardState(state);
        SnapshotResult finished = hook.snapshot(CounterWorkerTest.request(stateDir, 11)).toCompletableFuture()
                .get(10, TimeUnit.SECONDS);

        // then
        assertThat(told).containsExactly(new CheckpointCompletion(9, 8, true, true), new CheckpointAbort(10, 9, true),
                state);
        assertThat(finished).isEqualTo(SnapshotResult.finishedWithoutState());
    }

    @Test
    void shouldAnswerUpWhenAskedForHealth() throws Exception {
        serve(new CounterWorker(new FileStorage(), Duration.ZERO, 0, 0));

        HttpResponse<String> response = send(HttpRequest.newBuilder(server.baseUrl().resolve("/health")).GET());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).path("status").asText()).isEqualTo("UP");
    }

    private CounterWorker serve(CounterWorker worker) throws IOException {
        server = HookServer.start(worker, LOOPBACK);
        hook = new HttpSnapshotHook(server.baseUrl(), Duration.ofSeconds(10));
        return worker;
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HttpClient.newHttpClient().send(request.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
