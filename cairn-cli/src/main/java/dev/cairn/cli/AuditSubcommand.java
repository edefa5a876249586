package dev.cairn.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What every {@code cairn audit} subcommand has: its parent {@link AuditCommand} (the journal reader, the output
 * format, the Kafka settings) and its own picocli spec, for usage errors that name its flags. Picocli fills both.
 */
abstract class AuditSubcommand implements Callable<Integer> {

    @ParentCommand
    AuditCommand audit;

    @Spec
    CommandSpec spec;

    /** A usage error of this subcommand (exit 2, nothing read). */
    final ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** {@code jobId}, refused as a usage error of {@code --job} when it is blank. */
    final String requireJob(String jobId) {
        if (jobId.isBlank()) {
            throw usage("--job must not be blank");
        }
        return jobId;
    }
}
