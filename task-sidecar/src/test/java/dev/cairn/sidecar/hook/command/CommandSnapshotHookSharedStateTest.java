package dev.cairn.sidecar.hook.command;

import static dev.cairn.sidecar.hook.command.CommandSnapshotHookTest.declineOf;
import static dev.cairn.sidecar.hook.command.CommandSnapshotHookTest.script;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command hook with an incremental worker: shared objects in results and restore points, checkpoint discards. */
class CommandSnapshotHookSharedStateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENT = Duration.ofSeconds(20);
    private static final SnapshotRequest REQUEST = new SnapshotRequest(12, 1_700_000_000_456L,
            CheckpointType.CHECKPOINT, "file:///checkpoints/job-a/chk-12", "job-a", "map", 3);

    @TempDir
    Path temp;

    @Test
    void shouldAckWithTheSharedObjectsWhenTheCommandPrintsThem() throws Exception {
        String answer = "{\"location\":\"file:///s/12\",\"sizeBytes\":9,\"shared\":[{\"location\":\"file:///s/sst-4\","
                + "\"sizeBytes\":5},{\"location\":\"file:///s/sst-1\",\"sizeBytes\":3,\"reused\":true}]}";
        try (CommandSnapshotHook hook = new CommandSnapshotHook(List.of("echo", answer), PATIENT)) {
            SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(result.shared()).containsExactly(SharedObject.written("file:///s/sst-4", 5),
                    SharedObject.reused("file:///s/sst-1", 3));
        }
    }

    @Test
    void shouldDeclineNamingTheFieldWhenTheCommandPrintsAMalformedSharedObject() throws Exception {
        String answer = "{\"location\":\"file:///s/12\",\"sizeBytes\":9,"
                + "\"shared\":[{\"location\":\"file:///s/sst-4\"}]}";
        try (CommandSnapshotHook hook = new CommandSnapshotHook(List.of("echo", answer), PATIENT)) {
            assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                    .contains("not a valid snapshot result").contains("missing field shared[0].sizeBytes");
        }
    }

    @Test
    void shouldHandTheRestorePointsSharedObjectsInAFileWhenRestoring() throws Exception {
        // given
        Path seen = temp.resolve("env");
        RestorePoint point = new RestorePoint(12, "file:///s/12", 77, false, List.of(
                SharedObject.written("file:///s/sst-4", 5), SharedObject.reused("file:///s/sst-1", 3)));

        // when
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.restore(Optional.of(point));
        }

        // then
        List<String> variables = Files.readAllLines(seen);
        assertThat(variables).contains("CAIRN_RESTORE_SHARED_COUNT=2");
        assertThat(JSON.readTree(Files.readString(temp.resolve("env.shared")))).isEqualTo(JSON.readTree(
                "[{\"location\":\"file:///s/sst-4\",\"sizeBytes\":5,\"reused\":false},"
                        + "{\"location\":\"file:///s/sst-1\",\"sizeBytes\":3,\"reused\":true}]"));
        Path file = Path.of(variables.stream().filter(v -> v.startsWith("CAIRN_RESTORE_SHARED_FILE="))
                .findFirst().orElseThrow().substring("CAIRN_RESTORE_SHARED_FILE=".length()));
        assertThat(file).as("deleted once the command exited").doesNotExist();
    }

    @Test
    void shouldPassTheReasonAndNoStatusWhenACheckpointsSharedObjectIsDiscarded() throws Exception {
        Path seen = temp.resolve("env");
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.discardState(DiscardedState.ofCheckpoint(4, "file:///s/sst-1", 3, true, DiscardReason.SUBSUMED,
                    "subsumed by checkpoint 5"));
        }

        assertThat(Files.readAllLines(seen)).containsExactly("CAIRN_CHECKPOINT_ID=4",
                "CAIRN_DISCARD_LOCATION=file:///s/sst-1", "CAIRN_DISCARD_REASON=SUBSUMED", "CAIRN_DISCARD_SHARED=true",
                "CAIRN_DISCARD_SIZE_BYTES=3", "CAIRN_HOOK_ACTION=discard");
    }
}
