package dev.cairn.coordinator.cli;

import dev.cairn.coordinator.domain.SnapshotOptionsRules;
import dev.cairn.coordinator.cli.RequestSender.Delivery;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cairn trigger}: produces a {@code TriggerRequest} for a checkpoint or savepoint now, optionally overriding
 * the job's snapshot options for it.
 */
@Command(name = "trigger",
        description = "Asks for a checkpoint (or a savepoint) of a job now: produces a TriggerRequest. Prints the "
                + "request id, which the coordinator's RequestOutcome on <prefix>journal carries. Options left out "
                + "take the job's.")
final class TriggerCommand implements Callable<Integer> {

    /** Flink's {@code checkpointType} of a checkpoint trigger: CONFIGURED takes the job's backup type. */
    enum CheckpointTypeFlag { CONFIGURED, FULL, INCREMENTAL }

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--savepoint", description = "Take a savepoint (owned by you) instead of a checkpoint.")
    boolean savepoint;

    @Option(names = "--target", paramLabel = "LOCATION",
            description = "With --savepoint: where to write it (default: the job's storage location).")
    String target;

    @Option(names = "--force", negatable = true,
            description = "--force ignores the job's --max-concurrent limit and minimum pause, --no-force does not; "
                    + "left out, Flink's default: checkpoints are not forced, savepoints are unless the job enables "
                    + "unaligned checkpoints.")
    Boolean force;

