package dev.cairn.sidecar.hook.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointType;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The HTTP hook with a worker that can be rescaled: what its answers declare, what a rescaled restore posts. */
class HttpSnapshotHookRescaleTest extends HttpSnapshotHookTestBase {

    private static final SnapshotRequest REQUEST = new SnapshotRequest(7, 1_700_000_000_123L,
            CheckpointType.CHECKPOINT, "file:///checkpoints/job-a/chk-7", "job-a", "map", 1);

    @Test
    void shouldAckWithTheKeyGroupsWhenTheWorkerDeclaresThem() throws Exception {
        worker.answer(200, "{\"location\":\"file:///state/7\",\"sizeBytes\":42,"
                + "\"keyGroups\":{\"startKeyGroup\":64,\"endKeyGroup\":127}}");

        SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(result.keyGroups()).isEqualTo(new KeyGroupRange(64, 127));
        assertThat(result.operatorStateMode()).isNull();
    }

    @Test
    void shouldAckWithTheModeWhenTheWorkerDeclaresOne() throws Exception {
        worker.answer(200, "{\"location\":\"file:///state/7\",\"sizeBytes\":42,\"operatorStateMode\":\"UNION\"}");

        SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(result.operatorStateMode()).isEqualTo(OperatorStateMode.UNION);
    }

    @Test
    void shouldDeclineNamingTheFieldWhenTheDeclaredKeyGroupsAreMalformed() throws Exception {
        worker.answer(200, "{\"location\":\"x\",\"sizeBytes\":1,\"keyGroups\":{\"startKeyGroup\":9,"
                + "\"endKeyGroup\":3}}");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("invalid snapshot result")
                .contains("field keyGroups.endKeyGroup must be an integer >= keyGroups.startKeyGroup (9)");
    }

    @Test
    void shouldDeclineNamingTheFieldWhenTheDeclaredModeIsUnknown() throws Exception {
        worker.answer(200, "{\"location\":\"x\",\"sizeBytes\":1,\"operatorStateMode\":\"BROADCAST\"}");

        assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                .contains("invalid snapshot result")
                .contains("field operatorStateMode must be one of [SPLIT_DISTRIBUTE, UNION], was \"BROADCAST\"");
    }

    @Test
    void shouldPostEveryStateHandedToTheSubtaskWhenItRestoresAfterARescale() throws Exception {
        hook.restore(Optional.of(HookJsonRescaleTest.RESCALED), new AttemptNumber("a-1", 41));

        assertThat(worker.received().get(0).path()).isEqualTo("/restore");
        String body = worker.received().get(0).body();
        assertThat(HookJson.parseRestore(body)).contains(HookJsonRescaleTest.RESCALED);
        assertThat(JSON.readTree(body).get("rescaled").asBoolean()).isTrue();
        assertThat(JSON.readTree(body).get("states")).hasSize(3);
        assertThat(JSON.readTree(body).has("location")).isFalse();
    }
}
