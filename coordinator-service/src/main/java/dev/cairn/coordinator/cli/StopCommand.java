package dev.cairn.coordinator.cli;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
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
 * {@code cairn stop}: produces the {@code TriggerRequest} of a stop-with-savepoint (Flink's {@code flink stop}), a
 * savepoint after which the coordinator finishes the job: suspended, or with {@code --drain} terminated after its
 * tasks drained their input.
 */
@Command(name = "stop",
        description = "Stops a job with a savepoint (Flink: flink stop): produces a TriggerRequest for a savepoint "
                + "that stops the job when it completes. Prints the request id, which the coordinator's "
                + "RequestOutcome on <prefix>journal carries.")
final class StopCommand implements Callable<Integer> {

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--drain",
            description = "Let the tasks drain their input before the savepoint and terminate the job (Flink: "
                    + "stop --drain); without it the job is suspended and can resume from the savepoint.")
    boolean drain;

    @Option(names = "--target", paramLabel = "LOCATION",
            description = "Where to write the savepoint (default: the job's storage location).")
    String target;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "The savepoint's format, canonical or native (default: the job's --savepoint-format).")
    SavepointFormat format;

    @Option(names = "--request-id", paramLabel = "ID",
            description = "The request's id (default: a new UUID); sending the same id again asks only once.")
    String requestId;

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return TriggerCommand.send(cli, spec, request());
    }

    /** The event the flags describe: a savepoint with Flink's default force and a post-checkpoint action. */
    TriggerRequest request() {
        List<String> problems = new ArrayList<>();
        CairnCli.requireText("--job", jobId, problems);
        if (target != null && target.isBlank()) {
            problems.add("--target must not be blank (leave it out to use the job's storage location)");
        }
        TriggerCommand.requireRequestId(requestId, problems);
        CairnCli.requireNoProblems(spec, problems);
        return TriggerRequest.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId != null ? requestId : UUID.randomUUID().toString())
                .setType(CheckpointType.SAVEPOINT)
                .setForce(null)
                .setTargetLocation(target)
                .setRequester(CairnCli.REQUESTER)
                .setTimestampMs(cli.nowMs())
                .setPostCheckpointAction(drain ? PostCheckpointAction.TERMINATE : PostCheckpointAction.SUSPEND)
                .setOptions(TriggerCommand.options(null, format, null, null))
                .build();
    }
}
