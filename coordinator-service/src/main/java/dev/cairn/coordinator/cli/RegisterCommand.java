package dev.cairn.coordinator.cli;

import dev.cairn.coordinator.domain.SnapshotOptionsRules;
import dev.cairn.coordinator.cli.RequestSender.Delivery;
import dev.cairn.coordinator.domain.JobSpecs;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TaskVertex;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cairn register}: produces a {@code JobSpec}, which registers a job or replaces its plan, checkpoint
 * configuration and coordinator-side participants.
 */
@Command(name = "register",
        description = "Registers a job (or replaces its tasks, checkpoint configuration and participants): "
                + "produces a JobSpec.")
final class RegisterCommand implements Callable<Integer> {

    /** Flink's CheckpointingMode. */
    enum Mode { EXACTLY_ONCE, AT_LEAST_ONCE }

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--task", required = true, paramLabel = "TASK:PARALLELISM",
            description = "A task of the job and its parallelism, like map:2; repeat for every task.")
    List<String> tasks = new ArrayList<>();

    @Option(names = "--task-roles", paramLabel = "TASK:ROLE[,ROLE...]",
            description = "The roles of a task in a checkpoint, from trigger (receives the trigger), ack (must "
                    + "acknowledge) and notify (is told of completion and aborts), like sink:ack,notify; "
                    + "a task without --task-roles has all three.")
    List<String> taskRoles = new ArrayList<>();

    @Option(names = "--interval-ms", required = true, paramLabel = "MS",
            description = "Time between periodic checkpoints, > 0.")
    long intervalMs;

    @Option(names = "--timeout-ms", required = true, paramLabel = "MS",
            description = "A checkpoint not completed this long after its trigger expires, > 0.")
    long timeoutMs;

    @Option(names = "--min-pause-ms", defaultValue = "0", paramLabel = "MS",
            description = "Minimum time from a completion to the next periodic trigger, >= 0 (default ${DEFAULT-VALUE}).")
    long minPauseMs;

    @Option(names = "--max-concurrent", defaultValue = "1", paramLabel = "N",
            description = "Most checkpoints pending at once, >= 1 (default ${DEFAULT-VALUE}).")
    int maxConcurrent;

    @Option(names = "--tolerable-failures", defaultValue = "0", paramLabel = "N",
            description = "Consecutive checkpoint failures tolerated before the job is failed, >= 0 "
                    + "(default ${DEFAULT-VALUE}).")
    int tolerableFailures;

    @Option(names = "--retained", defaultValue = "1", paramLabel = "N",
            description = "Completed checkpoints kept, >= 1 (default ${DEFAULT-VALUE}).")
    int retained;

    @Option(names = "--storage", required = true, paramLabel = "LOCATION",
            description = "Base location (a URI) of the checkpoints: checkpoint N of the job is stored at "
                    + "LOCATION/JOB/chk-N.")
    String storage;

    @Option(names = "--mode", defaultValue = "EXACTLY_ONCE", paramLabel = "MODE",
            description = "Checkpointing mode, exactly_once (barriers aligned) or at_least_once "
                    + "(default ${DEFAULT-VALUE}).")
    Mode mode;

    @Option(names = "--unaligned",
            description = "Take unaligned checkpoints (Flink: execution.checkpointing.unaligned.enabled); "
                    + "savepoints stay aligned.")
    boolean unaligned;

    @Option(names = "--aligned-timeout-ms", defaultValue = "0", paramLabel = "MS",
            description = "With --unaligned: align for this long first, then switch to unaligned; 0 starts "
                    + "unaligned, >= 0 (default ${DEFAULT-VALUE}).")
    long alignedTimeoutMs;

    @Option(names = "--backup-type", paramLabel = "TYPE",
            description = "What a checkpoint is by default: full (self-contained) or incremental "
                    + "(default full).")
    BackupType backupType;

    @Option(names = "--savepoint-format", paramLabel = "FORMAT",
            description = "The format of a savepoint by default: canonical or native (default canonical).")
    SavepointFormat savepointFormat;

    @Option(names = "--participant", paramLabel = "NAME",
            description = "A coordinator-side participant (Flink: a master hook or operator coordinator), asked for "
                    + "its state before the tasks are triggered; repeat for every participant, in order.")
    List<String> participants = new ArrayList<>();

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        JobSpec job = jobSpec();
        Delivery delivery = cli.send(spec, job.getJobId(), new RequestEnvelope(job));
        PrintWriter out = spec.commandLine().getOut();
        CheckpointConfig config = job.getConfig();
        out.println("Sent JobSpec of job '" + job.getJobId() + "' to " + delivery.describe() + ":");
        out.println("  tasks:       " + TaskFlags.describe(job.getTasks()));
        out.println("  checkpoints: every " + config.getIntervalMs() + " ms, timeout " + config.getTimeoutMs()
                + " ms, min pause " + config.getMinPauseMs() + " ms, at most " + config.getMaxConcurrent()
                + " concurrent, " + config.getTolerableFailures() + " tolerable failures, "
                + config.getRetained() + " retained");
        out.println("  snapshots:   " + (config.getExactlyOnce() ? "exactly once" : "at least once") + ", "
                + (config.getUnalignedEnabled() ? "unaligned after " + config.getAlignedTimeoutMs() + " ms aligned"
                        : "aligned") + ", " + SnapshotOptionsRules.backupType(config) + " checkpoints, "
                + SnapshotOptionsRules.savepointFormat(config) + " savepoints");
        out.println("  participants: " + (job.getParticipants().isEmpty() ? "none"
                : String.join(", ", job.getParticipants())));
        out.println("  storage:     " + config.getStorageBaseLocation());
        out.println("The coordinator triggers checkpoints once every required subtask has sent TaskStarted to "
                + cli.topics(spec).acks() + ".");
        out.flush();
        return 0;
    }

    /** The event the flags describe. */
    JobSpec jobSpec() {
        List<String> problems = new ArrayList<>();
        CairnCli.requireText("--job", jobId, problems);
        List<TaskVertex> vertices = TaskFlags.vertices(tasks, taskRoles, problems);
        if (intervalMs <= 0) {
            problems.add("--interval-ms must be > 0, was " + intervalMs);
        }
        if (timeoutMs <= 0) {
            problems.add("--timeout-ms must be > 0, was " + timeoutMs);
        }
        if (minPauseMs < 0) {
            problems.add("--min-pause-ms must be >= 0, was " + minPauseMs);
        }
        if (maxConcurrent < 1) {
            problems.add("--max-concurrent must be >= 1, was " + maxConcurrent);
        }
        if (tolerableFailures < 0) {
            problems.add("--tolerable-failures must be >= 0, was " + tolerableFailures);
        }
        if (retained < 1) {
            problems.add("--retained must be >= 1, was " + retained);
        }
        CairnCli.requireText("--storage", storage, problems);
        if (alignedTimeoutMs < 0) {
            problems.add("--aligned-timeout-ms must be >= 0, was " + alignedTimeoutMs);
        }
        Set<String> named = new HashSet<>();
        for (String participant : participants) {
            if (participant.isBlank()) {
                problems.add("--participant must not be blank");
            } else if (!named.add(participant)) {
                problems.add("--participant '" + participant + "' is given twice; name each participant once");
            }
        }
        CairnCli.requireNoProblems(spec, problems);
        JobSpec job = JobSpec.newBuilder()
                .setJobId(jobId)
                .setTasks(vertices)
                .setConfig(CheckpointConfig.newBuilder()
                        .setIntervalMs(intervalMs).setTimeoutMs(timeoutMs).setMinPauseMs(minPauseMs)
                        .setMaxConcurrent(maxConcurrent).setTolerableFailures(tolerableFailures)
                        .setRetained(retained).setStorageBaseLocation(storage)
                        .setExactlyOnce(mode == Mode.EXACTLY_ONCE).setUnalignedEnabled(unaligned)
                        .setAlignedTimeoutMs(alignedTimeoutMs).setBackupType(backupType)
                        .setSavepointFormat(savepointFormat).build())
                .setParticipants(List.copyOf(participants))
                .setTimestampMs(cli.nowMs())
                .build();
        // the coordinator's own rules, in case they grow stricter than the checks above
        JobSpecs.validate(job).ifPresent(reason -> problems.add("the coordinator would reject this job: " + reason));
        CairnCli.requireNoProblems(spec, problems);
        return job;
    }
}
