package dev.cairn.cli;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cairn savepoint}: Flink's {@code flink savepoint}. With {@code --job} it triggers a savepoint (Flink's
 * defaults: forced unless the job enables unaligned checkpoints), waits for it and prints its path and checkpoint id
 * (exit code 0) or why it failed (1); {@code --detached} returns once it is sent. Its subcommands work with the
 * savepoints a job keeps: {@code list} replays the job's journal (as {@code cairn audit state} does; nothing is
 * sent), {@code dispose} produces a {@code DisposeSavepoint} (Flink: {@code flink savepoint -d}) and waits for its
 * outcome.
 */
@Command(name = "savepoint",
        description = "Takes a savepoint of a job and waits for it (Flink: flink savepoint): prints its path and "
                + "checkpoint id, exit code 0, or why it failed, 1. Or works with a job's savepoints: list them "
                + "(newest first, with the job's restore point), or dispose of one (Flink: flink savepoint -d).",
        subcommands = {SavepointListCommand.class, SavepointDisposeCommand.class},
        synopsisSubcommandLabel = "[list | dispose]",
        footer = {"", "Examples:",
                "  cairn savepoint --job orders --target s3://bucket/savepoints",
                "  cairn savepoint --job orders --format native --detached",
                "  cairn savepoint list --job orders",
                "  cairn savepoint dispose --job orders --path s3://bucket/savepoints/sp-1",
                "  cairn savepoint dispose --job orders --id 12"})
final class SavepointCommand implements Callable<Integer> {

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    @Option(names = "--job", paramLabel = "JOB", description = "The job to take a savepoint of.")
    String jobId;

    @Option(names = "--target", paramLabel = "LOCATION",
            description = "Where to write it (Flink: targetDirectory; default: the job's storage location).")
    String target;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "canonical or native (default: the job's --savepoint-format).")
    SavepointFormat format;

    @Option(names = "--request-id", paramLabel = "ID",
            description = "The request's id (default: a new UUID); sending the same id again asks only once.")
    String requestId;

    @Option(names = "--detached",
            description = "Return once the request is sent (Flink: -detached); its outcome is then the RequestOutcome "
                    + "on <prefix>journal, or cairn request JOB ID with --rest-url.")
    boolean detached;

    @Mixin
    WaitFlags wait;

    @Override
    public Integer call() {
        if (jobId == null) {
            throw new ParameterException(spec.commandLine(), "Name the job to take a savepoint of (--job JOB), or "
                    + "what to do with its savepoints: list or dispose.");
        }
        List<String> problems = new ArrayList<>();
        if (!detached) {
            wait.check(problems);
        }
        return RequestFlags.send(cli, spec, request(), detached ? 0 : wait.waitMs, wait.progress, problems);
    }

    /** The savepoint the flags describe, with Flink's default force. */
    TriggerRequest request() {
        return TriggerRequest.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId != null ? requestId : UUID.randomUUID().toString())
                .setType(CheckpointType.SAVEPOINT)
                .setForce(null)
                .setTargetLocation(target)
                .setRequester(CairnCli.REQUESTER)
                .setTimestampMs(cli.nowMs())
                .setOptions(format == null ? null : RequestedOptions.newBuilder().setSavepointFormat(format).build())
                .build();
    }
}
