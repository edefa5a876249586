package dev.cairn.cli;

import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.client.requests.SendFailedException;
import dev.cairn.core.contract.SpecProblem;
import dev.cairn.core.contract.TriggerRequests;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The flags {@code cairn trigger} and {@code cairn stop} share (a picocli mixin): the job, the savepoint's target
 * and format, the request id; and how both check and send the {@code TriggerRequest} they make.
 */
final class RequestFlags {

    /** The flag of each field of a trigger request, as {@link TriggerRequests}' problems name them. */
    private static final Map<String, String> FLAGS = Map.of("jobId", "--job", "requestId", "--request-id",
            "targetLocation", "--target", "type", "--savepoint", "force", "--force",
            "options.backupType", "--checkpoint-type", "options.savepointFormat", "--format",
            "options.unalignedEnabled", "--unaligned", "options.alignedTimeoutMs", "--aligned-timeout-ms",
            "postCheckpointAction", "--drain");

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--target", paramLabel = "LOCATION",
            description = "Savepoints only: where to write it (default: the job's storage location).")
    String target;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Savepoints only: canonical or native (default: the job's --savepoint-format).")
    SavepointFormat format;

    @Option(names = "--request-id", paramLabel = "ID",
            description = "The request's id (default: a new UUID); sending the same id again asks only once.")
    String requestId;

    /** The command that mixes these flags in. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The {@code cairn} command of this subcommand: its common flags and clock. */
    CairnCli cli() {
        return (CairnCli) command.parent().userObject();
    }

    /** The request id to send: {@code --request-id}, else a new UUID. */
    String requestIdOrNew() {
        return requestId != null ? requestId : UUID.randomUUID().toString();
    }

    /**
     * Checks the request with the coordinator's rules ({@link TriggerRequests#problems}), naming each problem by
     * its flag, sends it and prints it and its request id.
     *
     * @throws picocli.CommandLine.ParameterException naming every problem, by flag (nothing is sent)
     * @throws SendFailedException naming the request id to retry with when the broker did not acknowledge it
     */
    int send(TriggerRequest request) {
        CairnCli cli = cli();
        CommandSpec spec = command;
        List<SpecProblem> problems = TriggerRequests.problems(request);
        CairnCli.requireNoProblems(spec, problems.stream()
                .map(p -> FLAGS.getOrDefault(p.path(), p.path()) + " " + p.message()).toList());
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
                + TriggerRequests.describe(request) + ".");
        out.println("request id: " + request.getRequestId());
        out.println("Its outcome is the RequestOutcome with this request id on " + cli.topics(spec).journal() + ".");
        out.flush();
        return 0;
    }
}
