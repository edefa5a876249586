package dev.cairn.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A {@code cairn} subcommand that sends one request about a job ({@code --job}) and waits for the coordinator's
 * outcome of it ({@link AwaitFlags}): {@code resume}, {@code rescale} and {@code remove}. Each says which request its
 * flags describe.
 */
abstract class AwaitedSubcommand extends RequestSubcommand {

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Mixin
    AwaitFlags await;

    @Override
    public final Integer call() {
        return request().send(cli, spec, await.waitMs);
    }

    /**
     * The request the flags describe.
     *
     * @throws picocli.CommandLine.ParameterException when the flags are not valid (nothing is sent)
     */
    abstract AwaitedRequest request();

    /** The problems of the flags all such commands have ({@code --job}, the await flags), for the command to add to. */
    final List<String> commonProblems() {
        List<String> problems = new ArrayList<>();
        CairnCli.requireText("--job", jobId, problems);
        await.check(problems);
        return problems;
    }
}
