package dev.cairn.sidecar.hook.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandSnapshotHookTest {

    private static final Duration PATIENT = Duration.ofSeconds(20);
    private static final SnapshotRequest REQUEST = new SnapshotRequest(12, 1_700_000_000_456L,
            CheckpointType.CHECKPOINT, "file:///checkpoints/job-a/chk-12", "job-a", "map", 3);

    @TempDir
    Path temp;

    @Test
    void shouldAckWithTheResultWhenTheCommandExitsZeroWithJson() throws Exception {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("snapshot-ok.sh"), PATIENT)) {
            SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(result).isEqualTo(new SnapshotResult("file:///checkpoints/job-a/chk-12/map-3", 12, 1, 2, 0, 12));
        }
    }

    @Test
    void shouldPassTheCheckpointInTheEnvironmentWhenSnapshotting() throws Exception {
        Path seen = temp.resolve("env");
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);
        }

        assertThat(Files.readAllLines(seen)).containsExactly(
                "CAIRN_ALIGNED_TIMEOUT_MS=-1",
                "CAIRN_ALIGNMENT=ALIGNED",
                "CAIRN_BACKUP_TYPE=FULL",
                "CAIRN_CHECKPOINT_ID=12",
                "CAIRN_CHECKPOINT_TIMESTAMP=1700000000456",
                "CAIRN_CHECKPOINT_TYPE=CHECKPOINT",
                "CAIRN_DRAIN=false",
                "CAIRN_HOOK_ACTION=snapshot",
                "CAIRN_JOB_ID=job-a",
                "CAIRN_LATEST_COMPLETED_ID=-1",
                "CAIRN_POST_CHECKPOINT_ACTION=NONE",
                "CAIRN_SAVEPOINT_FORMAT=CANONICAL",
                "CAIRN_STORAGE_LOCATION=file:///checkpoints/job-a/chk-12",
                "CAIRN_SUBTASK_INDEX=3",
                "CAIRN_SYNCHRONOUS=false",
                "CAIRN_TASK_ID=map");
    }

    @Test
    void shouldPassTheirVariablesAndTheFixedEnvironmentWhenNotifyingOrRestoring() throws Exception {
        Path seen = temp.resolve("env");
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT,
                Map.of("CAIRN_JOB_ID", "job-a"))) {
            hook.notifyComplete(12, 11);
            assertThat(Files.readAllLines(seen)).containsExactly("CAIRN_CHECKPOINT_ID=12", "CAIRN_DRAIN=false",
                    "CAIRN_HOOK_ACTION=complete", "CAIRN_JOB_ID=job-a", "CAIRN_LAST_SUBSUMED_ID=11",
                    "CAIRN_STOPPING=false");

            hook.notifyAborted(13, 12);
            assertThat(Files.readAllLines(seen)).containsExactly("CAIRN_CHECKPOINT_ID=13", "CAIRN_HOOK_ACTION=abort",
                    "CAIRN_JOB_ID=job-a", "CAIRN_LATEST_COMPLETED_ID=12", "CAIRN_STOP_FAILED=false");

            hook.restore(Optional.of(new RestorePoint(12, "file:///state/12", 77)));
            assertThat(Files.readAllLines(seen)).map(CommandSnapshotHookTest::withoutTempPath).containsExactly(
                    "CAIRN_HOOK_ACTION=restore", "CAIRN_JOB_ID=job-a", "CAIRN_RESTORE_CHECKPOINT_ID=12",
                    "CAIRN_RESTORE_CHOSEN=false", "CAIRN_RESTORE_LOCATION=file:///state/12",
                    "CAIRN_RESTORE_RESCALED=false", "CAIRN_RESTORE_SHARED_COUNT=0", "CAIRN_RESTORE_SHARED_FILE=<file>",
                    "CAIRN_RESTORE_SIZE_BYTES=77", "CAIRN_RESTORE_STATES_COUNT=1", "CAIRN_RESTORE_STATES_FILE=<file>",
                    "CAIRN_RESTORE_STATES_JSON_FILE=<file>");

            hook.restore(Optional.of(new RestorePoint(12, "file:///state/12", 77, true)));
            assertThat(Files.readAllLines(seen)).contains("CAIRN_RESTORE_CHOSEN=true");

            hook.restore(Optional.empty());
            assertThat(Files.readAllLines(seen)).containsExactly("CAIRN_HOOK_ACTION=restore", "CAIRN_JOB_ID=job-a");

            hook.restore(Optional.empty(), new AttemptNumber("a-1", 41));
            assertThat(Files.readAllLines(seen)).containsExactly("CAIRN_ATTEMPT_ID=a-1", "CAIRN_ATTEMPT_NUMBER=41",
                    "CAIRN_HOOK_ACTION=restore", "CAIRN_JOB_ID=job-a");
        }
    }

    @Test
    void shouldSeeTheParticipantAndTheOptionsWhenAParticipantSnapshotsAStopWithSavepoint() throws Exception {
        // given
        Path seen = temp.resolve("env");
        SnapshotRequest stop = SnapshotRequest.forParticipant(12, 7, CheckpointType.SAVEPOINT, "s3://sp/12", "job-a",
                "offsets", new CheckpointOptions(BackupType.INCREMENTAL, SavepointFormat.NATIVE,
                        PostCheckpointAction.SUSPEND, AlignmentType.UNALIGNED, 0));

        // when
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.snapshot(stop.withLatestCompletedId(11)).toCompletableFuture().get(30, TimeUnit.SECONDS);
        }

        // then
        assertThat(Files.readAllLines(seen)).contains("CAIRN_PARTICIPANT=offsets", "CAIRN_LATEST_COMPLETED_ID=11",
                "CAIRN_BACKUP_TYPE=INCREMENTAL",
                "CAIRN_SAVEPOINT_FORMAT=NATIVE", "CAIRN_POST_CHECKPOINT_ACTION=SUSPEND", "CAIRN_ALIGNMENT=UNALIGNED",
                "CAIRN_ALIGNED_TIMEOUT_MS=0", "CAIRN_SYNCHRONOUS=true", "CAIRN_DRAIN=false")
                .noneMatch(line -> line.startsWith("CAIRN_TASK_ID") || line.startsWith("CAIRN_SUBTASK_INDEX"));
    }

    @Test
    void shouldSeeTheStopFlagsAndTheDiscardedStateInTheirCalls() throws Exception {
        Path seen = temp.resolve("env");
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("record-env.sh", seen.toString()), PATIENT)) {
            hook.notifyComplete(new CheckpointCompletion(9, 8, true, true));
            assertThat(Files.readAllLines(seen)).contains("CAIRN_STOPPING=true", "CAIRN_DRAIN=true");

            hook.notifyAborted(new CheckpointAbort(10, 9, true));
            assertThat(Files.readAllLines(seen)).contains("CAIRN_STOP_FAILED=true");

            hook.discardState(new DiscardedState(4, "file:///s/4", 12, AckDiscardStatus.DISCARDED, "stale attempt"));
            assertThat(Files.readAllLines(seen)).containsExactly("CAIRN_CHECKPOINT_ID=4",
                    "CAIRN_DISCARD_LOCATION=file:///s/4", "CAIRN_DISCARD_SHARED=false", "CAIRN_DISCARD_SIZE_BYTES=12",
                    "CAIRN_DISCARD_STATUS=DISCARDED", "CAIRN_HOOK_ACTION=discard");
        }
    }

    @Test
    void shouldReadNoStateForAParticipantAndAFinishedTaskFromTheirAnswers() throws Exception {
        SnapshotRequest participant = SnapshotRequest.forParticipant(12, 7, CheckpointType.CHECKPOINT, "file:///cp",
                "job-a", "offsets", CheckpointOptions.DEFAULTS);
        try (CommandSnapshotHook empty = new CommandSnapshotHook(List.of("echo", "{}"), PATIENT);
                CommandSnapshotHook finished = new CommandSnapshotHook(List.of("echo", "{\"finished\":true}"),
                        PATIENT)) {
            assertThat(empty.snapshot(participant).toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .isEqualTo(SnapshotResult.none());
            assertThat(declineOf(empty.snapshot(REQUEST).toCompletableFuture()).getMessage())
                    .contains("missing field location");
            assertThat(finished.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .isEqualTo(SnapshotResult.finishedWithoutState());
        }
    }

    @Test
    void shouldDeclineWithTheExitCodeAndStderrWhenTheCommandExitsNonZero() throws Exception {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("fail.sh"), PATIENT)) {
            SnapshotDeclinedException declined = declineOf(hook.snapshot(REQUEST).toCompletableFuture());

            assertThat(declined.reason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
            assertThat(declined.getMessage()).contains("exited with code 3")
                    .contains("...\nproblem line 11\n").endsWith("problem line 30")
                    .doesNotContain("problem line 10").doesNotContain("partial output");
        }
    }

    @Test
    void shouldDestroyTheCommandAndItsChildrenAndDeclineWhenItOutlivesTheTimeout() throws Exception {
        Path pids = temp.resolve("pids");
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("hang.sh", pids.toString()),
                Duration.ofSeconds(3))) {
            SnapshotDeclinedException declined = declineOf(hook.snapshot(REQUEST).toCompletableFuture());

            assertThat(declined.getMessage()).contains("timed out after 3000 ms")
                    .contains("destroyed with its descendants").contains("about to hang");
        }
        assertThat(pids).exists();
        long[] shellAndChild = Arrays.stream(Files.readString(pids).trim().split(" ")).mapToLong(Long::parseLong)
                .toArray();
        for (long pid : shellAndChild) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !alive(pid));
        }
    }

    @Test
    void shouldDeclineNamingTheProblemWhenTheCommandExitsZeroWithoutJson() throws Exception {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("bad-json.sh"), PATIENT)) {
            assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                    .contains("exited 0 but its stdout is not a valid snapshot result")
                    .contains("not valid JSON").contains("snapshot done!");
        }
    }

    @Test
    void shouldDeclineNamingTheFieldWhenTheCommandExitsZeroWithoutALocation() throws Exception {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("no-location.sh"), PATIENT)) {
            assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                    .contains("missing field location");
        }
    }

    @Test
    void shouldNotBlockOnAFullPipeWhenTheCommandIsChatty() throws Exception {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("chatty.sh"), PATIENT)) {
            SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(result).isEqualTo(SnapshotResult.of("file:///chatty", 3_000_000));
        }
    }

    @Test
    void shouldPassArgumentsVerbatimWhenNoShellIsAskedFor() throws Exception {
        String notExpanded = "$CAIRN_JOB_ID; echo injected `id`";
        try (CommandSnapshotHook hook = new CommandSnapshotHook(
                List.of("printf", "{\"location\":\"%s\",\"sizeBytes\":1}", notExpanded), PATIENT)) {
            SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(result.location()).isEqualTo(notExpanded);
        }
    }

    @Test
    void shouldExpandTheVariablesWhenTheUserAsksForAShell() throws Exception {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(List.of("sh", "-c",
                "echo \"{\\\"location\\\":\\\"$CAIRN_JOB_ID/$CAIRN_CHECKPOINT_ID\\\",\\\"sizeBytes\\\":5}\""),
                PATIENT)) {
            SnapshotResult result = hook.snapshot(REQUEST).toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(result.location()).isEqualTo("job-a/12");
        }
    }

    @Test
    void shouldDeclineWhenTheProgramCannotBeStarted() throws Exception {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(List.of(temp.resolve("missing").toString()), PATIENT)) {
            assertThat(declineOf(hook.snapshot(REQUEST).toCompletableFuture()).getMessage())
                    .contains("could not start hook command").contains("missing");
        }
    }

    @Test
    void shouldThrowWithTheExitCodeAndStderrWhenANotificationFails() {
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("fail.sh"), PATIENT)) {
            assertThatThrownBy(() -> hook.notifyComplete(4, 3)).isInstanceOf(IOException.class)
                    .hasMessageContaining("(complete) exited with code 3").hasMessageContaining("problem line 30");
        }
    }

    @Test
    void shouldThrowWhenARestoreOutlivesTheTimeout() {
        Path pids = temp.resolve("pids");
        try (CommandSnapshotHook hook = new CommandSnapshotHook(script("hang.sh", pids.toString()),
                Duration.ofMillis(700))) {
            assertThatThrownBy(() -> hook.restore(Optional.empty())).isInstanceOf(IOException.class)
                    .hasMessageContaining("(restore) timed out after 700 ms");
        }
    }

    @Test
    void shouldRejectTheHookWhenTheCommandIsEmptyOrTheTimeoutNotPositive() {
        assertThatThrownBy(() -> new CommandSnapshotHook(List.of(), PATIENT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must name a program");
        assertThatThrownBy(() -> new CommandSnapshotHook(List.of("true"), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout must be positive");
    }

    /** Runs a script shipped in the test resources through {@code sh}, so it needs no executable bit. */
    static List<String> script(String name, String... arguments) {
        try {
            Path path = Path.of(CommandSnapshotHookTest.class.getResource("/hooks/" + name).toURI());
            List<String> command = new java.util.ArrayList<>(List.of("sh", path.toString()));
            command.addAll(List.of(arguments));
            return command;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A variable line with the path of a temporary file masked, as {@code <file>}. */
    static String withoutTempPath(String line) {
        int equals = line.indexOf('=');
        return equals > 0 && line.substring(0, equals).endsWith("_FILE") ? line.substring(0, equals) + "=<file>"
                : line;
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    static SnapshotDeclinedException declineOf(java.util.concurrent.CompletableFuture<SnapshotResult> snapshot)
            throws Exception {
        try {
            SnapshotResult result = snapshot.get(30, TimeUnit.SECONDS);
            throw new AssertionError("expected a decline, got " + result);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(SnapshotDeclinedException.class);
            return (SnapshotDeclinedException) e.getCause();
        }
    }
}
