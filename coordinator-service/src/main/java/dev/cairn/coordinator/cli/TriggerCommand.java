package dev.cairn.coordinator.cli;

import dev.cairn.coordinator.cli.RequestSender.Delivery;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestEnvelope;
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

/** {@code cairn trigger}: produces a {@code TriggerRequest} for a checkpoint or savepoint now. */
@Command(name = "trigger",
        description = "Asks for a checkpoint (or a savepoint) of a job now: produces a TriggerRequest. Prints the "
                + "request id, which the coordinator's RequestOutcome on <prefix>journal carries.")
final class TriggerCommand implements Callable<Integer> {

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--savepoint", description = "Take a savepoint (owned by you) instead of a checkpoint.")
    boolean savepoint;

    @Option(names = "--target", paramLabel = "LOCATION",
            description = "With --savepoint: where to write it (default: the job's storage location).")
    String target;

    @Option(names = "--force", description = "Ignore the job's --max-concurrent limit.")
    boolean force;

    @Option(names = "--request-id", paramLabel = "ID",
            description = "The request's id (default: a new UUID); sending the same id again asks only once.")
    String requestId;

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        TriggerRequest request = request();
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
        if (requestId != null && requestId.isBlank()) {
            problems.add("--request-id must not be blank (leave it out to have a UUID generated)");
        }
        CairnCli.requireNoProblems(spec, problems);
        return TriggerRequest.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId != null ? requestId : UUID.randomUUID().toString())
                .setType(savepoint ? CheckpointType.SAVEPOINT : CheckpointType.CHECKPOINT)
                .setForce(force)
                .setTargetLocation(target)
                .setRequester(CairnCli.REQUESTER)
                .setTimestampMs(cli.nowMs())
                .build();
    }

    /** {@code a forced savepoint to s3://bucket/sp-1}. */
    static String describe(TriggerRequest request) {
        String kind = request.getType() == CheckpointType.SAVEPOINT ? "savepoint" : "checkpoint";
        String where = request.getTargetLocation() != null ? " to " + request.getTargetLocation()
                : request.getType() == CheckpointType.SAVEPOINT ? " to the job's storage location" : "";
        return (request.getForce() ? "a forced " : "a ") + kind + where;
    }
}
