package dev.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TaskVertex;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CairnCliRegisterTest {

    private static final String[] REQUIRED = {"--interval-ms", "2000", "--timeout-ms", "10000",
            "--storage", "file:///tmp/cairn"};

    @Test
    void shouldProduceAJobSpecWithTheTasksRolesAndConfiguration() {
        CliRun run = CliRun.of("register", "--job", "orders", "--task", "source:1", "--task", "map:2",
                "--task", "sink:1", "--task-roles", "sink:ack,notify", "--interval-ms", "2000", "--timeout-ms",
                "10000", "--min-pause-ms", "500", "--max-concurrent", "2", "--tolerable-failures", "3",
                "--retained", "4", "--storage", "file:///tmp/cairn");

        assertThat(run.exit).as(run.err).isZero();
        JobSpec spec = (JobSpec) run.event();
        assertThat(run.sent.get(0).topic()).isEqualTo("cairn.requests");
        assertThat(run.sent.get(0).key()).isEqualTo("orders");
        assertThat(spec.getJobId()).isEqualTo("orders");
        assertThat(spec.getTimestampMs()).isEqualTo(CliRun.NOW_MS);
        assertThat(spec.getTasks()).containsExactly(
                vertex("source", 1, true, true, true),
                vertex("map", 2, true, true, true),
                vertex("sink", 1, false, true, true));
        assertThat(spec.getConfig()).isEqualTo(CheckpointConfig.newBuilder().setIntervalMs(2000).setTimeoutMs(10000)
                .setMinPauseMs(500).setMaxConcurrent(2).setTolerableFailures(3).setRetained(4)
                .setStorageBaseLocation("file:///tmp/cairn").build());
    }

    @Test
    void shouldUseFlinkLikeDefaultsForTheOptionalSettings() {
        CliRun run = register("--task", "source:1");

        CheckpointConfig config = ((JobSpec) run.event()).getConfig();
        assertThat(config.getMinPauseMs()).isZero();
        assertThat(config.getMaxConcurrent()).isEqualTo(1);
        assertThat(config.getTolerableFailures()).isZero();
        assertThat(config.getRetained()).isEqualTo(1);
    }

    @Test
    void shouldProduceTheSnapshotConfigAndTheParticipantsInOrder() {
        CliRun run = register("--task", "source:1", "--mode", "at_least_once", "--unaligned", "--aligned-timeout-ms",
                "250", "--backup-type", "incremental", "--savepoint-format", "native", "--participant", "offsets-hook",
                "--participant", "enumerator");

        assertThat(run.exit).as(run.err).isZero();
        JobSpec spec = (JobSpec) run.event();
        assertThat(spec.getConfig()).isEqualTo(CheckpointConfig.newBuilder().setIntervalMs(2000).setTimeoutMs(10000)
                .setStorageBaseLocation("file:///tmp/cairn").setExactlyOnce(false).setUnalignedEnabled(true)
                .setAlignedTimeoutMs(250).setBackupType(BackupType.INCREMENTAL)
                .setSavepointFormat(SavepointFormat.NATIVE).build());
        assertThat(spec.getParticipants()).containsExactly("offsets-hook", "enumerator");
        assertThat(run.out).contains("snapshots:   at least once, unaligned after 250 ms aligned, INCREMENTAL "
                + "checkpoints, NATIVE savepoints").contains("participants: offsets-hook, enumerator");
    }

    @Test
    void shouldProduceTheMasterHooksToAskAfterTheParticipants() {
        CliRun run = register("--task", "source:1", "--participant", "enumerator", "--master-hook", "offsets-hook");

        assertThat(run.exit).as(run.err).isZero();
        JobSpec spec = (JobSpec) run.event();
        assertThat(spec.getParticipants()).containsExactly("enumerator");
        assertThat(spec.getMasterHooks()).containsExactly("offsets-hook");
        assertThat(run.out).contains("master hooks: offsets-hook (after the participants)");
    }

    @Test
    void shouldNameTheMasterHookFlagWhenAHookRepeatsAParticipant() {
        assertRefused(register("--task", "source:1", "--participant", "hook", "--master-hook", "hook"),
                "--master-hook 'hook' is named twice; name each participant once");
    }

    @Test
    void shouldUseFlinksDefaultsForTheSnapshotConfigAndNoParticipants() {
        CliRun run = register("--task", "source:1");

        JobSpec spec = (JobSpec) run.event();
        assertThat(spec.getConfig().getExactlyOnce()).isTrue();
        assertThat(spec.getConfig().getUnalignedEnabled()).isFalse();
        assertThat(spec.getConfig().getAlignedTimeoutMs()).isZero();
        assertThat(spec.getConfig().getBackupType()).as("null: Flink's default, FULL").isNull();
        assertThat(spec.getConfig().getSavepointFormat()).as("null: Flink's default, CANONICAL").isNull();
        assertThat(spec.getParticipants()).isEmpty();
        assertThat(run.out).contains("snapshots:   exactly once, aligned, FULL checkpoints, CANONICAL savepoints")
                .contains("participants: none");
    }

    @Test
    void shouldNameEveryProblemByItsFlagWhenTheTimeoutAndParticipantsAreWrong() {
        CliRun run = register("--task", "source:1", "--aligned-timeout-ms", "-1", "--participant", " ",
                "--participant", "hook", "--participant", "hook");

        assertRefused(run, "--aligned-timeout-ms must be in [0, 31622400000] but is -1");
        assertThat(run.err).contains("--participant ' ' is empty")
                .contains("--participant 'hook' is named twice; name each participant once");
    }

    @Test
    void shouldNameTheFlagOfAnUnknownModeBackupTypeOrSavepointFormat() {
        assertRefused(register("--task", "source:1", "--mode", "once"),
                "Invalid value for option '--mode': expected one of [EXACTLY_ONCE, AT_LEAST_ONCE]");
        assertRefused(register("--task", "source:1", "--backup-type", "delta"),
                "Invalid value for option '--backup-type': expected one of [FULL, INCREMENTAL]");
        assertRefused(register("--task", "source:1", "--savepoint-format", "zip"),
                "Invalid value for option '--savepoint-format': expected one of [CANONICAL, NATIVE]");
    }

    @Test
    void shouldPrintWhatItSentInWords() {
        CliRun run = CliRun.of("register", "--job", "orders", "--task", "source:1", "--task", "map:2",
                "--task", "sink:1", "--task-roles", "sink:ack,notify", "--interval-ms", "2000",
                "--timeout-ms", "10000", "--storage", "file:///tmp/cairn");

        assertThat(run.out)
                .contains("Sent JobSpec of job 'orders' to cairn.requests (partition 3, offset 42)")
                .contains("tasks:       source x1, map x2, sink x1 (ack, notify)")
                .contains("every 2000 ms, timeout 10000 ms, min pause 0 ms, at most 1 concurrent, "
                        + "0 tolerable failures, 1 retained")
                .contains("storage:     file:///tmp/cairn")
                .contains("TaskStarted to cairn.acks");
    }

    @Test
    void shouldNameTheTaskWhenItsParallelismIsNotANumber() {
        assertRefused(register("--task", "map:x"), "--task 'map:x': parallelism must be a whole number");
    }

    @Test
    void shouldRefuseTheTaskWhenItsParallelismIsZeroOrNegative() {
        assertRefused(register("--task", "map:0"), "--task 'map:0': parallelism must be in [1, 32768] but is 0");
        assertRefused(register("--task", "map:-2"), "--task 'map:-2': parallelism must be in [1, 32768] but is -2");
    }

    @Test
    void shouldExplainTheTaskFlagWhenItHasNoParallelismOrId() {
        assertRefused(register("--task", "map"), "--task 'map': expected TASK:PARALLELISM, e.g. map:2");
        assertRefused(register("--task", ":2"), "--task ':2': task id is empty");
    }

    @Test
    void shouldRefuseTheSecondTaskWhenATaskIsDeclaredTwice() {
        assertRefused(register("--task", "map:1", "--task", "map:2"),
                "--task 'map:2': task id 'map' is declared twice (first as task 1)");
    }

    @Test
    void shouldNameBothFlagsWhenTheIntervalIsNegativeAndTheTimeoutZero() {
        CliRun run = CliRun.of("register", "--job", "orders", "--task", "source:1", "--interval-ms", "-5",
                "--timeout-ms", "0", "--storage", "file:///tmp/cairn");

        assertRefused(run, "--interval-ms must be in [1, 31622400000] but is -5");
        assertThat(run.err).contains("--timeout-ms must be in [1, 31622400000] but is 0");
    }

    @Test
    void shouldNameEveryFlagWhenSeveralOptionalSettingsAreOutOfRange() {
        CliRun run = register("--task", "source:1", "--min-pause-ms", "-1", "--max-concurrent", "0",
                "--tolerable-failures", "-1", "--retained", "0");

        assertRefused(run, "--min-pause-ms must be in [0, 31622400000] but is -1");
        assertThat(run.err).contains("--max-concurrent must be >= 1 but is 0")
                .contains("--tolerable-failures must be >= 0 but is -1")
                .contains("--retained must be in [1, 100] but is 0");
    }

    @Test
    void shouldReportEveryMalformedTaskWhenSeveralAreMalformed() {
        CliRun run = register("--task", "source:one", "--task", "map", "--task", "sink:1");

        assertRefused(run, "--task 'source:one': parallelism must be a whole number");
        assertThat(run.err).contains("--task 'map': expected TASK:PARALLELISM");
    }

    @Test
    void shouldSetTheMaxParallelismOfTheTasksThatGiveItAndLeaveTheOthersToTheCoordinator() {
        CliRun run = register("--task", "source:1", "--task", "count:2", "--task", "sink:1", "--task-roles",
                "sink:ack,notify", "--max-parallelism", "count:256", "--max-parallelism", "sink: 4");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(((JobSpec) run.event()).getTasks()).extracting(TaskVertex::getTaskId,
                TaskVertex::getMaxParallelism).containsExactly(tuple("source", null), tuple("count", 256),
                tuple("sink", 4));
        assertThat(run.out).contains("tasks:       source x1, count x2 (max parallelism 256), sink x1 (max "
                + "parallelism 4; ack, notify)");
    }

    @Test
    void shouldExplainTheMaxParallelismFlagWhenItIsMalformed() {
        CliRun run = register("--task", "count:2", "--max-parallelism", "count", "--max-parallelism", "count:many",
                "--max-parallelism", "cnt:8", "--max-parallelism", "count:1.5");

        assertRefused(run, "--max-parallelism 'count': expected TASK:MAX_PARALLELISM, e.g. count:256");
        assertThat(run.err).contains("--max-parallelism 'count:many': max parallelism must be a whole number, not "
                + "'many'").contains("--max-parallelism 'cnt:8': no --task declares a task 'cnt' (tasks: count)")
                .contains("--max-parallelism 'count:1.5': max parallelism must be a whole number, not '1.5'");
    }

    @Test
    void shouldRefuseAMaxParallelismOutOfBoundsOrBelowTheParallelismOrGivenTwice() {
        assertRefused(register("--task", "count:2", "--max-parallelism", "count:0"),
                "--max-parallelism 'count:0': max parallelism must be between 1 and 32768, not 0");
        assertRefused(register("--task", "count:2", "--max-parallelism", "count:32769"),
                "--max-parallelism 'count:32769': max parallelism must be between 1 and 32768, not 32769");
        assertRefused(register("--task", "count:2", "--max-parallelism", "count:9999999999"),
                "--max-parallelism 'count:9999999999': max parallelism must be between 1 and 32768, not 9999999999");
        assertRefused(register("--task", "count:8", "--max-parallelism", "count:4"),
                "--max-parallelism 'count:4': parallelism 8 exceeds the max parallelism 4");
        assertRefused(register("--task", "count:2", "--max-parallelism", "count:4", "--max-parallelism", "count:8"),
                "--max-parallelism 'count:8': the max parallelism of task 'count' is given twice; give it once");
    }

    @Test
    void shouldNameAnUnknownRole() {
        assertRefused(register("--task", "sink:1", "--task-roles", "sink:ack,commit"),
                "--task-roles 'sink:ack,commit': unknown role 'commit' (roles: trigger, ack, notify)");
    }

    @Test
    void shouldRefuseRolesOfATaskNoTaskFlagDeclares() {
        assertRefused(register("--task", "sink:1", "--task-roles", "snk:ack"),
                "--task-roles 'snk:ack': no --task declares a task 'snk' (tasks: sink)");
    }

    @Test
    void shouldRefuseRolesWithoutAColonOrWithAnEmptyRole() {
        assertRefused(register("--task", "sink:1", "--task-roles", "sink"),
                "--task-roles 'sink': expected TASK:ROLE[,ROLE...]");
        assertRefused(register("--task", "sink:1", "--task-roles", "sink:"),
                "--task-roles 'sink:': a role is empty");
    }

    @Test
    void shouldRefuseThePlanWhenNoTaskAcknowledges() {
        assertRefused(register("--task", "source:1", "--task-roles", "source:trigger,notify"),
                "--task-roles: the role ack is false for every task, so no checkpoint could ever complete");
    }

    @Test
    void shouldRefuseThePlanWhenNoTaskIsTriggered() {
        assertRefused(register("--task", "sink:1", "--task-roles", "sink:ack"),
                "--task-roles: the role trigger is false for every task, so no checkpoint could ever start");
    }

    @Test
    void shouldNameAMissingRequiredFlag() {
        CliRun run = CliRun.of("register", "--job", "orders", "--task", "source:1", "--interval-ms", "2000",
                "--storage", "file:///tmp/cairn");

        assertRefused(run, "Missing required option: '--timeout-ms=MS'");
    }

    @Test
    void shouldExplainANonNumericInterval() {
        CliRun run = CliRun.of("register", "--job", "orders", "--task", "source:1", "--interval-ms", "2s",
                "--timeout-ms", "10000", "--storage", "file:///tmp/cairn");

        assertRefused(run, "Invalid value for option '--interval-ms': '2s' is not a long");
    }

    @Test
    void shouldNameBothFlagsWhenTheJobIdAndStorageAreBlank() {
        CliRun run = CliRun.of("register", "--job", " ", "--task", "source:1", "--interval-ms", "2000",
                "--timeout-ms", "10000", "--storage", "");

        assertRefused(run, "--job is empty");
        assertThat(run.err).contains("--storage is empty");
    }

    @Test
    void shouldPointToTheHelpRatherThanPrintingItAfterAnError() {
        CliRun run = register("--task", "map:x");

        assertThat(run.err).contains("Try 'cairn register --help' for the flags.")
                .doesNotContain("--tolerable-failures");
    }

    private static CliRun register(String... flags) {
        String[] args = Stream.of(new String[] {"register", "--job", "orders"}, REQUIRED, flags)
                .flatMap(Stream::of).toArray(String[]::new);
        return CliRun.of(args);
    }

    private static TaskVertex vertex(String id, int parallelism, boolean triggered, boolean acks, boolean notified) {
        return TaskVertex.newBuilder().setTaskId(id).setParallelism(parallelism).setTriggered(triggered)
                .setAcknowledges(acks).setNotified(notified).build();
    }

    static void assertRefused(CliRun run, String message) {
        assertThat(run.exit).as("exit code; out: %s", run.out).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run.err).contains(message);
        assertThat(run.sent).as("nothing is sent").isEqualTo(List.of());
    }
}
