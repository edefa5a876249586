package dev.cairn.sidecar.hook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.DiscardReason;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The JSON of shared objects (results, restore points) and of discarded checkpoint states. */
class HookJsonSharedStateTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldReadBackSharedObjectsAndCheckpointDiscardsWhenWrittenByHookJson() throws Exception {
        // given
        List<SharedObject> shared = List.of(SharedObject.written("file:///s/sst-9", 30),
                SharedObject.reused("file:///s/sst-2", 12));
        SnapshotResult incremental = new SnapshotResult("file:///s/9", 42, 1, 2, 3, 30).withShared(shared);
        SnapshotResult finished = SnapshotResult.finishedWith("file:///s/f", 42).withShared(shared);
        RestorePoint point = new RestorePoint(9, "file:///s/9", 42, true, shared);
        DiscardedState subsumed = DiscardedState.ofCheckpoint(8, "file:///s/sst-1", 5, true, DiscardReason.SUBSUMED,
                "subsumed by checkpoint 9");
        DiscardedState ackShared = DiscardedState.ofAck(8, "file:///s/sst-3", 5, true, AckDiscardStatus.DISCARDED,
                "reuses a discarded object");

        // then
        assertThat(HookJson.parseSnapshotResult(HookJson.snapshotResult(incremental))).isEqualTo(incremental);
        assertThat(HookJson.parseSnapshotResult(HookJson.snapshotResult(finished))).isEqualTo(finished);
        assertThat(HookJson.parseRestore(HookJson.restore(Optional.of(point)))).contains(point);
        assertThat(HookJson.parseDiscard(HookJson.discard(subsumed))).isEqualTo(subsumed);
        assertThat(HookJson.parseDiscard(HookJson.discard(ackShared))).isEqualTo(ackShared);
    }

    @Test
    void shouldWriteTheReasonWithoutAStatusWhenACheckpointsStateWasDiscarded() throws Exception {
        String body = HookJson.discard(DiscardedState.ofCheckpoint(8, "file:///s/8", 5, false, DiscardReason.ABORTED,
                "checkpoint 8 aborted"));

        assertThat(JSON.readTree(body)).isEqualTo(JSON.readTree("{\"checkpointId\":8,\"location\":\"file:///s/8\","
                + "\"sizeBytes\":5,\"message\":\"checkpoint 8 aborted\",\"reason\":\"ABORTED\",\"shared\":false}"));
    }

    @Test
    void shouldReadNoSharedObjectsWhenABodyWrittenBeforeThemLacksTheField() throws Exception {
        assertThat(HookJson.parseSnapshotResult("{\"location\":\"a\",\"sizeBytes\":1}").shared()).isEmpty();
        assertThat(HookJson.parseRestore("{\"checkpointId\":3,\"location\":\"a\",\"sizeBytes\":1}"))
                .contains(new RestorePoint(3, "a", 1));
        assertThat(HookJson.parseDiscard(
                "{\"checkpointId\":3,\"location\":\"a\",\"sizeBytes\":1,\"status\":\"LATE\"}"))
                .isEqualTo(new DiscardedState(3, "a", 1, AckDiscardStatus.LATE, ""));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "'\"x\"'                                            | field shared must be an array, was \"x\"",
        "'[5]'                                              | field shared[0] must be an object, was 5",
        "'[null]'                                           | field shared[0] must be an object, was null",
        "'[{\"sizeBytes\":1}]'                              | missing field shared[0].location",
        "'[{\"location\":\"\",\"sizeBytes\":1}]'           | "
                + "field shared[0].location must be a non-empty string",
        "'[{\"location\":3,\"sizeBytes\":1}]'               | "
                + "field shared[0].location must be a non-empty string, was 3",
        "'[{\"location\":\"a\"}]'                           | missing field shared[0].sizeBytes",
        "'[{\"location\":\"a\",\"sizeBytes\":-1}]'         | "
                + "field shared[0].sizeBytes must be an integer >= 0, was -1",
        "'[{\"location\":\"a\",\"sizeBytes\":1.5}]'        | field shared[0].sizeBytes must be an integer, was 1.5",
        "'[{\"location\":\"a\",\"sizeBytes\":1},{\"location\":\"b\",\"sizeBytes\":1,\"reused\":\"no\"}]' | "
                + "field shared[1].reused must be true or false, was \"no\"",
    })
    void shouldNameTheFieldWhenASharedObjectOfAResultIsMalformed(String shared, String problem) {
        String body = "{\"location\":\"s\",\"sizeBytes\":1,\"shared\":" + shared + "}";

        assertThatThrownBy(() -> HookJson.parseSnapshotResult(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "'\"status\":\"LATE\",\"reason\":\"ABORTED\"'   | fields status and reason must not both be given",
        "'\"message\":\"m\"'                             | missing field status (an ack's state) or reason",
        "'\"reason\":\"GONE\"'                           | "
                + "field reason must be one of [SUBSUMED, ABORTED, DISPOSED]",
        "'\"reason\":\"ABORTED\",\"shared\":\"yes\"'      | field shared must be true or false, was \"yes\"",
    })
    void shouldNameTheProblemWhenADiscardsCauseIsMalformed(String fields, String problem) {
        String body = "{\"checkpointId\":1,\"location\":\"x\",\"sizeBytes\":1," + fields + "}";

        assertThatThrownBy(() -> HookJson.parseDiscard(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }
}
