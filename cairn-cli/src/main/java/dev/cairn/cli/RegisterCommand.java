package dev.cairn.cli;

import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.contract.SnapshotOptionsRules;
import dev.cairn.core.contract.SpecProblem;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.SavepointFormat;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn register}: produces a {@code JobSpec}, which registers a job or replaces its plan, checkpoint
 * configuration and coordinator-side participants.
 */
@Command(name = "register",
        description = "Registers a job (or replaces its tasks, checkpoint configuration and participants): "
                + "produces a JobSpec. With --from-savepoint or --from-checkpoint it then restores the job from that "
                + "point (a RestoreJob, as cairn resume) and waits for the outcome: only a job that exists and is not "
                + "RUNNING (a stopped one) is restored; a new job is RUNNING at once, and its restore is refused.")
final class RegisterCommand extends RequestSubcommand {

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

    @Option(names = TaskFlags.MAX_FLAG, paramLabel = "TASK:MAX_PARALLELISM",
            description = "The max parallelism of a task (its number of key groups, the most it can be rescaled to), "
                    + "from its parallelism to 32768, like count:256; repeat for every task to set. A task without "
                    + "it keeps the one it has, and a new task takes Flink's default for its parallelism (128, or "
                    + "1.5 x the parallelism rounded up to a power of two). The coordinator refuses a change while the "
                    + "job keeps a savepoint or restore point taken with another.")
    List<String> maxParallelism = new ArrayList<>();

    @Option(names = "--interval-ms", required = true, paramLabel = "MS",
            description = "Time between periodic checkpoints, > 0.")
    long intervalMs;

    @Option(names = "--timeout-ms", required = true, paramLabel = "MS",
            description = "A checkpoint not completed this long after its trigger expires, > 0.")
    long timeoutMs;

