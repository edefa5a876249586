package dev.cairn.sidecar.hook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HookJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldReadBackEveryMessageWhenItWasWrittenByHookJson() throws Exception {
        SnapshotRequest request =
                new SnapshotRequest(3, 12, CheckpointType.CHECKPOINT, "file:///c/j/chk-3", "j", "t", 1);
        SnapshotResult result = new SnapshotResult("file:///s", 5, 1, 2, 3, 4);
        RestorePoint point = new RestorePoint(2, "file:///s", 5);

        assertThat(HookJson.parseSnapshotRequest(HookJson.snapshotRequest(request))).isEqualTo(request);
        assertThat(HookJson.parseSnapshotResult(HookJson.snapshotResult(result))).isEqualTo(result);
        assertThat(HookJson.parseNotification(HookJson.notification(HookNotification.completed(3, -1))))
                .isEqualTo(HookNotification.completed(3, -1));
        assertThat(HookJson.parseNotification(HookJson.notification(HookNotification.aborted(4, 2))))
                .isEqualTo(HookNotification.aborted(4, 2));
        assertThat(HookJson.parseRestore(HookJson.restore(Optional.of(point)))).contains(point);
        assertThat(HookJson.parseRestore(HookJson.restore(Optional.empty()))).isEmpty();
    }

    @Test
    void shouldReadBackEveryNewMessageWhenItWasWrittenByHookJson() throws Exception {
        // given
        SnapshotRequest stop = SnapshotRequest.forTask(9, 12, CheckpointType.SAVEPOINT, "s3://sp/9", "j", "t", 0,
                new CheckpointOptions(BackupType.INCREMENTAL, SavepointFormat.NATIVE, PostCheckpointAction.TERMINATE,
                        AlignmentType.AT_LEAST_ONCE, 500));
        SnapshotRequest participant = SnapshotRequest.forParticipant(3, 12, CheckpointType.CHECKPOINT, "file:///c",
                "j", "offsets", CheckpointOptions.DEFAULTS);
        HookNotification stopping = HookNotification.completed(new CheckpointCompletion(9, 8, true, true));
        HookNotification stopFailed = HookNotification.aborted(new CheckpointAbort(9, 8, true));
        DiscardedState discarded = new DiscardedState(4, "file:///s/4", 5, AckDiscardStatus.UNKNOWN, "never triggered");

        // then
        assertThat(HookJson.parseSnapshotRequest(HookJson.snapshotRequest(stop))).isEqualTo(stop);
        assertThat(HookJson.parseSnapshotRequest(HookJson.snapshotRequest(participant))).isEqualTo(participant);
        assertThat(HookJson.parseNotification(HookJson.notification(stopping))).isEqualTo(stopping);
        assertThat(HookJson.parseNotification(HookJson.notification(stopFailed))).isEqualTo(stopFailed);
        assertThat(HookJson.parseDiscard(HookJson.discard(discarded))).isEqualTo(discarded);
        for (SnapshotResult result : List.of(SnapshotResult.finishedWith("file:///f", 3),
                SnapshotResult.finishedWithoutState(), SnapshotResult.none())) {
            assertThat(HookJson.parseSnapshotResult(HookJson.snapshotResult(result), true)).isEqualTo(result);
        }
    }

    @Test
    void shouldTakeTheDefaultsWhenARequestOrNotificationLacksTheNewFields() throws Exception {
        // given bodies as a sidecar wrote them before options, stops and participants existed
        String request = "{\"checkpointId\":3,\"timestampMs\":12,\"type\":\"CHECKPOINT\",\"storageLocation\":\"f\","
                + "\"jobId\":\"j\",\"taskId\":\"t\",\"subtaskIndex\":1}";
        String notification = "{\"checkpointId\":3,\"outcome\":\"COMPLETED\",\"lastSubsumedId\":2}";

        // then
        assertThat(HookJson.parseSnapshotRequest(request).options()).isEqualTo(CheckpointOptions.DEFAULTS);
        assertThat(HookJson.parseSnapshotRequest(request).latestCompletedId()).isEqualTo(-1);
        assertThat(HookJson.parseNotification(notification)).isEqualTo(HookNotification.completed(3, 2));
    }

    @Test
    void shouldWriteAndReadBackTheLatestCompletedIdWhenARequestCarriesIt() throws Exception {
        // given
        SnapshotRequest task = new SnapshotRequest(7, 12, CheckpointType.CHECKPOINT, "file:///c/j/chk-7", "j", "t", 1)
                .withLatestCompletedId(6);
        SnapshotRequest participant = SnapshotRequest.forParticipant(7, 12, CheckpointType.CHECKPOINT, "file:///c",
                "j", "offsets", CheckpointOptions.DEFAULTS).withLatestCompletedId(5);
        SnapshotRequest none = new SnapshotRequest(1, 12, CheckpointType.CHECKPOINT, "file:///c/j/chk-1", "j", "t", 1);

        // when
        String body = HookJson.snapshotRequest(task);

        // then
        assertThat(JSON.readTree(body).path("latestCompletedId").asLong()).isEqualTo(6);
        assertThat(JSON.readTree(HookJson.snapshotRequest(none)).path("latestCompletedId").asLong()).isEqualTo(-1);
        assertThat(HookJson.parseSnapshotRequest(body)).isEqualTo(task);
        assertThat(HookJson.parseSnapshotRequest(HookJson.snapshotRequest(participant))).isEqualTo(participant);
    }

    @Test
    void shouldReadAResultWithoutLocationAsNoStateOnlyWhenStateIsOptionalOrTheTaskFinished() throws Exception {
        assertThat(HookJson.parseSnapshotResult("{}", true)).isEqualTo(SnapshotResult.none());
        assertThat(HookJson.parseSnapshotResult("{\"finished\":true}"))
                .isEqualTo(SnapshotResult.finishedWithoutState());
        assertThatThrownBy(() -> HookJson.parseSnapshotResult("{}")).isInstanceOf(MalformedHookMessageException.class)
                .hasMessageContaining("missing field location");
        assertThatThrownBy(() -> HookJson.parseSnapshotResult("{\"sizeBytes\":3}", true))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining("missing field location");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "backupType=\"DIFF\"               | field backupType must be one of [FULL, INCREMENTAL], was \"DIFF\"",
        "savepointFormat=3                  | field savepointFormat must be one of [CANONICAL, NATIVE], was 3",
        "postCheckpointAction=\"STOP\"     | field postCheckpointAction must be one of [NONE, SUSPEND, TERMINATE]",
        "alignment=\"\"                     | "
                + "field alignment must be one of [ALIGNED, UNALIGNED, AT_LEAST_ONCE, FORCED_ALIGNED], was \"\"",
        "alignedTimeoutMs=-2                | field alignedTimeoutMs must be an integer >= -1, was -2",
        "latestCompletedId=-2               | field latestCompletedId must be an integer >= -1, was -2",
        "latestCompletedId=\"5\"            | field latestCompletedId must be an integer, was \"5\"",
        "participant=\"offsets\"           | fields taskId and subtaskIndex must be absent when field participant",
        "participant=\"\"                   | field participant must be a non-empty string",
    })
    void shouldNameTheFieldWhenAnOptionOrRoleIsMalformed(String change, String problem) throws Exception {
        ObjectNode node = (ObjectNode) JSON.readTree(HookJson.snapshotRequest(
                new SnapshotRequest(3, 12, CheckpointType.CHECKPOINT, "file:///c/j/chk-3", "j", "t", 1)));
        String[] fieldAndValue = change.split("=", 2);
        node.set(fieldAndValue[0], JSON.readTree(fieldAndValue[1]));
        String body = JSON.writeValueAsString(node);

        assertThatThrownBy(() -> HookJson.parseSnapshotRequest(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "'{\"finished\":\"yes\"}'                                             | field finished must be true or false",
        "'{\"checkpointId\":1,\"outcome\":\"COMPLETED\",\"lastSubsumedId\":0,\"stopping\":1}' | "
                + "field stopping must be true or false",
        "'{\"checkpointId\":1,\"location\":\"x\",\"sizeBytes\":1}'           | missing field status",
        "'{\"checkpointId\":1,\"location\":\"x\",\"sizeBytes\":1,\"status\":\"GONE\"}' | field status must be one of",
        "'{\"checkpointId\":1,\"sizeBytes\":1,\"status\":\"LATE\"}'           | missing field location",
    })
    void shouldNameTheFieldWhenAResultNotificationOrDiscardIsMalformed(String body, String problem) {
        assertThatThrownBy(() -> {
            if (body.contains("outcome")) {
                HookJson.parseNotification(body);
            } else if (body.contains("finished")) {
                HookJson.parseSnapshotResult(body);
            } else {
                HookJson.parseDiscard(body);
            }
        }).isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "''                                                              | is empty",
        "'{'                                                             | not valid JSON",
        "'[1,2]'                                                         | must be a JSON object, was array",
        "'{\"location\":\"a\",\"sizeBytes\":1} trailing'                 | not valid JSON",
        "'{\"location\":\"a\",\"location\":\"b\",\"sizeBytes\":1}'       | not valid JSON",
        "'{\"sizeBytes\":1}'                                             | missing field location",
        "'{\"location\":\"\",\"sizeBytes\":1}'                           | field location must be a non-empty string",
        "'{\"location\":7,\"sizeBytes\":1}'                              | location must be a non-empty string, was 7",
        "'{\"location\":\"a\"}'                                          | missing field sizeBytes",
        "'{\"location\":\"a\",\"sizeBytes\":\"12\"}'                     | "
                + "field sizeBytes must be an integer, was \"12\"",
        "'{\"location\":\"a\",\"sizeBytes\":1.5}'                        | field sizeBytes must be an integer, was 1.5",
        "'{\"location\":\"a\",\"sizeBytes\":true}'                       | "
                + "field sizeBytes must be an integer, was true",
        "'{\"location\":\"a\",\"sizeBytes\":99999999999999999999}'       | field sizeBytes must be an integer",
        "'{\"location\":\"a\",\"sizeBytes\":-1}'                         | "
                + "field sizeBytes must be an integer >= 0, was -1",
        "'{\"location\":{\"path\":\"a\"},\"sizeBytes\":1}'              | "
                + "field location must be a non-empty string, was {\"path\":\"a\"}",
        "'{\"location\":\"a\",\"sizeBytes\":1,\"finished\":1}'           | field finished must be true or false, was 1",
        "'{\"location\":\"a\",\"sizeBytes\":1,\"asyncDurationMs\":-3}'   | asyncDurationMs must be an integer >= 0",
    })
    void shouldNameTheProblemWhenASnapshotResultIsMalformed(String body, String problem) {
        assertThatThrownBy(() -> HookJson.parseSnapshotResult(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "-checkpointId              | missing field checkpointId",
        "timestampMs=-1             | field timestampMs must be an integer >= 0, was -1",
        "type=\"FULL\"             | field type must be one of [CHECKPOINT, SAVEPOINT], was \"FULL\"",
        "-jobId                     | missing field jobId",
        "taskId=null                | missing field taskId",
        "storageLocation=[]         | field storageLocation must be a non-empty string, was []",
        "subtaskIndex=3000000000    | field subtaskIndex is too large",
    })
    void shouldNameTheProblemWhenASnapshotRequestIsMalformed(String change, String problem) throws Exception {
        ObjectNode node = (ObjectNode) JSON.readTree(HookJson.snapshotRequest(
                new SnapshotRequest(3, 12, CheckpointType.CHECKPOINT, "file:///c/j/chk-3", "j", "t", 1)));
        if (change.startsWith("-")) {
            node.remove(change.substring(1));
        } else {
            String[] fieldAndValue = change.split("=", 2);
            node.set(fieldAndValue[0], JSON.readTree(fieldAndValue[1]));
        }
        String body = JSON.writeValueAsString(node);

        assertThatThrownBy(() -> HookJson.parseSnapshotRequest(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "'{\"checkpointId\":1,\"outcome\":\"DONE\",\"lastSubsumedId\":0}'      | field outcome must be one of",
        "'{\"checkpointId\":1,\"outcome\":\"COMPLETED\"}'                      | missing field lastSubsumedId",
        "'{\"checkpointId\":1,\"outcome\":\"ABORTED\",\"lastSubsumedId\":0}'   | missing field latestCompletedId",
        "'{\"outcome\":\"ABORTED\",\"latestCompletedId\":0}'                   | missing field checkpointId",
        "'{\"checkpointId\":-4,\"outcome\":\"ABORTED\",\"latestCompletedId\":0}' | "
                + "checkpointId must be an integer >= 0",
    })
    void shouldNameTheProblemWhenANotificationIsMalformed(String body, String problem) {
        assertThatThrownBy(() -> HookJson.parseNotification(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }

    @Test
    void shouldCarryTheAttemptBesideTheRestorePointWhenATaskRestores() throws Exception {
        RestorePoint point = new RestorePoint(2, "file:///s", 5, true);
        AttemptNumber attempt = new AttemptNumber("a-1", 41);

        String body = HookJson.restore(Optional.of(point), Optional.of(attempt));
        String fresh = HookJson.restore(Optional.empty(), Optional.of(attempt));

        assertThat(HookJson.parseRestore(body)).contains(point);
        assertThat(HookJson.parseAttempt(body)).contains(attempt);
        assertThat(fresh).isEqualTo("{\"attemptId\":\"a-1\",\"attemptNumber\":41}");
        assertThat(HookJson.parseRestore(fresh)).isEmpty();
        assertThat(HookJson.parseAttempt(fresh)).contains(attempt);
        assertThat(HookJson.parseAttempt(HookJson.restore(Optional.of(point)))).isEmpty();
    }

    @Test
    void shouldNameTheMissingFieldWhenAnAttemptIsPartial() {
        assertThatThrownBy(() -> HookJson.parseAttempt("{\"attemptNumber\":4}"))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining("missing field attemptId");
        assertThatThrownBy(() -> HookJson.parseAttempt("{\"attemptId\":\"a\",\"attemptNumber\":-2}"))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining("attemptNumber");
    }

    @Test
    void shouldNameTheMissingFieldWhenARestorePointIsPartial() {
        assertThatThrownBy(() -> HookJson.parseRestore("{\"checkpointId\":3,\"location\":\"file:///x\"}"))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining("missing field sizeBytes");
    }

    @Test
    void shouldIgnoreUnknownFieldsWhenAMessageHasMoreThanItNeeds() throws Exception {
        assertThat(HookJson.parseSnapshotResult("{\"location\":\"a\",\"sizeBytes\":1,\"worker\":{\"v\":2}}"))
                .isEqualTo(SnapshotResult.of("a", 1));
        assertThat(HookJson.parseRestore("{}")).isEmpty();
    }

    @Test
    void shouldNameTheFieldWhenADiscardMessageIsNoString() {
        assertThatThrownBy(() -> HookJson.parseDiscard(
                "{\"checkpointId\":1,\"location\":\"x\",\"sizeBytes\":1,\"status\":\"LATE\",\"message\":5}"))
                .isInstanceOf(MalformedHookMessageException.class)
                .hasMessage("field message must be a non-empty string, was 5");
    }

    @Test
    void shouldWriteOnlyTheFieldsOfTheOutcomeWhenANotificationIsWritten() throws Exception {
        assertThat(JSON.readTree(HookJson.notification(HookNotification.aborted(4, 2))))
                .isEqualTo(JSON.readTree("{\"checkpointId\":4,\"outcome\":\"ABORTED\",\"latestCompletedId\":2,"
                        + "\"stopFailed\":false}"));
        assertThat(HookJson.restore(Optional.empty())).isEqualTo("{}");
        assertThat(HookJson.declined("CHECKPOINT_DECLINED", "busy"))
                .isEqualTo("{\"error\":\"busy\",\"reason\":\"CHECKPOINT_DECLINED\"}");
    }

    @Test
    void shouldKeepShortBodiesAndCutLongOnesWhenQuotingABody() {
        assertThat(HookJson.excerpt("  short \n")).isEqualTo("short");
        assertThat(HookJson.excerpt("")).isEqualTo("(empty body)");
        assertThat(HookJson.excerpt("y".repeat(HookJson.MAX_EXCERPT + 5)))
                .isEqualTo("y".repeat(HookJson.MAX_EXCERPT) + "... (5 more characters)");
    }
}
