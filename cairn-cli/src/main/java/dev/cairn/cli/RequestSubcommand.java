package dev.cairn.cli;

import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.events.RequestEnvelope;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What a {@code cairn} subcommand that sends one request to {@code cairn.requests} has: its parent
 * {@link CairnCli} (the common flags and the sender) and its own picocli spec, for usage errors that name its
 * flags. Picocli fills both. ({@code trigger} and {@code stop} share more, in {@link RequestFlags}.)
 */
abstract class RequestSubcommand implements Callable<Integer> {

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    /**
     * Sends {@code envelope} keyed by {@code jobId}.
     *
     * @throws picocli.CommandLine.ParameterException when a common setting is malformed (nothing is sent)
     * @throws SendFailedException when the broker did not acknowledge the request
     */
    final Delivery send(String jobId, RequestEnvelope envelope) {
        return cli.send(spec, jobId, envelope);
    }

    /** Where the command prints what it sent. */
    final PrintWriter out() {
        return spec.commandLine().getOut();
    }
}