    @Option(names = "--min-pause-ms", defaultValue = "0", paramLabel = "MS",
            description = "Minimum time from a completion to the next periodic trigger, >= 0 (default "
                    + "${DEFAULT-VALUE}).")
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
            description = "A coordinator-side participant (Flink: an operator coordinator), asked for its state "
                    + "before the tasks are triggered; repeat for every participant, in order.")
    List<String> participants = new ArrayList<>();

    @Option(names = "--master-hook", paramLabel = "NAME",
            description = "A coordinator-side participant asked after every --participant acknowledged, still before "
                    + "the tasks are triggered (Flink: a master hook); repeat for every hook, in order.")
    List<String> masterHooks = new ArrayList<>();

    @Mixin
    RestoreFlags restore;

    @Option(names = "--wait-ms", defaultValue = "60000", paramLabel = "MS",
            description = "With --from-savepoint or --from-checkpoint: how long to wait for the restore's outcome, "
                    + ">= 0; 0 only sends (default ${DEFAULT-VALUE}).")
    long waitMs;

    @Override
    public Integer call() {
        JobSpec job = jobSpec();
        AwaitedRequest restoring = restoring(job);
        Delivery delivery = send(job.getJobId(), new RequestEnvelope(job));
        PrintWriter out = out();
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
        if (!job.getMasterHooks().isEmpty()) {
            out.println("  master hooks: " + String.join(", ", job.getMasterHooks()) + " (after the participants)");
        }
        out.println("  storage:     " + config.getStorageBaseLocation());
        out.println("The coordinator triggers checkpoints once every required subtask has sent TaskStarted to "
                + cli.topics(spec).acks() + ".");
        out.flush();
        return restoring == null ? 0 : restoring.send(cli, spec, waitMs);
    }

    /** The restore the flags ask for after the registration, {@code null} when they ask for none. */
    private AwaitedRequest restoring(JobSpec job) {
        if (!restore.given()) {
            return null;
        }
        List<String> problems = new ArrayList<>();
        if (!restore.namesPoint()) {
            problems.add("--restore-mode needs --from-savepoint or --from-checkpoint (to resume a stopped job from "
                    + "its restore point, use cairn resume)");
        }
        if (waitMs < 0) {
            problems.add("--wait-ms must be >= 0, not " + waitMs);
        }
        RestoreJob event = restore.event(job.getJobId(), UUID.randomUUID().toString(), cli.nowMs(), problems);
        CairnCli.requireNoProblems(spec, problems);
        return ResumeCommand.restoring(event);
    }

    /** The flag of each field of the checkpoint configuration. */
    private static final Map<String, String> CONFIG_FLAGS = Map.ofEntries(
            Map.entry("config.intervalMs", "--interval-ms"), Map.entry("config.timeoutMs", "--timeout-ms"),
            Map.entry("config.minPauseMs", "--min-pause-ms"), Map.entry("config.maxConcurrent", "--max-concurrent"),
            Map.entry("config.tolerableFailures", "--tolerable-failures"), Map.entry("config.retained", "--retained"),
            Map.entry("config.storageBaseLocation", "--storage"), Map.entry("config.exactlyOnce", "--mode"),
            Map.entry("config.unalignedEnabled", "--unaligned"),
            Map.entry("config.alignedTimeoutMs", "--aligned-timeout-ms"),
            Map.entry("config.backupType", "--backup-type"), Map.entry("config.savepointFormat", "--savepoint-format"),
            Map.entry("jobId", "--job"), Map.entry("tasks", "--task"), Map.entry("participants", "--participant"),
            Map.entry("masterHooks", "--master-hook"),
            Map.entry("tasks[*].triggered", "--task-roles: the role trigger"),
            Map.entry("tasks[*].acknowledges", "--task-roles: the role ack"));

    /**
     * The event the flags describe.
     *
     * @throws picocli.CommandLine.ParameterException naming every malformed flag and every problem the
     *     coordinator would find in the spec ({@link JobSpecs#problems}), by flag
     */
    JobSpec jobSpec() {
        List<String> problems = new ArrayList<>();
        TaskFlags.Tasks vertices = TaskFlags.vertices(tasks, taskRoles, maxParallelism, problems);
        JobSpec job = JobSpec.newBuilder()
                .setJobId(jobId)
                .setTasks(vertices.vertices())
                .setConfig(CheckpointConfig.newBuilder()
                        .setIntervalMs(intervalMs).setTimeoutMs(timeoutMs).setMinPauseMs(minPauseMs)
                        .setMaxConcurrent(maxConcurrent).setTolerableFailures(tolerableFailures)
                        .setRetained(retained).setStorageBaseLocation(storage)
                        .setExactlyOnce(mode == Mode.EXACTLY_ONCE).setUnalignedEnabled(unaligned)
                        .setAlignedTimeoutMs(alignedTimeoutMs).setBackupType(backupType)
                        .setSavepointFormat(savepointFormat).build())
                .setParticipants(List.copyOf(participants))
                .setMasterHooks(List.copyOf(masterHooks))
                .setTimestampMs(cli.nowMs())
                .build();
        for (SpecProblem problem : JobSpecs.problems(job)) {
            if (vertices.vertices().isEmpty() && problem.path().startsWith("tasks") && !problems.isEmpty()) {
                continue;
            }
            problems.add(flag(problem.path(), vertices) + " " + problem.message());
        }
        CairnCli.requireNoProblems(spec, problems);
        return job;
    }

    /** The flag (and its value, for a repeated flag) of a path of the spec's problems. */
    private String flag(String path, TaskFlags.Tasks vertices) {
        int index = SpecProblem.index(path);
        if (index >= 0 && path.startsWith("tasks[")) {
            String field = path.substring(path.indexOf(']') + 1);
            if (field.equals(".maxParallelism")) {
                return TaskFlags.MAX_FLAG + " '" + vertices.maxValues().get(index) + "':";
            }
            return "--task '" + vertices.values().get(index) + "':" + (field.equals(".taskId") ? " task id"
                    : field.equals(".parallelism") ? " parallelism" : " roles");
        }
        if (index >= 0 && path.startsWith("participants[")) {
            return "--participant '" + participants.get(index) + "'";
        }
        if (index >= 0 && path.startsWith("masterHooks[")) {
            return "--master-hook '" + masterHooks.get(index) + "'";
        }
        return CONFIG_FLAGS.getOrDefault(path, path);
    }
}