    @Option(names = "--checkpoint-type", paramLabel = "TYPE",
            description = "Checkpoints only: full (self-contained), incremental (may reuse files of earlier "
                    + "checkpoints) or configured (the job's --backup-type, the default).")
    CheckpointTypeFlag checkpointType;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "With --savepoint: canonical or native (default: the job's --savepoint-format).")
    SavepointFormat format;

    @Option(names = "--unaligned", negatable = true,
            description = "Checkpoints only: take this checkpoint unaligned (--unaligned) or aligned "
                    + "(--no-unaligned); default: as the job's --unaligned.")
    Boolean unaligned;

    @Option(names = "--aligned-timeout-ms", paramLabel = "MS",
            description = "Checkpoints only, with unaligned checkpoints: align for this long first, >= 0 "
                    + "(0 starts unaligned; default: the job's --aligned-timeout-ms).")
    Long alignedTimeoutMs;

    @Option(names = "--request-id", paramLabel = "ID",
            description = "The request's id (default: a new UUID); sending the same id again asks only once.")
    String requestId;

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return send(cli, spec, request());
    }

    /**
     * Sends a trigger request and prints it and its request id; the way {@code trigger} and {@code stop} publish.
     *
     * @throws SendFailedException naming the request id to retry with when the broker did not acknowledge it
     */
    static int send(CairnCli cli, CommandSpec spec, TriggerRequest request) {
        Delivery delivery;
        try {
            delivery = cli.send(spec, request.getJobId(), new RequestEnvelope(request));
        } catch (SendFailedException e) {
            throw new SendFailedException(e.getMessage() + System.lineSeparator() + "request id: "
                    + request.getRequestId() + " (to retry, pass --request-id " + request.getRequestId()
                    + ": the coordinator acts on a request id only once)", e.getCause());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("Sent TriggerRequest of job '" + request.getJobId() + "' to " + delivery.describe() + ": "
                + describe(request) + ".");
        out.println("request id: " + request.getRequestId());
        out.println("Its outcome is the RequestOutcome with this request id on " + cli.topics(spec).journal() + ".");
        out.flush();
        return 0;
    }

    /** The event the flags describe. */
    TriggerRequest request() {
        List<String> problems = new ArrayList<>();
        CairnCli.requireText("--job", jobId, problems);
        if (target != null && !savepoint) {
            problems.add("--target applies to savepoints only (a checkpoint is stored under the job's --storage); "
                    + "add --savepoint or leave --target out");
        } else if (target != null && target.isBlank()) {
            problems.add("--target must not be blank (leave it out to use the job's storage location)");
        }
        optionProblems(problems);
        requireRequestId(requestId, problems);
        CairnCli.requireNoProblems(spec, problems);
        BackupType backup = checkpointType == null || checkpointType == CheckpointTypeFlag.CONFIGURED ? null
                : BackupType.valueOf(checkpointType.name());
        return TriggerRequest.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId != null ? requestId : UUID.randomUUID().toString())
                .setType(savepoint ? CheckpointType.SAVEPOINT : CheckpointType.CHECKPOINT)
                .setForce(force)
                .setTargetLocation(target)
                .setRequester(CairnCli.REQUESTER)
                .setTimestampMs(cli.nowMs())
                .setOptions(options(backup, format, unaligned, alignedTimeoutMs))
                .build();
    }

    /** The options that do not fit the kind of snapshot, or are out of range. */
    private void optionProblems(List<String> problems) {
        if (savepoint) {
            if (checkpointType != null) {
                problems.add("--checkpoint-type applies to checkpoints only (a savepoint is always self-contained); "
                        + "use --format with --savepoint");
            }
            if (unaligned != null) {
                problems.add((unaligned ? "--unaligned" : "--no-unaligned") + " applies to checkpoints only "
                        + "(a savepoint is always aligned, as in Flink); leave it out");
            }
            if (alignedTimeoutMs != null) {
                problems.add("--aligned-timeout-ms applies to checkpoints only (a savepoint is always aligned, "
                        + "as in Flink); leave it out");
            }
        } else if (format != null) {
            problems.add("--format applies to savepoints only; add --savepoint, or use --checkpoint-type "
                    + "(full or incremental) for a checkpoint");
        }
        if (alignedTimeoutMs != null && alignedTimeoutMs < 0) {
            problems.add("--aligned-timeout-ms must be >= 0, was " + alignedTimeoutMs);
        } else if (alignedTimeoutMs != null && Boolean.FALSE.equals(unaligned)) {
            problems.add("--aligned-timeout-ms applies to unaligned checkpoints only (how long to align before "
                    + "switching to unaligned); leave it out or use --unaligned");
        }
    }

    /** Checks an optional {@code --request-id}. */
    static void requireRequestId(String requestId, List<String> problems) {
        if (requestId != null && requestId.isBlank()) {
            problems.add("--request-id must not be blank (leave it out to have a UUID generated)");
        }
    }

    /** The overrides, {@code null} when none is given (the job's options apply). */
    static RequestedOptions options(BackupType backup, SavepointFormat format, Boolean unaligned, Long alignedTimeoutMs) {
        if (backup == null && format == null && unaligned == null && alignedTimeoutMs == null) {
            return null;
        }
        return RequestedOptions.newBuilder().setBackupType(backup).setSavepointFormat(format)
                .setUnalignedEnabled(unaligned).setAlignedTimeoutMs(alignedTimeoutMs).build();
    }

    /** {@code a forced savepoint to s3://bucket/sp-1}, {@code a checkpoint (INCREMENTAL, unaligned)}. */
    static String describe(TriggerRequest request) {
        boolean savepoint = request.getType() == CheckpointType.SAVEPOINT;
        String kind = switch (SnapshotOptionsRules.postAction(request)) {
            case SUSPEND -> "stop-with-savepoint (the job is suspended when it completes)";
            case TERMINATE -> "stop-with-savepoint (the job drains, then terminates when it completes)";
            default -> savepoint ? "savepoint" : "checkpoint";
        };
        String forced = request.getForce() == null ? "a " : request.getForce() ? "a forced " : "an unforced ";
        String where = request.getTargetLocation() != null ? " to " + request.getTargetLocation()
                : savepoint ? " to the job's storage location" : "";
        return forced + kind + where + describe(request.getOptions());
    }

    private static String describe(RequestedOptions options) {
        if (options == null) {
            return "";
        }
        List<String> shown = new ArrayList<>();
        if (options.getBackupType() != null) {
            shown.add(options.getBackupType().name());
        }
        if (options.getSavepointFormat() != null) {
            shown.add(options.getSavepointFormat() + " format");
        }
        if (options.getUnalignedEnabled() != null) {
            shown.add(options.getUnalignedEnabled() ? "unaligned" : "aligned");
        }
        if (options.getAlignedTimeoutMs() != null) {
            shown.add("aligned timeout " + options.getAlignedTimeoutMs() + " ms");
        }
        return " (" + String.join(", ", shown) + ")";
    }
}
