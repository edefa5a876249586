package dev.cairn.sidecar.hook.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The HTTP hook with an incremental worker: shared objects in results and restore points, checkpoint discards. */
class HttpSnapshotHookSharedStateTest extends HttpSnapshotHookTestBase {

    private static final SnapshotRequest REQUEST = new SnapshotRequest(7, 1_700_000_000_123L,
            CheckpointType.CHECKPOINT, "file:///checkpoints/job-a/chk-7", "job-a", "map", 2);

    @Test
    void shouldAckWithTheSharedObjectsWhenTheWorkerNamesThem() throws Exception {
        worker.answer(200, "{\"location\":\"file:///state/7\",\"sizeBytes\":42,\"shared\":["
                + "{\"location\":\"file:///state/shared/sst-9\",\"sizeBytes\":30},"
                + "{\"location\":\"file:///state/shared/sst-2\",\"sizeBytes\":12,\"reused\":true}]}");

        SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(result.shared()).containsExactly(SharedObject.written("file:///state/shared/sst-9", 30),
                SharedObject.reused("file:///state/shared/sst-2", 12));
    }

    @Test
    void shouldDeclineNamingTheFieldWhenASharedObjectIsMalformed() throws Exception {
        worker.answer(200,
                "{\"location\":\"x\",\"sizeBytes\":1,\"shared\":[{\"location\":\"a\",\"sizeBytes\":\"7\"}]}");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("invalid snapshot result")
                .contains("field shared[0].sizeBytes must be an integer, was \"7\"");
    }

    @Test
    void shouldPostTheReasonAndWhetherItIsSharedWhenACheckpointsStateWasDiscarded() throws Exception {
        hook.discardState(DiscardedState.ofCheckpoint(4, "file:///s/shared/sst-1", 12, true, DiscardReason.SUBSUMED,
                "subsumed by checkpoint 5"));

        assertThat(json(0)).isEqualTo(JSON.readTree("{\"checkpointId\":4,\"location\":\"file:///s/shared/sst-1\","
                + "\"sizeBytes\":12,\"message\":\"subsumed by checkpoint 5\",\"reason\":\"SUBSUMED\","
                + "\"shared\":true}"));
    }

    @Test
    void shouldPostTheRestorePointsSharedObjectsWhenRestoring() throws Exception {
        hook.restore(Optional.of(new RestorePoint(4, "file:///state/4", 99, false,
                List.of(SharedObject.reused("file:///state/shared/sst-1", 40)))));

        String shared = "[{\"location\":\"file:///state/shared/sst-1\",\"sizeBytes\":40,\"reused\":true}]";
        assertThat(json(0)).isEqualTo(JSON.readTree("{\"checkpointId\":4,\"location\":\"file:///state/4\","
                + "\"sizeBytes\":99,\"shared\":" + shared + ",\"rescaled\":false,\"states\":[{\"fromSubtask\":-1,"
                + "\"location\":\"file:///state/4\",\"sizeBytes\":99,\"shared\":" + shared + "}]}"));
    }
}
