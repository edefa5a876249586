package dev.cairn.cli;

import dev.cairn.client.rest.CairnClient;
import dev.cairn.client.rest.RestException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A {@code cairn} subcommand that reads the coordinator's REST API ({@code list}, {@code checkpoints},
 * {@code request}): it needs {@code --rest-url} (a usage error, exit code 2, without it), prints text or the API's
 * view as JSON, and exits with 1 when the API does not answer.
 */
abstract class RestReadCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { TEXT, JSON }

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
            description = "Output format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Format format;

    /** The client of {@code --rest-url}. */
    final CairnClient client() {
        return cli.requireRest(spec);
    }

    /** The answer of {@code call}; a failed call as the {@link RestException} it failed with. */
    static <T> T answer(CompletableFuture<T> call) {
        try {
            return call.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new RestException(0, String.valueOf(e.getCause()), e.getCause());
        }
    }

    /** A duration in ms as text, {@code -} when not known. */
    static String ms(Long duration) {
        return duration == null ? "-" : duration + " ms";
    }
}
