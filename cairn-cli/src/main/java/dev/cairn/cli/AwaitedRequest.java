package dev.cairn.cli;

import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.client.requests.SendFailedException;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A request whose outcome the command waits for ({@code cairn resume}, {@code cairn register --from-savepoint},
 * {@code cairn savepoint dispose}): the journal is watched from its end, the request is sent, and the coordinator's
 * {@code RequestOutcome} with its id is printed. Exit code 0 when it COMPLETED, 1 when it FAILED or no outcome came
 * within the wait; with a wait of 0 it only sends, as {@code cairn trigger} does.
 *
 * @param jobId the job
 * @param requestId the request's id
 * @param envelope the request
 * @param what what it asks for, for the output
 * @param completed what a COMPLETED outcome means, for the output
 */
record AwaitedRequest(String jobId, String requestId, RequestEnvelope envelope, String what,
        Function<RequestOutcome, String> completed) {

    int send(CairnCli cli, CommandSpec command, long waitMs) {
        String type = envelope.getEvent().getClass().getSimpleName();
        PrintWriter out = command.commandLine().getOut();
        try (Outcomes.Watch watch = waitMs > 0 ? cli.watchOutcomes(command) : null) {
            Delivery delivery;
            try {
                delivery = cli.send(command, jobId, envelope);
            } catch (SendFailedException e) {
                throw new SendFailedException(e.getMessage() + System.lineSeparator() + "request id: " + requestId
                        + " (to retry, pass --request-id " + requestId + ": the coordinator acts on a request id "
                        + "only once)", e.getCause());
            }
            out.println("Sent " + type + " of job '" + jobId + "' to " + delivery.describe() + ": " + what + ".");
            out.println("request id: " + requestId);
            out.flush();
            if (watch == null) {
                out.println("Its outcome is the RequestOutcome with this request id on " + cli.topics(command).journal()
                        + ", and GET /jobs/" + jobId + "/savepoints/" + requestId + ".");
                out.flush();
                return 0;
            }
            return report(command, watch.await(jobId, requestId, Duration.ofMillis(waitMs)), waitMs);
        }
    }

    private int report(CommandSpec command, Optional<RequestOutcome> outcome, long waitMs) {
        PrintWriter out = command.commandLine().getOut();
        PrintWriter err = command.commandLine().getErr();
        int exit;
        if (outcome.isEmpty()) {
            err.println(command.qualifiedName() + ": no outcome of request " + requestId + " within " + waitMs
                    + " ms (--wait-ms); is the coordinator running? Its outcome will be at GET /jobs/" + jobId
                    + "/savepoints/" + requestId + ".");
            exit = 1;
        } else if (outcome.get().getStatus() == RequestStatus.COMPLETED) {
            out.println(completed.apply(outcome.get()));
            exit = 0;
        } else {
            err.println(command.qualifiedName() + ": the coordinator refused the request: "
                    + outcome.get().getMessage() + " (" + outcome.get().getReason() + ")");
            exit = 1;
        }
        out.flush();
        err.flush();
        return exit;
    }
}
