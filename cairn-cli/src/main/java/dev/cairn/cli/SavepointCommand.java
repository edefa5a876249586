package dev.cairn.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cairn savepoint}: a job's savepoints. {@code list} replays the job's journal (as {@code cairn audit state}
 * does; nothing is sent), {@code dispose} produces a {@code DisposeSavepoint} (Flink: {@code flink savepoint -d})
 * and waits for its outcome.
 */
@Command(name = "savepoint",
        description = "A job's savepoints: list them (newest first, with the job's restore point), or dispose of one "
                + "(Flink: flink savepoint -d).",
        subcommands = {SavepointListCommand.class, SavepointDisposeCommand.class},
        synopsisSubcommandLabel = "(list | dispose)",
        footer = {"", "Examples:",
                "  cairn savepoint list --job orders",
                "  cairn savepoint dispose --job orders --path s3://bucket/savepoints/sp-1",
                "  cairn savepoint dispose --job orders --id 12"})
final class SavepointCommand implements Runnable {

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Name what to do: list or dispose.");
    }
}
