package dev.cairn.sidecar.hook.command;

import static dev.cairn.sidecar.hook.command.CommandSnapshotHookTest.declineOf;
import static dev.cairn.sidecar.hook.command.CommandSnapshotHookTest.script;
import static dev.cairn.sidecar.hook.command.CommandSnapshotHookTest.withoutTempPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.events.CheckpointType;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.http.HookJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command hook with a worker that can be rescaled: the restore's variables and files, what a snapshot declares. */
class CommandSnapshotHookRescaleTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENT = Duration.ofSeconds(20);
    private static final SnapshotRequest REQUEST = new SnapshotRequest(12, 1_700_000_000_456L,
            CheckpointType.CHECKPOINT, "file:///checkpoints/job-a/chk-12", "job-a", "map", 1);
    /** New subtask 1 of 3 (2 before), max parallelism 128: two keyed states, one union state. */
    private static final RestorePoint RESCALED = new RestorePoint(5, null, 0, false, List.of(), 3, 2, 128,
            new KeyGroupRange(43, 85), List.of(
                    new RestoredState(0, "file:///cp/chk-5/map-0", 640, List.of(), new KeyGroupRange(0, 63), null),
                    new RestoredState(1, "file:///cp/chk-5/map-1", 640,
                            List.of(SharedObject.reused("file:///cp/shared/sst-3", 90)), new KeyGroupRange(64, 127),
                            null),
                    new RestoredState(0, "file:///cp/chk-5/offsets-0", 12, List.of(), null, OperatorStateMode.UNION)));

    @TempDir
    Path temp;

    @Test
    void shouldHandTheLayoutAndEveryStateWhenTheSubtaskRestoresAfterARescale() throws Exception {
        // given
        Path seen = temp.resolve("env");

        // when
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.restore(Optional.of(RESCALED), new AttemptNumber("a-1", 41));
        }

        // then no own location, the task's layout, and the states in both files
        List<String> variables = Files.readAllLines(seen);
        assertThat(variables).map(CommandSnapshotHookTest::withoutTempPath).containsExactly("CAIRN_ATTEMPT_ID=a-1",
                "CAIRN_ATTEMPT_NUMBER=41", "CAIRN_HOOK_ACTION=restore", "CAIRN_RESTORE_CHECKPOINT_ID=5",
                "CAIRN_RESTORE_CHOSEN=false", "CAIRN_RESTORE_KEY_GROUPS=43-85", "CAIRN_RESTORE_MAX_PARALLELISM=128",
                "CAIRN_RESTORE_PARALLELISM=3", "CAIRN_RESTORE_PREVIOUS_PARALLELISM=2", "CAIRN_RESTORE_RESCALED=true",
                "CAIRN_RESTORE_SHARED_COUNT=0", "CAIRN_RESTORE_SHARED_FILE=<file>", "CAIRN_RESTORE_SIZE_BYTES=0",
                "CAIRN_RESTORE_STATES_COUNT=3", "CAIRN_RESTORE_STATES_FILE=<file>",
                "CAIRN_RESTORE_STATES_JSON_FILE=<file>");
        assertThat(Files.readAllLines(temp.resolve("env.states"))).containsExactly(
                "0 640 0-63 - file:///cp/chk-5/map-0",
                "1 640 64-127 - file:///cp/chk-5/map-1",
                "0 12 - UNION file:///cp/chk-5/offsets-0");
        assertThat(JSON.readTree(Files.readString(temp.resolve("env.states.json"))))
                .isEqualTo(JSON.readTree(HookJson.states(RESCALED.states())));
        assertThat(variables).filteredOn(v -> !withoutTempPath(v).equals(v))
                .allSatisfy(v -> assertThat(Path.of(v.substring(v.indexOf('=') + 1)))
                        .as("deleted once the command exited").doesNotExist());
    }

    @Test
    void shouldHandItsOwnStateWithTheLayoutWhenTheParallelismIsTheSame() throws Exception {
        // given
        Path seen = temp.resolve("env");
        KeyGroupRange mine = new KeyGroupRange(64, 127);
        RestorePoint same = new RestorePoint(5, "file:///cp/chk-5/map-1", 640, false, List.of(), 2, 2, 128, mine,
                List.of(new RestoredState(1, "file:///cp/chk-5/map-1", 640, List.of(), mine, null)));

        // when
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.restore(Optional.of(same));
        }

        // then
        assertThat(Files.readAllLines(seen)).contains("CAIRN_RESTORE_LOCATION=file:///cp/chk-5/map-1",
                "CAIRN_RESTORE_RESCALED=false", "CAIRN_RESTORE_PARALLELISM=2", "CAIRN_RESTORE_PREVIOUS_PARALLELISM=2",
                "CAIRN_RESTORE_KEY_GROUPS=64-127", "CAIRN_RESTORE_STATES_COUNT=1");
        assertThat(Files.readAllLines(temp.resolve("env.states")))
                .containsExactly("1 640 64-127 - file:///cp/chk-5/map-1");
    }

    @Test
    void shouldLeaveTheLayoutUnsetWhenTheCoordinatorDidNotSayIt() throws Exception {
        // given
        Path seen = temp.resolve("env");

        // when
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.restore(Optional.of(new RestorePoint(4, "file:///cp/chk-4/map-1", 77)));
        }

        // then
        assertThat(Files.readAllLines(seen)).contains("CAIRN_RESTORE_RESCALED=false")
                .noneMatch(v -> v.startsWith("CAIRN_RESTORE_PARALLELISM=") || v.startsWith("CAIRN_RESTORE_KEY_GROUPS=")
                        || v.startsWith("CAIRN_RESTORE_MAX_PARALLELISM="));
        assertThat(Files.readAllLines(temp.resolve("env.states"))).containsExactly("-1 77 - - file:///cp/chk-4/map-1");
    }

    @Test
    void shouldKeepALocationWithSpacesWholeWhenAScriptReadsTheStatesLineByLine() throws Exception {
        // given
        Path read = temp.resolve("read");
        RestorePoint spaced = new RestorePoint(5, null, 0, false, List.of(), 3, 2, 128, new KeyGroupRange(43, 85),
                List.of(new RestoredState(0, "/var/lib/my state/chk 5", 7, List.of(), new KeyGroupRange(0, 63), null),
                        new RestoredState(1, "/var/lib/offsets", 3, List.of(), null,
                                OperatorStateMode.SPLIT_DISTRIBUTE)));

        // when
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("read-states.sh", read.toString()), PATIENT)) {
            hook.restore(Optional.of(spaced));
        }

        // then
        assertThat(Files.readAllLines(read)).containsExactly("0|7|0-63|-|/var/lib/my state/chk 5",
                "1|3|-|SPLIT_DISTRIBUTE|/var/lib/offsets");
    }

    @Test
    void shouldRefuseToRunTheRestoreWhenAStatesLocationHoldsALineBreak() {
        Path seen = temp.resolve("env");
        RestorePoint broken = new RestorePoint(5, null, 0, false, List.of(), 3, 2, 128, new KeyGroupRange(43, 85),
                List.of(new RestoredState(0, "file:///cp/a\nb", 7, List.of())));

        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            assertThatThrownBy(() -> hook.restore(Optional.of(broken))).isInstanceOf(IOException.class)
                    .hasMessage("cannot hand the state of subtask 0 to a restoring command: its location holds a"
                            + " line break, and CAIRN_RESTORE_STATES_FILE has one line per state: file:///cp/a\\nb");
        }
        assertThat(seen).as("the command did not run").doesNotExist();
    }

    @Test
    void shouldAckWithWhatTheCommandDeclaresWhenItPrintsKeyGroupsOrAMode() throws Exception {
        String keyed = "{\"location\":\"file:///s/12\",\"sizeBytes\":9,"
                + "\"keyGroups\":{\"startKeyGroup\":43,\"endKeyGroup\":85}}";
        String union = "{\"location\":\"file:///s/12\",\"sizeBytes\":9,\"operatorStateMode\":\"UNION\"}";

        try (CommandSnapshotHook keyedHook = new CommandSnapshotHook(List.of("echo", keyed), PATIENT);
                CommandSnapshotHook unionHook = new CommandSnapshotHook(List.of("echo", union), PATIENT)) {
            SnapshotResult keyedResult = keyedHook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);
            SnapshotResult unionResult = unionHook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(keyedResult.keyGroups()).isEqualTo(new KeyGroupRange(43, 85));
            assertThat(unionResult.operatorStateMode()).isEqualTo(OperatorStateMode.UNION);
        }
    }

    @Test
    void shouldDeclineNamingTheFieldWhenTheCommandDeclaresMalformedKeyGroups() throws Exception {
        String answer = "{\"location\":\"file:///s/12\",\"sizeBytes\":9,\"keyGroups\":{\"startKeyGroup\":-3,"
                + "\"endKeyGroup\":85}}";
        try (CommandSnapshotHook hook = new CommandSnapshotHook(List.of("echo", answer), PATIENT)) {
            assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                    .contains("not a valid snapshot result")
                    .contains("field keyGroups.startKeyGroup must be an integer >= 0, was -3");
        }
    }

    @Test
    void shouldDeclineNamingTheFieldWhenTheCommandDeclaresAnUnknownMode() throws Exception {
        String answer = "{\"location\":\"file:///s/12\",\"sizeBytes\":9,\"operatorStateMode\":\"union\"}";
        try (CommandSnapshotHook hook = new CommandSnapshotHook(List.of("echo", answer), PATIENT)) {
            assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                    .contains("not a valid snapshot result")
                    .contains("field operatorStateMode must be one of [SPLIT_DISTRIBUTE, UNION], was \"union\"");
        }
    }
}
