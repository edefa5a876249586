package dev.cairn.sidecar.hook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HttpSnapshotHookTest extends HttpSnapshotHookTestBase {

    private static final SnapshotRequest REQUEST = new SnapshotRequest(7, 1_700_000_000_123L,
            CheckpointType.SAVEPOINT, "file:///savepoints/job-a/chk-7", "job-a", "map", 2);

    @Test
    void shouldPostJsonAndAckWithTheWorkersResultWhenSnapshotting() throws Exception {
        worker.answer(200, "{\"location\":\"file:///state/7\",\"sizeBytes\":42,\"syncDurationMs\":3,"
                + "\"asyncDurationMs\":4,\"alignmentDurationMs\":5,\"bytesPersisted\":6,\"ignored\":true}");

        SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(result).isEqualTo(new SnapshotResult("file:///state/7", 42, 3, 4, 5, 6));
        StubWorkerServer.Received request = worker.received().get(0);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/snapshot");
        assertThat(request.contentType()).startsWith("application/json");
        assertThat(JSON.readTree(request.body())).isEqualTo(JSON.readTree("{\"checkpointId\":7,"
                + "\"timestampMs\":1700000000123,\"type\":\"SAVEPOINT\",\"storageLocation\":"
                + "\"file:///savepoints/job-a/chk-7\",\"jobId\":\"job-a\",\"taskId\":\"map\",\"subtaskIndex\":2,"
                + "\"backupType\":\"FULL\",\"savepointFormat\":\"CANONICAL\",\"postCheckpointAction\":\"NONE\","
                + "\"alignment\":\"ALIGNED\",\"alignedTimeoutMs\":-1,\"synchronous\":false,\"drain\":false,"
                + "\"latestCompletedId\":-1}"));
    }

    @Test
    void shouldPostTheLatestCompletedCheckpointWhenTheSidecarKnowsOne() throws Exception {
        // given a worker restored from 5 whose sidecar has since read the completion of 6
        worker.answer(200, "{\"location\":\"file:///state/7\",\"sizeBytes\":1}");

        // when
        hook.snapshot(REQUEST.withLatestCompletedId(6)).toCompletableFuture().get(10, TimeUnit.SECONDS);

        // then the worker can tell that it is behind
        JsonNode body = json(0);
        assertThat(body.path("latestCompletedId").isIntegralNumber()).isTrue();
        assertThat(body.path("latestCompletedId").asLong()).isEqualTo(6);
        assertThat(body.path("checkpointId").asLong()).isEqualTo(7);
    }

    @Test
    void shouldHaveZeroDurationsAndPersistTheSizeWhenTheResultHasOnlyLocationAndSize() throws Exception {
        worker.answer(201, "{\"location\":\"s3://bucket/7\",\"sizeBytes\":10}");

        SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(result).isEqualTo(SnapshotResult.of("s3://bucket/7", 10));
    }

    @Test
    void shouldDeclineWithTheStatusAndTheBodyWhenTheServerFails() throws Exception {
        worker.answer(500, "disk full on /data");

        SnapshotDeclinedException declined = declineOf(hook.snapshot(REQUEST).toCompletableFuture());

        assertThat(declined.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(declined.getMessage()).contains("answered 500").contains("disk full on /data");
    }

    @Test
    void shouldDeclineWhenTheWorkerAnswersAClientError() throws Exception {
        worker.answer(409, "{\"error\":\"not ready\"}");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("409").contains("not ready");
    }

    @Test
    void shouldQuoteOnlyPartOfTheBodyWhenTheErrorBodyIsLong() throws Exception {
        worker.answer(503, "x".repeat(10_000));

        String message = declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage();

        assertThat(message).contains("503").contains("x".repeat(HookJson.MAX_EXCERPT))
                .contains("(" + (10_000 - HookJson.MAX_EXCERPT) + " more characters)");
        assertThat(message.length()).isLessThan(HookJson.MAX_EXCERPT + 300);
    }

    @Test
    void shouldDeclineAsTimedOutWhenTheWorkerDoesNotAnswerInTime() throws Exception {
        worker.hang();
        try (HttpSnapshotHook impatient = new HttpSnapshotHook(worker.baseUrl(), Duration.ofMillis(300))) {
            CompletableFuture<SnapshotResult> snapshot = impatient.snapshot(REQUEST).toCompletableFuture();

            SnapshotDeclinedException declined = declineOf(snapshot);

            assertThat(declined.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
            assertThat(declined.getMessage()).contains("/snapshot").contains("timed out after 300 ms");
        }
    }

    @Test
    void shouldDeclineSayingSoWhenASuccessBodyIsNotJson() throws Exception {
        worker.answer(200, "<html>ok</html>");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("invalid snapshot result").contains("not valid JSON").contains("<html>ok</html>");
    }

    @Test
    void shouldDeclineNamingTheFieldWhenASuccessHasNoLocation() throws Exception {
        worker.answer(200, "{\"sizeBytes\":3}");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("missing field location");
    }

    @Test
    void shouldDeclineNamingTheFieldWhenASuccessHasANegativeSize() throws Exception {
        worker.answer(200, "{\"location\":\"x\",\"sizeBytes\":-1}");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("field sizeBytes must be an integer >= 0, was -1");
    }

    @Test
    void shouldDeclineWhenTheWorkerIsUnreachable() throws Exception {
        URI gone = worker.baseUrl();
        worker.close();
        try (HttpSnapshotHook orphan = new HttpSnapshotHook(gone, Duration.ofSeconds(5))) {
            SnapshotDeclinedException declined = declineOf(orphan.snapshot(REQUEST).toCompletableFuture());

            assertThat(declined.getMessage()).contains(gone + "/snapshot");
        }
    }

    @Test
    void shouldPostTheOutcomeWithTheRelatedIdWhenNotifying() throws Exception {
        hook.notifyComplete(7, 6);
        hook.notifyAborted(8, 7);

        assertThat(worker.received()).extracting(StubWorkerServer.Received::path).containsExactly("/notify", "/notify");
        assertThat(json(0))
                .isEqualTo(JSON.readTree("{\"checkpointId\":7,\"outcome\":\"COMPLETED\",\"lastSubsumedId\":6,"
                        + "\"stopping\":false,\"drain\":false}"));
        assertThat(json(1))
                .isEqualTo(JSON.readTree("{\"checkpointId\":8,\"outcome\":\"ABORTED\",\"latestCompletedId\":7,"
                        + "\"stopFailed\":false}"));
    }

    @Test
    void shouldPostThePointOrAnEmptyObjectWhenRestoring() throws Exception {
        worker.answer(200, "{}");

        hook.restore(Optional.of(new RestorePoint(4, "file:///state/4", 99)));
        hook.restore(Optional.empty());

        assertThat(worker.received()).extracting(StubWorkerServer.Received::path)
                .containsExactly("/restore", "/restore");
        assertThat(json(0))
                .isEqualTo(JSON.readTree("{\"checkpointId\":4,\"location\":\"file:///state/4\",\"sizeBytes\":99,"
                        + "\"shared\":[],\"rescaled\":false,\"states\":[{\"fromSubtask\":-1,"
                        + "\"location\":\"file:///state/4\",\"sizeBytes\":99,\"shared\":[]}]}"));
        assertThat(json(1)).isEqualTo(JSON.readTree("{}"));
    }

    @Test
    void shouldThrowWithTheStatusAndTheBodyWhenANotificationFails() {
        worker.answer(502, "commit failed");

        assertThatThrownBy(() -> hook.notifyComplete(3, 2)).isInstanceOf(IOException.class)
                .hasMessageContaining("/notify").hasMessageContaining("502").hasMessageContaining("commit failed");
    }

    @Test
    void shouldThrowWithTheStatusAndTheBodyWhenARestoreFails() {
        worker.answer(404, "no such state");

        assertThatThrownBy(() -> hook.restore(Optional.empty())).isInstanceOf(IOException.class)
                .hasMessageContaining("/restore").hasMessageContaining("404").hasMessageContaining("no such state");
    }

    @Test
    void shouldThrowWhenANotificationGetsNoAnswerInTime() throws IOException {
        worker.hang();
        try (HttpSnapshotHook impatient = new HttpSnapshotHook(worker.baseUrl(), Duration.ofMillis(200))) {
            assertThatThrownBy(() -> impatient.notifyAborted(5, 4)).isInstanceOf(IOException.class)
                    .hasMessageContaining("timed out after 200 ms");
        }
    }

    @Test
    void shouldCallEndpointsBelowTheBasePathWhenTheBaseUrlHasAPath() throws Exception {
        worker.answer(200, "{\"location\":\"l\",\"sizeBytes\":1}");
        try (HttpSnapshotHook prefixed = new HttpSnapshotHook(URI.create(worker.baseUrl() + "/hooks/"),
                Duration.ofSeconds(5))) {
            prefixed.snapshot(REQUEST).toCompletableFuture().get(10, TimeUnit.SECONDS);
            prefixed.restore(Optional.empty());
        }

        assertThat(worker.received()).extracting(StubWorkerServer.Received::path)
                .containsExactly("/hooks/snapshot", "/hooks/restore");
    }

    @Test
    void shouldPostTheOptionsWhenTheSnapshotIsAStopWithSavepoint() throws Exception {
        // given
        worker.answer(200, "{\"location\":\"s3://sp/9\",\"sizeBytes\":1}");
        SnapshotRequest stop = SnapshotRequest.forTask(9, 5, CheckpointType.SAVEPOINT, "s3://sp/9", "job-a", "map", 2,
                new CheckpointOptions(BackupType.FULL, SavepointFormat.NATIVE, PostCheckpointAction.TERMINATE,
                        AlignmentType.FORCED_ALIGNED, 30_000));

        // when
        hook.snapshot(stop).toCompletableFuture().get(10, TimeUnit.SECONDS);

        // then
        JsonNode body = json(0);
        assertThat(body.path("savepointFormat").asText()).isEqualTo("NATIVE");
        assertThat(body.path("postCheckpointAction").asText()).isEqualTo("TERMINATE");
        assertThat(body.path("alignment").asText()).isEqualTo("FORCED_ALIGNED");
        assertThat(body.path("alignedTimeoutMs").asLong()).isEqualTo(30_000);
        assertThat(body.path("synchronous").asBoolean()).isTrue();
        assertThat(body.path("drain").asBoolean()).isTrue();
    }

    @Test
    void shouldPostTheParticipantAndAcceptAnEmptyAnswerWhenAParticipantSnapshots() throws Exception {
        // given
        worker.answer(200, "{}");
        SnapshotRequest request = SnapshotRequest.forParticipant(7, 5, CheckpointType.CHECKPOINT, "file:///cp/chk-7",
                "job-a", "offsets", CheckpointOptions.DEFAULTS);

        // when
        SnapshotResult result = hook.snapshot(request).toCompletableFuture().get(10, TimeUnit.SECONDS);

        // then
        assertThat(result).isEqualTo(SnapshotResult.none());
        assertThat(json(0).path("participant").asText()).isEqualTo("offsets");
        assertThat(json(0).has("taskId")).isFalse();
        assertThat(json(0).has("subtaskIndex")).isFalse();
    }

    @Test
    void shouldDeclineATasksEmptyAnswerNamingTheMissingLocation() throws Exception {
        worker.answer(200, "{}");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("missing field location");
    }

    @Test
    void shouldAcceptAFinishedAnswerWhenTheTasksInputIsExhausted() throws Exception {
        worker.answer(200, "{\"finished\":true,\"location\":\"file:///final\",\"sizeBytes\":8}");

        SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(result).isEqualTo(SnapshotResult.finishedWith("file:///final", 8));
    }

    @Test
    void shouldPostTheStopFlagsWhenAStopWithSavepointCompletesOrFails() throws Exception {
        hook.notifyComplete(new CheckpointCompletion(9, 8, true, false));
        hook.notifyAborted(new CheckpointAbort(10, 9, true));

        assertThat(json(0))
                .isEqualTo(JSON.readTree("{\"checkpointId\":9,\"outcome\":\"COMPLETED\",\"lastSubsumedId\":8,"
                        + "\"stopping\":true,\"drain\":false}"));
        assertThat(json(1))
                .isEqualTo(JSON.readTree("{\"checkpointId\":10,\"outcome\":\"ABORTED\",\"latestCompletedId\":9,"
                        + "\"stopFailed\":true}"));
    }

    @Test
    void shouldPostTheDiscardedStateToTheDiscardEndpoint() throws Exception {
        hook.discardState(new DiscardedState(4, "file:///s/4", 12, AckDiscardStatus.LATE, "checkpoint 4 expired"));

        assertThat(worker.received()).extracting(StubWorkerServer.Received::path).containsExactly("/discard");
        assertThat(json(0)).isEqualTo(JSON.readTree("{\"checkpointId\":4,\"location\":\"file:///s/4\",\"sizeBytes\":12,"
                + "\"status\":\"LATE\",\"message\":\"checkpoint 4 expired\",\"shared\":false}"));
    }

    @Test
    void shouldDeleteNothingWithoutFailingWhenTheWorkerHasNoDiscardEndpoint() throws Exception {
        worker.answer(404, "no such endpoint");

        hook.discardState(new DiscardedState(4, "file:///s/4", 12, AckDiscardStatus.UNKNOWN, "never triggered"));
        hook.discardState(new DiscardedState(5, "file:///s/5", 12, AckDiscardStatus.UNKNOWN, "never triggered"));

        assertThat(worker.received()).hasSize(2);
    }

    @Test
    void shouldThrowWhenTheWorkerFailsToDiscard() {
        worker.answer(500, "disk on fire");

        assertThatThrownBy(() -> hook.discardState(
                        new DiscardedState(4, "file:///s/4", 12, AckDiscardStatus.LATE, "x")))
                .isInstanceOf(IOException.class).hasMessageContaining("/discard").hasMessageContaining("500")
                .hasMessageContaining("disk on fire");
    }

    @Test
    void shouldRejectTheHookWhenTheUrlIsNotHttpOrTheTimeoutNotPositive() {
        assertThatThrownBy(() -> new HttpSnapshotHook(URI.create("ftp://localhost/x"), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http or https");
        assertThatThrownBy(() -> new HttpSnapshotHook(URI.create("http://localhost"), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout must be positive");
    }
}
